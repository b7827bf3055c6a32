"""The competition catalog: public Kaggle competitions by slug, each with its metric and
options, id and target columns, Usage convention and scored columns (competitions.json,
next to this module). ``--competition SLUG`` and ``km.score(competition=SLUG)`` take
their settings from here; options given explicitly win over the catalog's.

An entry whose leaderboard number no built-in reproduces says why
(``metric_file_needed``); when a built-in gives a close or related number (the ROC area
of a Gini, log(1+x) for log) it still names that built-in, and scoring says the number is
not the leaderboard's. The file is read once per process, on first use (about a
millisecond: bench/catalog.py).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..errors import InputError

DATA = Path(__file__).with_name("competitions.json")
USAGE = "Usage"
ANY = "*"                   # targets: every column but the id (one column per class)


@dataclass(frozen=True)
class Competition:
    slug: str
    title: str
    metric: "str | None"
    options: dict = field(default_factory=dict)
    id_columns: tuple = ()
    targets: "tuple | None" = None          # solution's scored columns; None: every other one
    submission_columns: "tuple | None" = None   # when the submission carries more columns
    solution_columns: tuple = ()            # solution columns a variant reads (groups...)
    extra_ids: str = "refuse"
    usage: str = "Public/Private"
    metric_file_needed: "str | None" = None
    note: "str | None" = None

    @property
    def id_column(self):
        return ",".join(self.id_columns)

    @property
    def target_column(self):
        """The --target-column value: the scored columns (None: the layout decides)."""
        return ",".join(self.targets) if self.targets else None

    @property
    def exact(self):
        return self.metric is not None and self.metric_file_needed is None

    def submission_header(self):
        return self.id_columns + (self.submission_columns or self.targets or ())

    def solution_header(self):
        return self.id_columns + (self.targets or ()) + self.solution_columns

    def settings(self):
        """The common settings (scoring.Options fields) this competition sets."""
        out = {"metric": self.metric, "id_column": self.id_column,
               "target_column": self.target_column}
        if self.extra_ids != "refuse":
            out["extra_ids"] = self.extra_ids
        return out

    def to_json(self, options=None):
        return {"slug": self.slug, "title": self.title, "metric": self.metric,
                "options": dict(self.options if options is None else options)}

    def words(self):
        """One line: what the competition is scored by."""
        opts = ", ".join(f"{k}={v}" for k, v in self.options.items())
        what = f"{self.metric}" + (f" ({opts})" if opts else "") if self.metric else "its own metric"
        return f"{self.slug} ({self.title}): {what}"

    def layout_problem(self, solution, submission, flag="--competition"):
        """One line naming the columns that differ from this competition's files, or None.
        Solution columns beyond the competition's are left alone (Kaggle's answers often
        carry some); the submission must hold the competition's columns and no other."""
        sol = [c for c in solution if c != USAGE]
        parts = []
        missing_sol = [c for c in self.solution_header() if c not in sol]
        if missing_sol:
            parts.append(f"the solution lacks {_names(missing_sol)}")
        if self.targets is None:
            want = self.id_columns
            missing_sub = [c for c in want if c not in submission]
            extra_sub = []
        else:
            want = self.submission_header()
            missing_sub = [c for c in want if c not in submission]
            extra_sub = [c for c in submission if c not in want]
        if missing_sub:
            parts.append(f"the submission lacks {_names(missing_sub)}")
        if extra_sub:
            parts.append(f"the submission has {_names(extra_sub)}, which it does not score")
        if not parts:
            return None
        return (f"{_flag(flag, self.slug)}: these files are not laid out as its files "
                f"({'; '.join(parts)}; expected id {_names(self.id_columns)}"
                + (f" and {_names(self.submission_header()[len(self.id_columns):])})"
                   if self.targets else ")"))


def _flag(flag, slug):
    """How a message names the setting: '--competition titanic' or "competition='titanic'"."""
    return f"{flag}'{slug}'" if flag.endswith("=") else f"{flag} {slug}"


def _names(cols):
    return ", ".join(f"'{c}'" for c in cols)


def _entry(d):
    targets = d.get("targets")
    return Competition(
        slug=d["slug"], title=d["title"], metric=d.get("metric"),
        options=dict(d.get("options") or {}), id_columns=tuple(d["id"]),
        targets=None if targets in (None, ANY) else tuple(targets),
        submission_columns=tuple(d["submission_columns"]) if d.get("submission_columns")
        else None,
        solution_columns=tuple(d.get("solution_columns") or ()),
        extra_ids=d.get("extra_ids", "refuse"), usage=d.get("usage", "Public/Private"),
        metric_file_needed=d.get("metric_file_needed"), note=d.get("note"))


@lru_cache(maxsize=1)
def _raw():
    with open(DATA, encoding="utf-8") as f:
        return json.load(f)["competitions"]


@lru_cache(maxsize=1)
def catalog() -> "tuple[Competition, ...]":
    return tuple(_entry(d) for d in _raw())


@lru_cache(maxsize=1)
def _by_slug():
    return {c.slug.lower(): c for c in catalog()}


@lru_cache(maxsize=1)
def _by_header():
    """(solution columns, submission columns) -> entries with exactly that layout, made
    from the JSON rows themselves: the note of `kmetric score` builds no entry it does not
    name."""
    index = {}
    for d in _raw():
        targets = d.get("targets")
        if targets in (None, ANY):
            continue            # "one column per class": no fixed header to match
        ids = d["id"]
        sol = frozenset(ids + targets + (d.get("solution_columns") or []))
        sub = frozenset(ids + (d.get("submission_columns") or targets))
        index.setdefault((sol, sub), []).append(d)
    return index


def resolve(name, flag="--competition") -> Competition:
    """The competition of a slug (any case); InputError listing the closest slugs."""
    text = str(name).strip()
    found = _by_slug().get(text.lower())
    if found is not None:
        return found
    import difflib          # only for a name the catalog lacks
    low = text.lower()
    bare = _bare(low)
    close = [s for s in _by_slug() if bare and (bare in _bare(s) or _bare(s) in bare)]
    close += [s for s in difflib.get_close_matches(low, list(_by_slug()), n=5, cutoff=0.5)
              if s not in close]
    close = close[:5]
    hint = (f"closest: {', '.join(_by_slug()[s].slug for s in close)}" if close
            else "see 'kmetric competitions' for the list")
    where = f"{flag}'{text[:80]}'" if flag.endswith("=") else f"{flag} {text[:80]}"
    raise InputError(f"{where}: not in the competition catalog; {hint}")


def _bare(text):
    """Letters and digits only: 'aptos-2019' finds 'aptos2019-blindness-detection'."""
    return "".join(ch for ch in text if ch.isalnum())


def search(text=None):
    """Competitions whose slug, title or metric holds every word of ``text`` (all: None)."""
    from ..metrics import REGISTRY
    words = str(text or "").lower().split()
    out = []
    for c in catalog():
        label = REGISTRY[c.metric].label if c.metric in REGISTRY else "metric file"
        hay = f"{c.slug} {c.title} {c.metric or ''} {label}".lower()
        if all(w in hay for w in words):
            out.append(c)
    return out


def matching(solution, submission) -> "Competition | None":
    """The one competition whose files have exactly these headers (Usage aside), else None."""
    key = (frozenset(c for c in solution if c != USAGE), frozenset(submission))
    found = _by_header().get(key, ())
    return _entry(found[0]) if len(found) == 1 else None


def needs_metric_file(c: Competition, flag="--competition"):
    """InputError when no built-in scores the competition at all."""
    if c.metric is None:
        raise InputError(f"{_flag(flag, c.slug)}: no built-in metric scores it "
                         f"({c.metric_file_needed}); score it with its metric file "
                         + ("(metric='FILE.py')" if flag.endswith("=") else "(--metric-file FILE)"))


def merged(c: Competition, given: dict):
    """The competition's metric options with the ones given explicitly winning."""
    return {**c.options, **given}
