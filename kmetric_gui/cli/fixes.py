"""`kmetric score ... --top-fixes N`: the units whose fix gains the most."""
import argparse


def top_fixes_arg(text):
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return n


def add_fix_options(s):
    s.add_argument("--top-fixes", type=top_fixes_arg, metavar="N",
                   help="list the N rows / samples / documents whose fix (prediction set to the "
                        "truth) gains the most, in greedy order, with the exact score after each")


def fixes_for(rep, args, d):
    """Add ``top_fixes`` (and the reason when there are none) to the JSON dict."""
    if not getattr(args, "top_fixes", None):
        return None
    from ..analysis.fixes import top_fixes
    tf = top_fixes(rep, args.top_fixes)
    d["top_fixes"] = tf.to_json()
    if tf.reason:
        d["top_fixes_reason"] = tf.reason
    return tf


def fix_lines(tf, top, groups=None):
    """Human lines: a numbered table in greedy order (``groups``: group label per solution
    row, when rows are grouped: the gains stay per unit, and the lines say so)."""
    f = tf.fixes
    from ..core.words import plural as plural_of
    plural = plural_of(tf.unit)          # "queries", not "querys"
    if tf.reason:
        return [f"fixes:   none: {tf.reason}"]
    if not len(f):
        return [f"fixes:   none: every {tf.unit} is already right"]
    lines = [f"fix first: the {plural} whose fix gains the most, in greedy order",
             f"         ({tf.words}; score after: with this fix and all above)"]
    width = max(len(str(i)) for i in tf.ids)
    width = max(width, 2)
    details = tf.details or [""] * len(f)
    lines.append(f"  {'#':>4}  {'id':<{width}}  {'gain':>10}  {'score after':>11}  error")
    for k, (i, g, s, e) in enumerate(zip(tf.ids, f.gains, f.score_after, details), 1):
        lines.append(f"  {k:>4}  {str(i):<{width}}  {g:>+10.6f}  {s:>11.6f}  {e}".rstrip())
    if len(f) < top:
        lines.append(f"  only {f.n_fixable} {plural if f.n_fixable != 1 else tf.unit} "
                     "can be fixed (the others are already right)")
    if groups is not None:
        lines.append(group_note(tf.unit, groups))
    return lines


def group_note(unit, groups):
    """Grouped rows and the fix list, in words: a fix is of one unit, whatever its group."""
    import numpy as np
    g = len(np.unique(np.asarray(groups).astype(str)))
    return (f"  rows in {g:,} groups: each gain is of fixing one {unit} (a fix changes one "
            f"{unit}); intervals, shake-up and the app's held-out check resample whole groups")
