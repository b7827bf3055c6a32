"""Intervals and shake-up in words: the lines the CLI prints and the app shows."""
import numpy as np

from ..core.words import plural


def _decimals(iv):
    """Enough decimals to show the interval's width (3 at least, 6 at most)."""
    width = iv.high - iv.low
    if not np.isfinite(width) or width <= 0:
        return 3
    return int(min(6, max(3, np.ceil(-np.log10(width)) + 1)))


def interval_text(iv, seed, asked=None):
    """`[0.741, 0.812] 95% CI (percentile, 2000 replicates, seed 0)`; ``asked`` "auto"
    names the method it chose as `auto: calibrated`."""
    level = f"{100 * iv.level:g}%"
    extra = f", {iv.undefined} undefined" if iv.undefined else ""
    extra += f", {iv.groups} groups" if iv.groups is not None else ""
    method = f"auto: {iv.method}" if asked == "auto" else iv.method
    draws = "closed form" if iv.replicates == 0 else f"{iv.replicates} replicates, seed {seed}"
    how = f"({method}, {draws}{extra})"
    if not (np.isfinite(iv.low) and np.isfinite(iv.high)):
        return f"[undefined] {level} CI {how}"
    d = _decimals(iv)
    return f"[{iv.low:.{d}f}, {iv.high:.{d}f}] {level} CI {how}"


def coverage_text(iv):
    """The measured coverage of an interval's method, in words (None: no check made)."""
    c = iv.coverage
    if c is None:
        return None
    if c["measured"] is None:
        return "coverage check: not possible (the score is undefined)"
    m, s = c["measured"], c["simulations"]
    err = 100 * np.sqrt(max(m * (1 - m), 1e-12) / s)
    return (f"coverage check: {100 * m:.1f}% of {s} datasets simulated from this data were "
            f"covered by their {100 * iv.level:g}% interval ({iv.method}; an estimate, "
            f"+-{err:.1f} points)")


def coverage_short(iv):
    """Whether the measured coverage is below nominal by more than core.coverage.SHORTFALL."""
    from ..core.coverage import SHORTFALL
    c = iv.coverage
    return bool(c and c["measured"] is not None and c["measured"] < iv.level - SHORTFALL)


def compact_text(point, iv):
    """`0.7780 [0.741, 0.812]` for a score panel (the interval's width sets the decimals)."""
    p = "undefined" if point is None or not np.isfinite(point) else f"{point:.4f}"
    if iv is None or not (np.isfinite(iv.low) and np.isfinite(iv.high)):
        return f"{p} [undefined]"
    d = _decimals(iv)
    return f"{p} [{iv.low:.{d}f}, {iv.high:.{d}f}]"


def shakeup_lines(sh):
    s = sh.summary()
    lines = [f"shake-up: {sh.splits} random splits, Public {sh.public_fraction:.0%} "
             f"({sh.n_public} of {sh.n_units} {plural(sh.kind)}), seed {sh.seed}"]
    if not np.isfinite(s["mean"]):
        lines.append("          private - public: undefined in every split")
    else:
        lines.append(f"          private - public: mean {s['mean']:+.6f}, sd {s['sd']:.6f}, "
                     f"5%..95% [{s['p05']:+.6f}, {s['p95']:+.6f}], median {s['p50']:+.6f} "
                     f"({sh.worse_sign}: Private scores worse)")
    if sh.undefined:
        lines.append(f"          {sh.undefined} of {sh.splits} splits undefined on one side "
                     f"(dropped from the summary above)")
        if 2 * sh.undefined >= sh.splits:
            lines.append("          warning: most splits are undefined; the summary rests on "
                         "a minority of them")
    if np.isfinite(sh.actual_gap) and sh.rankable:
        lines.append(f"          actual gap {sh.actual_gap:+.6f}: percentile "
                     f"{sh.actual_percentile:.1f} of the simulated gaps")
    elif np.isfinite(sh.actual_gap):
        lines.append(f"          actual gap {sh.actual_gap:+.6f} (Usage column, Public "
                     f"{sh.usage_fraction:.0%}): not ranked, these splits take another share")
    return lines
