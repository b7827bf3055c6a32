"""A metric's options, declared once: name, type, default, choices, help.

The CLI flags (``cli/options.py``), the app's options panel, the JSON
``options`` object, project files and the report's options table are all
made from these declarations; nothing lists a metric's options by hand.
Numbers are read with numbers.py, the one grammar of files, CLI and edits.
"""
from dataclasses import dataclass


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

    @property
    def flag(self):
        return "--" + self.name.replace("_", "-")

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
        if self.type in (int, float):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"{self.name} must be a number, got {value!r}")
            if self.type is int and float(value) != int(value):
                raise ValueError(f"{self.name} must be a whole number, got {value!r}")
            value = self.type(value)
            if self.minimum is not None and value < self.minimum:
                raise ValueError(f"{self.name} must be at least {self.minimum:g}, got {value:g}")
            if self.maximum is not None and value > self.maximum:
                raise ValueError(f"{self.name} must be at most {self.maximum:g}, got {value:g}")
            return value
        value = str(value)
        if self.choices and value not in self.choices:
            raise ValueError(f"{self.name} must be one of {', '.join(self.choices)}, got {value!r}")
        return value


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
