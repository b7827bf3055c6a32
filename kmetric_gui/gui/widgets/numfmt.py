"""Number formats for small spaces: full, abbreviated (12.3k, 4.5M) and exact (tooltips).

Pure Python: the heatmap asks for the longest format whose texts fit its cells.
"""
import math

SUFFIXES = ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))
MISSING = "–"


def _strip(text):
    """'4.50' -> '4.5', '1.00' -> '1' (only after a decimal point)."""
    return text.rstrip("0").rstrip(".") if "." in text else text


def _sig(a, digits):
    """|a| < 1000 with `digits` significant digits, trailing zeros dropped."""
    if a == 0:
        return "0"
    decimals = max(0, digits - 1 - int(math.floor(math.log10(a))))
    return _strip(f"{a:.{decimals}f}")


def _scaled(v, digits):
    """v >= 1000 in k/M/G/T with `digits` significant digits (999,999 -> 1M, not 1000k)."""
    a = abs(v)
    for n, (base, suffix) in enumerate(SUFFIXES):
        if a >= base * (1 - 0.5 * 10 ** -digits):   # rounds up into this unit
            x = a / base
            text = _sig(x, digits)
            if float(text) >= 1000 and n > 0:          # 999.5k -> next unit up
                base, suffix = SUFFIXES[n - 1]
                text = _sig(a / base, digits)
            return ("-" if v < 0 else "") + text + suffix
    return None


def full(v, integer=False):
    """The normal cell text: 12,345 or 0.823."""
    v = float(v)
    if math.isnan(v):
        return MISSING
    if integer:
        return f"{int(round(v)):,}"
    a = abs(v)
    if a < 1e-9:            # floating-point dust (e.g. a difference of equal sums)
        return "0"
    if a >= 1000:
        return f"{v:,.0f}"
    if a >= 10:
        return f"{v:.1f}"
    if a >= 0.01:
        return f"{v:.3f}"
    return f"{v:.1e}"


def _abbrev(v, integer, digits):
    v = float(v)
    if math.isnan(v):
        return MISSING
    a = abs(v)
    if a >= 1000 * (1 - 0.5 * 10 ** -digits) and (not integer or a >= 1000):
        return _scaled(v, digits)
    if integer:
        return str(int(round(v)))
    if a < 1e-9:
        return "0"
    if a < 0.01:
        return f"{v:.0e}"
    text = _sig(a, digits)
    return ("-" if v < 0 and float(text) != 0 else "") + text


def short(v, integer=False):
    """Three significant digits: 12.3k, 4.5M, 0.823, 45.6."""
    return _abbrev(v, integer, 3)


def distinct(values, integer=False):
    """`short` texts of ``values``, with more digits where needed so that different
    values read differently (a colour bar from 199,812 to 200,187 read 200k three times)."""
    for digits in range(3, 10):
        texts = [_abbrev(v, integer, digits) for v in values]
        if len(set(texts)) == len(set(float(v) for v in values)):
            return texts
    return [full(v, integer) for v in values]


def tiny(v, integer=False):
    """Two significant digits: 12k, 4.5M, 0.82."""
    return _abbrev(v, integer, 2)


def full_for(values, integer=False):
    """`full` with one number of decimals for the whole set (a table reads 18.0, 8.2, -45.0,
    not 18.0, 8.176, -45.0): the decimals of its largest magnitude."""
    if integer:
        return full
    finite = [abs(float(v)) for v in values if math.isfinite(float(v))]
    top = max(finite, default=0.0)
    if top < 0.01 or all(float(v).is_integer() for v in finite):
        return full
    decimals = 0 if top >= 1000 else 1 if top >= 10 else 3

    def fmt(v, integer=False):
        v = float(v)
        if math.isnan(v):
            return MISSING
        text = f"{v:,.{decimals}f}"
        return text[1:] if text.startswith("-") and float(text.replace(",", "")) == 0 else text
    return fmt


def formats(values, integer=False):
    """The candidate formats for a set of values, longest first."""
    return (full_for(values, integer), short, tiny)


FORMATS = (full, short, tiny)


def exact(v, integer=False):
    """Tooltip text: every digit that matters, with thousands separators, never a repr."""
    v = float(v)
    if math.isnan(v):
        return "missing"
    if math.isinf(v):
        return "infinite" if v > 0 else "minus infinite"
    a = abs(v)
    if integer or (v.is_integer() and a < 1e15):
        return f"{int(round(v)):,}"
    if a >= 1e15 or a < 1e-4:
        return f"{v:.6e}"
    return _strip(f"{v:,.6f}") if a >= 1 else _strip(f"{v:.6g}")


def fitting(values, integer, width_of, room):
    """The first of `formats(values)` whose widest text is at most `room` wide, or None."""
    values = list(values)
    for fmt in formats(values, integer):
        if all(width_of(fmt(v, integer)) <= room for v in values):
            return fmt
    return None
