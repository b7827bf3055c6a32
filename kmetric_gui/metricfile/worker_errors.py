"""How a metric's failure is put in words inside its worker: one line as Kaggle shows
participants (280 characters), the line of the file it came from, and the full text
with the traceback behind "details" (capped)."""
import traceback

VISIBLE_LIMIT = 280          # Kaggle shows participants this many characters
DETAILS_LIMIT = 64 << 10     # the full text behind "details" (a 10 MB message is not shown whole)


def _code_name(name):
    return f"<metric file {name}>"


def _line_in_file(tb, name):
    line = None
    for frame, lineno in traceback.walk_tb(tb):
        if frame.f_code.co_filename == _code_name(name):
            line = lineno
    return line


def _describe(err, name):
    """('error', one line, line in the file, None, details) for anything the metric's code
    raised: any exception, SystemExit, KeyboardInterrupt or another BaseException."""
    line = _line_in_file(err.__traceback__, name)
    return ("error", _one_line(err), line, None, _details(err))


def _one_line(err):
    kind = type(err).__name__
    if isinstance(err, SystemExit):
        return f"it called sys.exit({err.code!r}) (SystemExit); a metric returns a number or raises"
    if isinstance(err, KeyboardInterrupt):
        return "it raised KeyboardInterrupt (an interrupt from inside the metric)"
    text = _text(err)
    msg = " ".join(text[:4 * VISIBLE_LIMIT].split()) or "(no message)"
    return cut(f"{kind}: {msg}", total=len(kind) + 2 + len(text))


def _text(err):
    try:
        return str(err)
    except BaseException:            # noqa: BLE001 -- a __str__ that fails
        return f"(its message cannot be shown: {type(err).__name__}.__str__ failed)"


def cut(text, limit=VISIBLE_LIMIT, total=None):
    """``text`` at most ``limit`` characters, a cut said with an ellipsis and the length
    (``total``: the length of the whole, when ``text`` is already a part of it)."""
    total = max(total or 0, len(text))
    if total <= limit:
        return text
    return text[:limit - 40].rstrip() + f"… (cut; {total:,} characters in all)"


def _details(err, limit=DETAILS_LIMIT):
    """The full text behind 'details': the message and the metric's traceback, capped."""
    head = f"{type(err).__name__}: {_text(err)[:limit]}"
    try:
        tb = "".join(traceback.format_tb(err.__traceback__))
    except Exception:                # noqa: BLE001
        tb = ""
    text = (tb + head) if tb else head
    return text if len(text) <= limit else text[:limit] + f"\n… (cut at {limit:,} characters)"


def describe_base(err):
    """A task's answer when it raised past every handler (kmetric's own bug included)."""
    return _describe(err, "")
