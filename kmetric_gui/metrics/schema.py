"""A metric's options, declared once: name, type, default, choices, help.

The CLI flags (``cli/options.py``), the app's options panel, the JSON
``options`` object, project files and the report's options table are all
made from these declarations; nothing lists a metric's options by hand.
Numbers are read with numbers.py, the one grammar of files, CLI and edits.
Every value is checked here, wherever it comes from (a flag, a project file,
the app's panel): non-finite numbers, whole numbers past 2^53 and over-long
text are refused in words naming the option.
"""
import math
from dataclasses import dataclass

MAX_TEXT = 1000              # a column name, a label, a choice typed by hand
WHOLE_LIMIT = 2 ** 53        # whole numbers beyond this are not exact as floats (JSON)
MAX_CUTS = 1000              # values of a list option

# Names the commands use for their own flags (statistics, output, metric files): a
# metric option of one of these names would shadow a flag. tests/cli keeps the list
# equal to the parsers' flags.
RESERVED = frozenset({
    "metric", "id_column", "target_column", "max_inflated", "max_inflated_gb",
    "allow_continuous", "json", "ci", "ci_method", "bootstrap", "seed", "shakeup",
    "public_fraction", "splits", "top_fixes", "coverage_check", "group_column", "groups",
    "permutations", "alphas", "out", "force", "pick", "leaderboard", "correlation",
    "simulations", "metric_file", "metric_arg", "higher_is_better", "lower_is_better",
    "metric_timeout", "metric_memory_gb", "executor", "fix_budget", "help", "version",
    "competition", "params", "options", "draws", "team", "usage_map", "extra_ids",
    "unscored_value", "metric_sandbox", "metric_python", "submission_time"})


@dataclass(frozen=True)
class Option:
    name: str                     # attribute of scoring.Options, JSON key: "min_rating"
    type: type                    # int, float, str or bool
    default: object = None        # None: "auto" (the metric decides from the data)
    choices: tuple = ()           # allowed values (str options)
    help: str = ""                # one line: CLI --help and the app's tooltip
    label: str = ""               # the app's form label (default: from the name)
    choice_labels: tuple = ()     # the app's words for each choice (default: the choices)
    minimum: "float | None" = None
    maximum: "float | None" = None
    step: "float | None" = None   # the app's spin box step (floats)
    cli: bool = True              # a flag of the commands (False: the app and projects only)
    reads: bool = False           # names a solution column read with the files (the app reads
                                  # them again when it changes)
    unset: str = "auto"           # the app's word for "not set" (None)
    examples: tuple = ()          # valid free-text values on the metric's demo (conformance test)

    @property
    def flag(self):
        """The CLI flag; a boolean that is on unless said has only its off switch (--no-name)."""
        prefix = "--no-" if self.type is bool and self.default is True else "--"
        return prefix + self.name.replace("_", "-")

    @property
    def title(self):
        return self.label or self.name.replace("_", " ").capitalize()

    @property
    def optional(self):
        """True when "not set" (None: auto) is a valid value."""
        return self.default is None and self.type is not bool

    def parse(self, text):
        """A value from text (CLI, the app's fields); ValueError with the reason in words.
        Empty text means "auto" for an option without a default."""
        from ..numbers import parse_number, parse_rating
        t = str(text).strip()
        if t == "" and self.optional:
            return None
        if self.type is bool:
            low = t.lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
            raise ValueError(f"{self.name}: expected true or false, got {t!r}")
        if self.type is int:
            v = parse_rating(t)
        elif self.type is float:
            v = parse_number(t)
        elif self.type is tuple:
            v = tuple(parse_number(x) for x in t.replace(",", " ").split())
        else:
            v = t
        return self.check(v)

    def check(self, value):
        """The value if allowed, else ValueError naming the option and what it accepts."""
        if value is None:
            if self.optional:
                return None
            raise ValueError(f"{self.name} needs a value")
        if self.type is bool:
            if not isinstance(value, bool):
                raise ValueError(f"{self.name} must be true or false, got {value!r}")
            return value
        if self.type is tuple:
            return self._check_numbers(value)
        if self.type in (int, float):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                what = "a whole number" if self.type is int else "a number"
                raise ValueError(f"{self.name} must be {what}, got {_said(value)}")
            if isinstance(value, float) and not math.isfinite(value):
                raise ValueError(f"{self.name} must be a finite number, got {_said(value)}")
            if self.type is int and (float(value) != int(value) or abs(value) >= WHOLE_LIMIT):
                raise ValueError(f"{self.name} must be a whole number below 2^53, "
                                 f"got {_said(value)}")
            value = self.type(value)
            if self.minimum is not None and value < self.minimum:
                raise ValueError(f"{self.name} must be at least {self.minimum:g}, got {value:g}")
            if self.maximum is not None and value > self.maximum:
                raise ValueError(f"{self.name} must be at most {self.maximum:g}, got {value:g}")
            return value
        if not isinstance(value, str):
            raise ValueError(f"{self.name} must be text, got {_said(value)}")
        if self.choices and value not in self.choices:
            raise ValueError(f"{self.name} must be one of {', '.join(self.choices)}, "
                             f"got {_said(value)}")
        if not value or len(value) > MAX_TEXT or "\x00" in value:
            raise ValueError(f"{self.name} must be text of 1 to {MAX_TEXT} characters")
        return value

    def _check_numbers(self, value):
        if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
            raise ValueError(f"{self.name} must be a list of numbers, got {_said(value)}")
        out = tuple(value)
        if len(out) > MAX_CUTS:
            raise ValueError(f"{self.name} must have at most {MAX_CUTS} numbers, got {len(out):,}")
        for v in out:
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ValueError(f"{self.name} must be a list of finite numbers, got {_said(v)} "
                                 "in it")
        return tuple(float(v) for v in out)

    def meaning(self):
        """What two metrics sharing this option's name must agree on: its type and default
        (choices may differ: each metric refuses a choice it does not take)."""
        return (self.type, self.default, bool(self.choices))


def _said(value):
    """A value in a message: short, no repr of containers."""
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def clashes(option, metric_name, metrics):
    """Why ``option`` of the metric ``metric_name`` cannot be registered beside ``metrics``
    (another meaning of the same name, or a name the commands use), or None."""
    if option.name in RESERVED:
        return f"option '{option.name}' of {metric_name} has the name of a common setting or flag"
    for m in metrics:
        if m.name == metric_name:
            continue
        for o in m.options:
            if o.name == option.name and o.meaning() != option.meaning():
                return (f"option '{option.name}' of {metric_name} ({option.type.__name__}, "
                        f"default {option.default!r}) means something else in {m.name} "
                        f"({o.type.__name__}, default {o.default!r}); give it another name")
    return None


def all_options(metrics):
    """Every declared option of the metrics, by name. Two metrics may share an option
    (e.g. ``average``) with one type and meaning: the first declaration gives the type,
    default and help, the choices are the union (each metric refuses, in its own
    ``plan``, a choice it does not take)."""
    from dataclasses import replace
    out = {}
    for m in metrics:
        for o in m.options:
            first = out.get(o.name)
            if first is None:
                out[o.name] = o
            elif o.choices and any(c not in first.choices for c in o.choices):
                labels = dict(zip(first.choices, first.choice_labels or first.choices))
                labels.update(zip(o.choices, o.choice_labels or o.choices))
                choices = tuple(dict.fromkeys(first.choices + o.choices))
                out[o.name] = replace(first, choices=choices,
                                      choice_labels=tuple(labels[c] for c in choices))
    return out
