"""Which submissions to submit: the final-two advisor over files (STATS.md, "Several
candidates").

Files are read and validated by ``comparison.load_all`` (every problem of every
file, e.g. ids missing or extra, listed per file); the valid candidates are
scored on the same bootstrap draws (core/joint.py) and the set to pick is
chosen by core/select.py. Nothing here depends on which metric it is: the
metric module's ``paired`` engine supplies the statistics, its
``higher_is_better`` the direction.

    >>> adv = select_files("solution.csv", ["a.csv", "b.csv", "c.csv"], Options(), SelectOptions())
    >>> adv.to_json()["best_set"]["names"], adv.verdict
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..core.intervals import check_level, percentile_interval
from ..core.joint import DRAWS, joint_replicates
from ..core.resample import check_replicates
from ..core.select import select
from ..errors import InputError
from .scoring import Options
from ..core.words import plural

COPY = 0.9        # replicate-score correlation above which a candidate is "nearly a copy"


@dataclass(frozen=True)
class SelectOptions:
    pick: int = 2
    level: float = 0.95
    replicates: int = 2000
    seed: int = 0
    draws: str = "auto"           # "exact", "normal" or "auto" (core/joint.py)

    def check(self):
        check_level(self.level)
        check_replicates(self.replicates)
        if self.draws not in DRAWS:
            raise InputError(f"draws must be one of {', '.join(DRAWS)}; got {self.draws!r}")
        if int(self.pick) != self.pick or self.pick < 1:
            raise InputError(f"--pick must be a whole number of 1 or more; got {self.pick}")
        return self


@dataclass
class Advice:
    metric: str
    unit: str
    names: list
    joint: object                 # core.joint.Joint
    selection: object             # core.select.Selection
    intervals: list               # core.intervals.Interval per candidate
    options: SelectOptions
    skipped: dict = field(default_factory=dict)     # file name -> its problems
    warnings: list = field(default_factory=list)

    @property
    def higher_is_better(self):
        return self.selection.higher_is_better

    @property
    def problems(self):
        from .comparison import problem_lines
        return problem_lines(self.skipped.values())

    @property
    def verdict(self):
        return verdict(self)

    def to_json(self):
        return advice_json(self)


def higher_is_better(metric):
    """The metric's direction (metrics declare ``higher_is_better``; default True)."""
    return bool(getattr(metric, "higher_is_better", True))


def select_reports(names, reports, options=SelectOptions(), cancel=None):
    """The Advice for valid ScoreReports of one truth."""
    from .comparison import _check_same_truth
    o = options.check()
    if len(reports) < o.pick + 1:
        raise InputError(f"picking {o.pick} needs at least {o.pick + 1} valid submissions; "
                         f"got {len(reports)}")
    _check_same_truth(names, reports)
    metric = reports[0].definition
    engine = metric.paired(reports, "all")
    if engine.n < 1:
        raise InputError("there are no units to compare (no scored rows)")
    joint = joint_replicates(engine, o.replicates, o.seed, o.draws, cancel)
    sel = select(joint.points, joint.reps, o.pick, higher_is_better(metric))
    ivs = [percentile_interval(joint.reps[:, c], o.level) for c in range(len(names))]
    warnings = []
    if sel.undefined:
        warnings.append(f"{sel.undefined} of {sel.replicates} replicates had no defined score "
                        "(left out of the probabilities)")
    return Advice(reports[0].metric, metric.unit, list(names), joint, sel, ivs, o,
                  warnings=warnings)


def select_files(truth_path, paths, options=Options(), sel=SelectOptions(), progress=None,
                 cancel=None):
    """Read, validate, score and advise. InputError when fewer than pick + 1 files are valid
    (its problems list every file's); else an Advice whose ``skipped`` holds the others'."""
    from .comparison import load_all, too_few
    sel.check()
    if len(paths) < sel.pick + 1:
        raise InputError(f"picking {sel.pick} needs at least {sel.pick + 1} submissions; "
                         f"got {len(paths)}")
    from .shared_truth import SharedTruth
    names, reports, problems = load_all(truth_path, paths, options, progress, cancel,
                                        loader=SharedTruth())
    ok = [i for i, r in enumerate(reports) if r is not None]
    if len(ok) < sel.pick + 1:
        lines = too_few(problems, f"picking {sel.pick}", sel.pick + 1, len(paths))
        raise InputError(lines[0], lines)
    adv = select_reports([names[i] for i in ok], [reports[i] for i in ok], sel, cancel)
    adv.skipped = {names[i]: problems[i] for i, r in enumerate(reports) if r is None}
    return adv


def add_to_report(data, cancel=None):
    """`kmetric select`'s JSON object as ``select`` in a report of 3 or more submissions of
    one truth, and its candidates as a table (report.build.ReportData)."""
    from .comparison import _names
    entries = data.entries
    if len(entries) < 3:
        return
    try:
        adv = select_reports(_names([e.path for e in entries]), [e.report for e in entries],
                             cancel=cancel)
    except InputError as e:
        data.notes.append(f"no final-submission advice: {e}")
        return
    d = data.json["select"] = adv.to_json()
    rows = [["candidate", "score", "ci_low", "ci_high", "p_best", "in_best_set"]]
    for c in d["candidates"]:
        rows.append([c["name"], c["score"], c["ci"]["low"], c["ci"]["high"], c["p_best"],
                     c["name"] in d["best_set"]["names"]])
    data.tables["select_candidates.csv"] = rows
    data.titles["select_candidates.csv"] = f"Which {adv.options.pick} to submit: {d['verdict']}"


def _num(x):
    return None if x is None or not np.isfinite(x) else float(x)


def _set_json(adv, pick):
    return {"names": [adv.names[m] for m in pick.members],
            "p_contains_best": _num(pick.p_contains_best),
            "expected_shortfall": _num(pick.shortfall)}


def advice_json(adv):
    """The `kmetric select --json` object of DESIGN.md (plus a few added keys)."""
    s, o = adv.selection, adv.options
    cands = [{"name": n, "score": _num(s.points[c]), "ci": adv.intervals[c].to_dict(o.seed),
              "p_best": _num(s.p_best[c])} for c, n in enumerate(adv.names)]
    out = {"metric": adv.metric, "higher_is_better": adv.higher_is_better,
           "n_units": adv.joint.n, "unit": adv.unit, "replicates": s.replicates, "seed": o.seed,
           "draws": adv.joint.draws, "pick": o.pick, "candidates": cands,
           "best_set": _set_json(adv, s.best), "top_by_score": _set_json(adv, s.top),
           "least_shortfall_set": _set_json(adv, s.least_shortfall),
           "agreement": {"method": "correlation of the candidates' replicate scores",
                         "names": list(adv.names),
                         "matrix": [[_num(x) for x in row] for row in s.agreement]},
           "undefined_replicates": s.undefined, "verdict": verdict(adv),
           "indistinguishable": [[adv.names[m] for m in g] for g in s.copies]}
    if adv.warnings:
        out["warnings"] = list(adv.warnings)
    if adv.skipped:
        out["skipped"] = adv.skipped
    return out


def _and(names):
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _pct(p):
    return "undefined" if p is None or not np.isfinite(p) else f"{100 * p:.0f} %"


def verdict(adv):
    """The advice in plain words, e.g. "A and C: 71 % that one of them is the best; ..."."""
    s = adv.selection
    k, c = adv.options.pick, len(adv.names)
    if any(len(g) == c for g in s.copies):
        return (f"indistinguishable: all {c} candidates score the same in every replicate (the "
                "same predictions, or ones this metric cannot tell apart on these "
                f"{plural(adv.unit)}); no pick of {k} holds the best more often than another.")
    found = [g for g in s.copies if len(set(g) & set(s.best.members)) > 1]
    if found:
        g = found[0]
        return (f"indistinguishable: {_and([adv.names[m] for m in g])} score the same in every "
                f"replicate, and fewer than {k} candidates differ; submitting copies hedges "
                "nothing.")
    best = [adv.names[m] for m in s.best.members]
    one = "it is" if k == 1 else "one of them is"
    text = f"{_and(best)}: {_pct(s.best.p_contains_best)} that {one} the best of the {c}"
    if set(s.best.members) == set(s.top.members):
        text += "; it also has the best score" if k == 1 else f"; they are also the top {k} by score"
    else:
        top = [adv.names[m] for m in s.top.members]
        rule = "the best score" if k == 1 else f"the top {k} by score"
        text += f"; {rule}, {_and(top)}: {_pct(s.top.p_contains_best)}"
        why = _why(adv)
        if why:
            text += f", because {why}"
        se = np.sqrt(max(s.best.p_contains_best * (1 - s.best.p_contains_best), 1e-12)
                     / max(s.replicates - s.undefined, 1))
        if s.best.p_contains_best - s.top.p_contains_best < 2 * np.sqrt(2) * se:
            text += f" (a difference within the Monte-Carlo error of {s.replicates} replicates)"
    if s.best.p_contains_best < 0.5:
        text += (f". No pick of {k} is likely to hold the best: on {adv.joint.n} {plural(adv.unit)} "
                 "the candidates are too close to tell apart")
    for g in s.copies:
        text += (f". {_and([adv.names[m] for m in g])} score the same in every replicate: they "
                 "are indistinguishable here, and submitting more than one of them hedges nothing")
    return text + "."


def _why(adv):
    """Why the top by score hedges less: a member nearly copying another, or rarely best."""
    s = adv.selection
    top = list(s.top.members)
    for m in top:
        if m in s.best.members:
            continue
        others = [x for x in top if x != m]
        r = s.agreement[m, others]
        if r.size and np.isfinite(r).any() and np.nanmax(r) >= COPY:
            twin = others[int(np.nanargmax(r))]
            return (f"{adv.names[m]} is nearly a copy of {adv.names[twin]} (their scores "
                    f"correlate {np.nanmax(r):.2f} over the replicates)")
        return f"{adv.names[m]} is rarely the best ({_pct(s.p_best[m])})"
    return ""


__all__ = ["SelectOptions", "Advice", "select_files", "select_reports", "advice_json", "verdict",
           "higher_is_better", "add_to_report"]
