"""Errors a user can act on. Standard library only."""


class InputError(ValueError):
    """Bad input: the message names the file, column, row or id at fault.

    ``problems`` holds every problem found (one line each) when a validation
    pass collected several; ``str(error)`` is the first or only one.
    """

    def __init__(self, message, problems=None):
        self.problems = list(problems) if problems else [str(message)]
        super().__init__(str(message))


class Cancelled(Exception):
    """Raised inside long work when the caller asked it to stop."""


# Characters a terminal or a page would act on instead of showing: C0 controls but
# line feed and tab, DEL, C1 controls (ESC [ ... and CSI move the cursor, recolour,
# retitle the window) and the bidirectional controls (a right-to-left override
# reverses the text after it, so 'exe.txt' can read 'txt.exe').
_HIDDEN = ({c for c in range(0x20) if c not in (0x09, 0x0A)} | {0x7F} | set(range(0x80, 0xA0))
           | {0x061C, 0x200E, 0x200F, 0x2028, 0x2029} | set(range(0x202A, 0x202F))
           | set(range(0x2066, 0x206A)))
_VISIBLE = {c: (f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}") for c in _HIDDEN}


def visible(text):
    """``text`` with control and direction-changing characters written as escapes
    (ESC as \\x1b, a right-to-left override as \\u202e): shown, never obeyed."""
    return str(text).translate(_VISIBLE)


class VisibleStream:
    """A text stream that writes ``visible(text)`` (messages naming columns and ids
    taken from files)."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        return self._stream.write(visible(text))

    def __getattr__(self, name):
        return getattr(self._stream, name)
