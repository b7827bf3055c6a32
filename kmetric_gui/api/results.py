"""What the API returns: plain objects over the commands' JSON.

``to_dict()`` is the object the matching command prints with ``--json`` for the
same input and options; the attributes read it (and the analysis behind it).
"""
from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from typing import Any


def _float(x):
    return math.nan if x is None else float(x)


@dataclass(frozen=True)
class Interval:
    """A bootstrap interval: ``low, high = result.interval`` unpacks its ends."""
    low: float
    high: float
    level: float
    method: str
    warnings: tuple = ()

    def __iter__(self):
        return iter((self.low, self.high))

    @classmethod
    def of(cls, d: "dict | None") -> "Interval | None":
        if not d:
            return None
        return cls(_float(d.get("low")), _float(d.get("high")), float(d["level"]),
                   str(d.get("method", "")), tuple(d.get("warnings") or ()))


@dataclass(frozen=True)
class OptionInfo:
    name: str            # the keyword of km.score (the CLI flag with dashes)
    type: str            # "int", "float", "str" or "bool"
    default: Any
    choices: tuple
    help: str


@dataclass(frozen=True)
class MetricInfo:
    name: str            # metric= value
    label: str
    higher_is_better: bool
    unit: str            # what is resampled: row, sample, document, image...
    options: tuple       # OptionInfo of each of its options


@dataclass(frozen=True)
class Detection:
    metric: str
    label: str
    higher_is_better: bool
    reason: str          # why this metric, in words
    layout: str          # both inputs' layouts, in words
    competition: "str | None" = None   # the one catalog competition with these headers


class _Json:
    """A result holding a command's JSON object."""
    _d: dict

    def to_dict(self) -> dict:
        """The command's ``--json`` object (a copy)."""
        return copy.deepcopy(self._d)

    @property
    def metric(self) -> str:
        return self._d["metric"]

    @property
    def higher_is_better(self) -> bool:
        return bool(self._d.get("higher_is_better", True))


class Result(_Json):
    """One scored submission (``km.score``)."""

    def __init__(self, d, report, stats, fixes, sources, call):
        self._d, self._report, self._stats, self._fixes = d, report, stats, fixes
        self._definition = report.definition       # kept: a function's metric is unregistered
        self._sources, self._call = list(sources), call

    @property
    def score(self) -> float:
        """The score over every scored row (nan when undefined: see ``undefined_reason``)."""
        return _float(self._d.get("score"))

    @property
    def undefined_reason(self) -> "str | None":
        return self._d.get("undefined_reason")

    @property
    def public(self) -> "float | None":
        """The Public score (a Usage column in the solution), else None."""
        return _float(self._d["public"]) if "public" in self._d else None

    @property
    def private(self) -> "float | None":
        return _float(self._d["private"]) if "private" in self._d else None

    @property
    def interval(self) -> "Interval | None":
        """The score's interval (with ``ci=``), else None."""
        return Interval.of(self._d.get("ci"))

    @property
    def public_interval(self) -> "Interval | None":
        return Interval.of(self._d.get("public_ci"))

    @property
    def private_interval(self) -> "Interval | None":
        return Interval.of(self._d.get("private_ci"))

    @property
    def n_rows(self) -> int:
        return int(self._d["n_rows"])

    @property
    def shakeup(self) -> "dict | None":
        return copy.deepcopy(self._d.get("shakeup"))

    @property
    def top_fixes(self) -> "list[dict]":
        return copy.deepcopy(self._d.get("top_fixes", []))

    @property
    def problems(self) -> "list[str]":
        """Notes that did not stop scoring: the data's, an undefined score's, the
        intervals' warnings, why there is no shake-up or no fix."""
        out = [str(p) for p in getattr(self._report.prepared, "notes", [])]
        d = self._d
        for key, what in (("undefined_reason", "score"), ("public_undefined_reason", "public score"),
                          ("private_undefined_reason", "private score")):
            if d.get(key):
                out.append(f"{what} undefined: {d[key]}")
        for key in ("ci", "public_ci", "private_ci"):
            out += [f"{key}: {w}" for w in (d.get(key) or {}).get("warnings", [])]
        for key, what in (("shakeup_problem", "shake-up"), ("top_fixes_reason", "top fixes")):
            if d.get(key):
                out.append(f"{what}: {d[key]}")
        return out

    def rows(self):
        """A pandas DataFrame of each scored unit's contribution (see docs/python-api.md)."""
        from .rows import unit_rows
        return unit_rows(self)

    def _repr_html_(self) -> str:
        from .html import result_html
        return result_html(self)

    def __repr__(self) -> str:
        parts = [f"metric={self.metric!r}", f"score={self.score:.6g}"]
        for name in ("public", "private"):
            v = getattr(self, name)
            if v is not None:
                parts.append(f"{name}={v:.6g}")
        iv = self.interval
        if iv is not None:
            parts.append(f"interval=({iv.low:.6g}, {iv.high:.6g})")
        return f"Result({', '.join(parts)})"


class Comparison(_Json):
    """Several submissions against one solution (``km.compare``)."""

    def __init__(self, cmp):
        self._cmp = cmp
        self._d = cmp.to_json()

    @property
    def names(self) -> "list[str]":
        return [s["name"] for s in self._d["submissions"]]

    @property
    def scores(self) -> "dict[str, float]":
        return {s["name"]: _float(s["score"]) for s in self._d["submissions"]}

    @property
    def best(self) -> "str | None":
        """The best submission by score, in the metric's direction."""
        b = self._cmp.best
        return None if b is None else self._cmp.submissions[b].name

    @property
    def pairs(self) -> "list[dict]":
        return copy.deepcopy(self._d["pairs"])

    @property
    def problems(self) -> "list[str]":
        """The problems of the submissions left out (invalid), and warnings."""
        return list(self._cmp.problems) + list(self._d.get("warnings", []))

    def _repr_html_(self) -> str:
        from .html import comparison_html
        return comparison_html(self)

    def __repr__(self):
        return f"Comparison(metric={self.metric!r}, scores={self.scores})"


class Selection(_Json):
    """Which submissions to pick (``km.select``)."""

    def __init__(self, adv):
        self._adv = adv
        self._d = adv.to_json()

    @property
    def verdict(self) -> str:
        return self._d["verdict"]

    @property
    def best_set(self) -> "list[str]":
        return list(self._d["best_set"]["names"])

    @property
    def p_best(self) -> "dict[str, float]":
        return {c["name"]: _float(c["p_best"]) for c in self._d["candidates"]}

    @property
    def problems(self) -> "list[str]":
        return list(self._adv.problems) + list(self._d.get("warnings", []))

    def _repr_html_(self) -> str:
        from .html import selection_html
        return selection_html(self)

    def __repr__(self):
        return f"Selection(best_set={self.best_set}, verdict={self.verdict!r})"


class Ranking(_Json):
    """Where a submission may land on the private leaderboard (``km.rank``)."""

    def __init__(self, landing):
        self._d = landing.to_json()

    @property
    def medals(self) -> "dict[str, float]":
        return dict(self._d["medals"])

    @property
    def rank_now(self) -> int:
        return int(self._d["rank_now"])

    @property
    def ranks(self) -> "tuple[int, int, int]":
        """The 5th, 50th and 95th percentiles of the simulated private rank."""
        d = self._d
        return int(d["rank_p05"]), int(d["rank_p50"]), int(d["rank_p95"])

    @property
    def problems(self) -> "list[str]":
        return list(self._d.get("warnings", []))

    def _repr_html_(self) -> str:
        from .html import ranking_html
        return ranking_html(self)

    def __repr__(self):
        return f"Ranking(rank_now={self.rank_now}, ranks={self.ranks}, medals={self.medals})"


__all__ = ["Result", "Comparison", "Selection", "Ranking", "Interval", "MetricInfo",
           "OptionInfo", "Detection"]
