"""A built-in metric beside a metric file: both run, and the difference is said.

The built-in is the one the user names (``--metric``) or, on pairs small enough
that a second read costs little, the one detection proposes for the files; a
proposal is kept only when it gives the same number (it then computes the same
thing, and its fast statistics apply). JSON: ``"parity": {"metric", "score",
"difference"}`` (difference = the file's score minus the built-in's).
"""
import math

DETECT_ROWS = 200_000        # above this, detection's proposal is not run (a second read)
SAME = 1e-9                  # relative: "the same number"


def same(a, b):
    return math.isfinite(a) and math.isfinite(b) and abs(a - b) <= SAME * max(1.0, abs(b))


def _built_in(truth, submission, options):
    from ..analysis.scoring import load, score_prepared
    return score_prepared(load(truth, submission, options), options)


def _proposed(truth, submission, options, file_score):
    """The report of detection's proposal that gives the file's score (several fit: each
    tried), or None."""

    from ..errors import InputError
    try:
        rep = _built_in(truth, submission, options)
    except InputError as e:
        names = getattr(e, "names", None)
        if not isinstance(names, list):
            return None
        for name in names[:4]:
            try:
                rep = _built_in(truth, submission, options.with_(metric=name))
            except (InputError, ValueError):
                continue
            if same(file_score, rep.score):
                return rep
        return None
    except ValueError:
        return None
    return rep if same(file_score, rep.score) else None


def parity(truth, submission, options, file_score, n_rows):
    """(parity dict or None, a note line or None)."""
    from ..errors import InputError
    if options.metric is None:
        if n_rows > DETECT_ROWS:
            return None, None
        rep = _proposed(truth, submission, options, file_score)
        if rep is None:
            return None, None
    else:
        try:
            rep = _built_in(truth, submission, options)
        except (InputError, ValueError) as e:
            return None, f"the built-in {options.metric} cannot score these files: {e}"
    diff = file_score - rep.score
    d = {"metric": rep.metric, "score": rep.score, "difference": diff}
    if same(file_score, rep.score):
        note = (f"the built-in {rep.metric} gives the same score; its fast intervals, shake-up and "
                f"fixes apply: kmetric score ... --metric {rep.metric}")
    else:
        note = f"the built-in {rep.metric} gives {rep.score:.6f} (difference {diff:+.3g})"
    return d, note
