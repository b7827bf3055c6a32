"""The text of a saved submission: its line endings as the file read had them, and the
csv writer that quotes a bare \\r (so the file reads back)."""
from pathlib import Path


def _line_end(path):
    """'\r\n' when the plain-text file read ends its first line so (a Windows-made
    submission keeps its line endings when saved), else '\n' (also for compressed
    and Parquet files: their bytes are no lines)."""
    if Path(str(path)).suffix.lower() not in (".csv", ".tsv", ".txt"):
        return "\n"
    try:
        with open(path, "rb") as f:
            head = f.read(1 << 16)
    except (OSError, TypeError):
        return "\n"
    cut = head.find(b"\n")
    return "\r\n" if cut > 0 and head[cut - 1:cut] == b"\r" else "\n"


def _csv(header, rows, end="\n"):
    from itertools import chain

    from ..io.saving import csv_text     # quotes a bare \r too: the file reads back
    return csv_text(chain([header], rows), spreadsheet=False, end=end)
