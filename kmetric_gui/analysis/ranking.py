"""Where a submission lands: its private rank and medal odds against a public leaderboard.

Our public score and our private - public gaps come from the existing
statistics: with a Usage column, the public score and the shake-up
simulator's gaps (stats.shakeup); without one, the score on all rows and
the bootstrap's spread around it (replicate - score). The leaderboard is
Kaggle's public leaderboard download (TeamId, TeamName, SubmissionDate,
Score; a .csv, or the .zip holding it) or a plain two-column team,score CSV.
The model and the medal rules are core/rank.py's.

    >>> lb = read_leaderboard("leaderboard.csv")
    >>> where = rank_files("solution.csv", "sub.csv", lb, Options(), RankOptions())
    >>> where.to_json()["medals"]
"""
from __future__ import annotations

import csv
import gzip
import io
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import InputError
from ..numbers import shown, why_not_number
from .scoring import Options

SCORE_NAMES = ("score", "publicscore", "public score", "public_score")
TEAM_NAMES = ("teamname", "team name", "team", "name", "teamid", "team id")
DATE_NAMES = ("submissiondate", "submission date", "submission_date", "date")
SENSITIVITY = (0.0, 1.0)
MAX_SHOWN = 20            # bad rows named before "and N more"


@dataclass(frozen=True)
class RankOptions:
    correlation: float = 0.5
    simulations: int = 10_000
    seed: int = 0
    splits: int = 2000        # shake-up splits or bootstrap replicates for our gaps
    team: "str | None" = None  # our team's row on the leaderboard, left out of the others
    submitted: str = "last"    # our submission time for ties: "first", "last" or a date-time

    def check(self):
        from .ranking_odds import check_submitted
        check_submitted(self.submitted)
        if not -1 <= self.correlation <= 1:
            raise InputError(f"--correlation must be from -1 to 1; got {self.correlation}")
        if int(self.simulations) != self.simulations or not 1 <= self.simulations <= 1_000_000:
            raise InputError(f"--simulations must be from 1 to 1,000,000; got {self.simulations}")
        return self


@dataclass(frozen=True)
class Leaderboard:
    name: str                  # the file's name
    teams: list                # team names (or ids)
    scores: np.ndarray         # (T,) public scores in file order
    dates: "list | None" = None   # each team's SubmissionDate text, when the file has them


def _text(path):
    p = Path(path)
    raw = p.read_bytes()
    if p.suffix.lower() == ".gz":
        raw = gzip.decompress(raw)
    elif p.suffix.lower() == ".zip":
        with zipfile.ZipFile(io.BytesIO(raw)) as z:
            inner = [n for n in z.namelist() if not n.endswith("/")]
            if len(inner) != 1:
                raise InputError(f"leaderboard {p.name}: the .zip holds {len(inner)} files; "
                                 "expected one CSV")
            raw = z.read(inner[0])
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"leaderboard {p.name}: not UTF-8 text") from None


def read_leaderboard(path):
    """A Leaderboard; InputError naming every bad row (no score column, non-numbers)."""
    name = Path(path).name
    try:
        text = _text(path)
    except OSError as e:
        raise InputError(f"leaderboard {name}: cannot read it ({e.strerror or e})") from None
    rows = [r for r in csv.reader(io.StringIO(text)) if any(c.strip() for c in r)]
    if not rows:
        raise InputError(f"leaderboard {name}: the file is empty")
    head = [c.strip() for c in rows[0]]
    low = [c.lower() for c in head]
    headed = not (len(head) == 2 and why_not_number(head[1]) is None)
    if headed:
        data = rows[1:]
        sc = next((low.index(n) for n in SCORE_NAMES if n in low), None)
        if sc is None and len(head) == 2:
            sc = 1
        if sc is None:
            raise InputError(f"leaderboard {name}: no score column (looked for 'Score', or a "
                             f"two-column team,score file); found columns: {', '.join(head)}")
        tc = next((low.index(n) for n in TEAM_NAMES if n in low), 0 if sc != 0 else 1)
        dc = next((low.index(n) for n in DATE_NAMES if n in low), None)
        score_name = head[sc]
    else:
        data, sc, tc, dc, score_name = rows, 1, 0, None, "2"
    if not data:
        raise InputError(f"leaderboard {name}: no team rows under the header")
    teams, scores, dates, bad = [], [], [], []
    for i, r in enumerate(data):
        team = r[tc].strip() if tc < len(r) else ""
        value = r[sc] if sc < len(r) else None
        why = why_not_number(value)
        if why:
            bad.append(f"leaderboard {name}: row {i + 1} (team {shown(team)}), column "
                       f"'{score_name}': {shown(value)} is not a number ({why})")
            continue
        teams.append(team)
        scores.append(float(value.strip()))
        dates.append(r[dc].strip() if dc is not None and dc < len(r) else "")
    if bad:
        extra = [f"leaderboard {name}: and {len(bad) - MAX_SHOWN} more rows whose score is not "
                 "a number"] if len(bad) > MAX_SHOWN else []
        lines = bad[:MAX_SHOWN] + extra
        raise InputError(lines[0], lines)
    return Leaderboard(name, teams, np.asarray(scores, dtype=np.float64),
                       dates if dc is not None else None)


def board_direction(scores):
    """True: sorted best (highest) first; False: lowest first; None: not sorted or too few."""
    s = np.asarray(scores, dtype=np.float64)
    if np.unique(s).size < 3:
        return None
    d = np.diff(s)
    if (d <= 0).all():
        return True
    if (d >= 0).all():
        return False
    return None


@dataclass
class Landing:
    metric: str
    higher_is_better: bool
    score: float               # our public score (or the score on all rows)
    source: str                # "shakeup" or "bootstrap": where our gaps came from
    gaps: np.ndarray
    main: object               # core.rank.RankSim at the chosen correlation
    sensitivity: list          # RankSim at 0 and 1
    options: RankOptions
    leaderboard: str
    warnings: list = field(default_factory=list)
    batches: int = 1           # independent batches of splits and simulations (ranking_odds)

    def assumptions(self):
        o = self.options
        where = ("our private - public gap is drawn from the shake-up simulator (random "
                 "Public/Private splits in the Usage column's proportion)"
                 if self.source == "shakeup" else
                 "without a Usage column, our private score is drawn from the bootstrap of our "
                 "score (replicate - score as the private - public gap)")
        better = "higher" if self.higher_is_better else "lower"
        return [where,
                "every other team's private - public gap has the same spread as ours",
                f"their gaps correlate {o.correlation:g} with ours (sensitivity at 0 and 1 "
                "shown; at 1 everyone moves alike and the public order stays)",
                f"the leaderboard's public scores are on the same scale as ours ({better} is "
                "better); teams = the leaderboard's rows + us",
                "equal scores are ordered by submission time, earlier first (Kaggle's rule); "
                + ("ours is taken as the last, so every tie counts against us"
                   if o.submitted == "last" else "ours is taken as the first" if o.submitted ==
                   "first" else f"ours was submitted at {o.submitted}")
                + " (--submission-time first|last|TIME)",
                f"{self.main.ranks.size} simulations and {self.gaps.size} simulated gaps in "
                f"{self.batches} independent batches, seed {o.seed}; medal odds with their "
                "Monte-Carlo error (the batches' spread), more batches drawn until rare odds are "
                "within 25 % of themselves or below 0.1 %; medals by Kaggle's rules for "
                f"{self.main.teams} teams, percentages rounded down"]

    def to_json(self):
        return landing_json(self)


def our_gaps(report, splits=2000, seed=0):
    """(public score, gaps, source) of a ScoreReport."""
    from ..core.resample import bootstrap
    from .stats import ShakeupOptions, shakeup
    if "public" in report.splits and "private" in report.splits:
        sh = shakeup(report, ShakeupOptions(None, splits, seed))
        return float(report.splits["public"].score), sh.gap[np.isfinite(sh.gap)], "shakeup"
    point = float(report.score)
    reps = bootstrap(report.definition.units(report.result), splits, seed)
    return point, reps[np.isfinite(reps)] - point, "bootstrap"


def land(report, board, options=RankOptions(), cancel=None):
    """The Landing of a scored report among a Leaderboard's teams."""
    o = options.check()
    from .select import higher_is_better
    hib = higher_is_better(report.definition)
    teams, scores = list(board.teams), board.scores
    dates = board.dates
    warnings = []
    if o.team is not None:
        keep = [i for i, t in enumerate(teams) if t != o.team]
        if len(keep) == len(teams):
            warnings.append(f"team {shown(o.team)} is not on the leaderboard {board.name}")
        scores = scores[keep]
        dates = None if dates is None else [dates[i] for i in keep]
    from .ranking_odds import BATCHES, batched_odds, earlier_teams, simulate
    earlier = earlier_teams(o.submitted, dates, scores.size, board.name)
    per = max(1, -(-o.splits // BATCHES))
    score, gaps, source = our_gaps(report, per, o.seed)
    if not np.isfinite(score):
        raise InputError("the submission's score is undefined: there is no rank to simulate")
    if gaps.size == 0:
        raise InputError("the submission's private - public gap is undefined in every simulation")
    direction = board_direction(board.scores)
    if direction is not None and direction != hib:
        warnings.append(f"the leaderboard {board.name} lists the {'highest' if direction else 'lowest'}"
                        f" score first, but {report.metric} is better when "
                        f"{'higher' if hib else 'lower'}: is it the right metric or file?")
    if scores.size:
        lo, hi = float(scores.min()), float(scores.max())
        span = max(hi - lo, 4 * float(np.std(gaps)))
        if score < lo - span or score > hi + span:
            warnings.append(f"our score {score:.6g} is far outside the leaderboard's range "
                            f"[{lo:.6g}, {hi:.6g}]: is it the same metric and test set?")

    def gaps_of(seed):
        return gaps if seed == o.seed else our_gaps(report, per, seed)[1]
    sims, all_gaps = batched_odds(simulate(score, scores, hib, earlier), gaps_of,
                                  (o.correlation,) + SENSITIVITY, o.simulations, o.seed, cancel)
    return Landing(report.metric, hib, score, source, all_gaps, sims[0], sims[1:], o, board.name,
                   warnings, sims[0].batches.shape[0])


def rank_files(truth_path, submission_path, board, options=Options(), rank=RankOptions(),
               progress=None, cancel=None):
    from .scoring import score_files
    rank.check()
    report = score_files(truth_path, submission_path, options, progress, cancel)
    return land(report, board, rank, cancel)


def read_board_arg(path, stream):
    """The leaderboard of a --leaderboard flag: None without one, False (problems printed)
    when it cannot be read."""
    if not path:
        return None
    try:
        return read_leaderboard(path)
    except InputError as e:
        for line in e.problems:
            print(f"kmetric: {line}", file=stream)
        return False


def add_to_report(data, board, options=RankOptions(), cancel=None):
    """`kmetric rank`'s JSON object as ``rank`` for the report's first submission, and the
    rank histogram as a table (report.build.ReportData)."""
    try:
        where = land(data.main.report, board, options, cancel)
    except InputError as e:
        data.notes.append(f"no rank simulation: {e}")
        return
    d = data.json["rank"] = where.to_json()
    counts = np.bincount(where.main.ranks)
    th = d["thresholds"]
    rows = [["rank", "simulations", "medal"]]
    for r in np.flatnonzero(counts):
        medal = next((m for m in ("gold", "silver", "bronze") if r <= th[m]), "none")
        rows.append([int(r), int(counts[r]), medal])
    data.tables["rank_histogram.csv"] = rows
    m = d["medals"]
    data.titles["rank_histogram.csv"] = (
        f"Where {data.main.name} may land among {d['teams']} teams: median rank {d['rank_p50']} "
        f"(90% in [{d['rank_p05']}, {d['rank_p95']}]); gold {100 * m['gold']:.1f}%, silver "
        f"{100 * m['silver']:.1f}%, bronze {100 * m['bronze']:.1f}%")


def _sim_json(sim):
    from .ranking_odds import odds_json
    p05, p50, p95 = sim.quantiles()
    return {"correlation": sim.correlation, "rank_p05": p05, "rank_p50": p50, "rank_p95": p95,
            "medals": sim.medals(), "medal_odds": odds_json(sim)}


def landing_json(w):
    """The `kmetric rank --json` object of DESIGN.md (plus a few added keys)."""
    from .ranking_odds import odds_json
    m = w.main
    p05, p50, p95 = m.quantiles()
    gap = w.gaps
    out = {"metric": w.metric, "higher_is_better": w.higher_is_better, "teams": m.teams,
           "score": w.score, "rank_now": m.rank_now, "rank_p05": p05, "rank_p50": p50,
           "rank_p95": p95, "medals": m.medals(), "medal_odds": odds_json(m),
           "thresholds": dict(m.thresholds),
           "correlation": m.correlation, "simulations": int(m.ranks.size),
           "splits": int(gap.size), "batches": w.batches,
           "submission_time": w.options.submitted,
           "seed": w.options.seed, "gap_source": w.source,
           "gap_sd": float(np.std(gap, ddof=1)) if gap.size > 1 else None,
           "sensitivity": [_sim_json(s) for s in w.sensitivity],
           "assumptions": w.assumptions(), "leaderboard": w.leaderboard}
    if w.warnings:
        out["warnings"] = list(w.warnings)
    return out


__all__ = ["RankOptions", "Leaderboard", "Landing", "read_leaderboard", "land", "rank_files",
           "landing_json", "board_direction", "our_gaps", "add_to_report", "read_board_arg"]
