"""Several submissions read and scored against one truth: each valid one's report, the
others' problems in words, and the refusal when too few are valid (compare, select,
rank and the notebook API share it)."""
from pathlib import Path

from ..errors import Cancelled, InputError
from .scoring import Options, load, score_prepared


def _noop(*_):
    return False


def _names(paths):
    names = [Path(p).name for p in paths]
    seen = {}
    for i, n in enumerate(names):
        if names.count(n) > 1:
            seen[n] = seen.get(n, 0) + 1
            if seen[n] > 1:
                names[i] = f"{n} ({seen[n]})"
    return names


def load_all(truth_path, paths, options=Options(), progress=None, cancel=None, loader=None,
             names=None):
    """Validated reports of every valid submission, and the problems of the others.

    Returns (names, reports, problems): reports[i] is None when file i is
    invalid, problems[i] lists its problems in words (naming the file). A
    problem of the solution that comes up with only some submissions (e.g. the
    id column a submission names) says which. ``loader``: scoring.load or one like it;
    ``names``: the submissions' names (default: from the paths).
    """
    progress, cancel = progress or _noop, cancel or _noop
    names = list(names) if names is not None else _names(paths)
    reports, problems = [], []
    for i, path in enumerate(paths):
        if cancel():
            raise Cancelled("reading submissions")
        progress(0.4 * i / len(paths), f"reading {names[i]}")
        try:
            prep = (loader or load)(truth_path, path, options, cancel=cancel)
            reports.append(score_prepared(prep, options, cancel=cancel))
            problems.append([])
        except InputError as e:
            reports.append(None)
            problems.append([str(p) for p in e.problems])
    solution = [{x for x in lines if x.startswith("solution ")} for lines in problems]
    common = set.intersection(*solution) if all(r is None for r in reports) else set()
    for i, lines in enumerate(problems):
        problems[i] = [x if x in common or not x.startswith("solution ") else
                       f"{x} (with submission {names[i]})" for x in lines]
    _check_layouts(names, reports, problems)
    return names, reports, problems


def problem_lines(problems):
    """Every file's problems in order, each line once."""
    out = []
    for lines in problems:
        out.extend(x for x in lines if x not in out)
    return out


def too_few(problems, what, need, total):
    """The lines refusing ``what`` with fewer than ``need`` valid files of ``total``. When
    every file has the same problems (one cause for all: the metric not chosen, the
    solution), the files are not invalid in themselves, so no "0 of N are valid" follows."""
    lines = problem_lines(problems)
    valid = sum(1 for p in problems if not p)
    if valid == 0 and total > 1 and all(p == problems[0] for p in problems):
        return lines
    return lines + [f"{what} needs at least {need} valid submissions; {valid} of {total} are valid"]


def _check_layouts(names, reports, problems):
    """Submissions must share the metric (and its layout) of the first valid one."""
    first = next((i for i, r in enumerate(reports) if r is not None), None)
    if first is None:
        return
    ref = reports[first]
    for i, r in enumerate(reports):
        if r is None or i == first:
            continue
        if r.metric != ref.metric:
            problems[i].append(f"submission {names[i]}: its layout fits {r.metric} ({r.reason}), "
                               f"but {names[first]} fits {ref.metric}; compare like with like")
            reports[i] = None
        elif getattr(r.prepared, "classes", None) != getattr(ref.prepared, "classes", None):
            problems[i].append(f"submission {names[i]}: its class columns differ from "
                               f"{names[first]}'s")
            reports[i] = None
