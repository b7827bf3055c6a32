"""Plain CSV text read in pieces of whole lines, each parsed by Arrow's threaded reader.

Shared by the metrics' lean readers (metrics/*_reader.py). Reading the text
ourselves bounds the memory: Arrow's whole-file reader holds about twice the
text beside the table, its streaming reader reads far ahead. Two buffers take
turns, so the next piece is parsed while the caller works on this one (Arrow
copies every value out of the text: a buffer is free once its piece is parsed).
Each piece is checked on the way: a quote (a field could hold a line break) or
a hex prefix (Arrow's integers take 0x3 as 3) sends the pair to the full read.
A caller reading only text columns may accept quotes (``quotes=True``: only a
line break inside quotes is refused, so every piece ends where a row ends, as
in the full read) and skip the hex check (``hex=False``).
"""
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

from .read import PARQUET, _delimiter
from .sources import fingerprint, head_bytes, open_source

PIECE = 4 << 20             # bytes of text per parse: Arrow's threads share its blocks
_PARSER = ThreadPoolExecutor(2, thread_name_prefix="kmetric-parse")   # two files read side by side


class Off(Exception):
    """This pair is not for a lean reader (the full read will say why, if anything)."""


def plain(path, label, options):
    """The delimiter of a plain CSV/TSV file; Off for .gz/.zip/Parquet or odd text."""
    name, opener = open_source(path, label, options.max_inflated)
    if str(path).lower().endswith((".gz", ".zip")) or name.endswith(PARQUET):
        raise Off
    head = head_bytes(opener)
    if head[:4] == b"PAR1" or b"\x00" in head or head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise Off
    body = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
    if b"\n" not in body:
        raise Off
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as e:
        if e.start < len(body) - 4:                 # not just a character cut at the sniff edge
            raise Off from None
    first = body.split(b"\n", 1)[0].decode("utf-8").rstrip("\r")
    if not first.strip():
        raise Off
    return _delimiter(name, first)


def id_column(sol_head, sub_head, options):
    """The id column of a pair with plain headers (Off otherwise: the full read says why)."""
    for head in (sol_head, sub_head):
        if len(set(head)) != len(head) or any(not c.strip() for c in head):
            raise Off
    id_col = options.id_column or sub_head[0]
    if id_col not in sol_head or id_col not in sub_head:
        raise Off
    return id_col


def convert(types, include=None):
    """Arrow's conversion as the full read does it: no word read as missing or boolean,
    empty text kept as "" (io.read.read_table)."""
    return pacsv.ConvertOptions(column_types=types, include_columns=include or [], null_values=[],
                                true_values=[], false_values=[], strings_can_be_null=False,
                                quoted_strings_can_be_null=False)


def tables(path, delim, head, convert, progress=None, quotes=False, hex=True, fixed=None):
    """pyarrow Tables of the rows after the header, a piece at a time.

    ``head``: the column names; ``convert``: Arrow's ConvertOptions;
    ``progress(fraction of the file)`` after each piece is read; ``quotes``:
    quoted fields accepted (none may hold a line break); ``hex``: "0x" refused;
    ``fixed(text)``: what to yield instead of a table for a piece it can cut
    without Arrow's parser (None: parse it). What it yields may view the text:
    it is valid until the next piece is asked for.
    """
    import os
    read = pacsv.ReadOptions(column_names=head, block_size=PIECE // 4)
    parse = pacsv.ParseOptions(delimiter=delim)

    def parsed(view):
        cut = fixed(view) if fixed is not None else None
        if cut is not None:
            return cut
        return pacsv.read_csv(pa.BufferReader(pa.py_buffer(view)), read_options=read,
                              parse_options=parse, convert_options=convert)
    before = fingerprint(path)
    size = max(os.path.getsize(path), 1)
    if size <= PIECE:                               # one piece: no thread to hand it to
        for view in _texts(path, size, progress, 1, quotes, hex):
            yield parsed(view)
        _same(path, before)
        return
    pending = None
    for view in _texts(path, size, progress, 2, quotes, hex):
        nxt = _PARSER.submit(parsed, view)
        if pending is not None:
            yield pending.result()
        pending = nxt
    if pending is not None:
        yield pending.result()
    _same(path, before)


def _same(path, before):
    """Off when the file changed while read: the full read then reads it again (and says so
    if it is still changing)."""
    if fingerprint(path) != before:
        raise Off


def _texts(path, size, progress, turns, quotes=False, hex=True):
    """Views of whole lines, in ``turns`` buffers used in turn (no copies of the text)."""
    blocks = [bytearray(min(PIECE, size + 1)) for _ in range(turns)]
    done, carry, turn = 0, b"", 0
    with open(path, "rb") as f:
        f.readline()                                # the header (names given to Arrow)
        while True:
            block = blocks[turn % turns]
            turn += 1
            view = memoryview(block)
            view[:len(carry)] = carry
            end = len(carry) + f.readinto(view[len(carry):])
            if end == 0:
                return
            cut = block.rfind(b"\n", 0, end) + 1 if end == len(block) else end
            if cut == 0:
                raise Off                           # a line longer than a piece
            if block.find(b'"', 0, cut) >= 0 and (not quotes or _broken(block, cut)):
                raise Off
            if hex and _hex(block, cut):
                raise Off
            carry = bytes(block[cut:end])
            done += cut
            if progress:
                progress(done / size)
            yield view[:cut]


def _broken(block, end):
    """A line break (\\n or \\r) inside quotes among the first ``end`` bytes.

    The piece starts where a row starts; quotes toggle (an escaped "" twice),
    so a break is inside quotes when an odd number of quotes precede it.
    """
    text = np.frombuffer(block, np.uint8, end)
    open_ = np.cumsum(text == 34, dtype=np.uint8) & 1     # parity survives the wrap-around
    return bool(open_[text == 10].any() or open_[text == 13].any())


def _hex(block, end):
    """A "0x" or "0X" among the first ``end`` bytes (one-byte finds run at memchr speed)."""
    return ((block.find(b"x", 0, end) >= 0 and block.find(b"0x", 0, end) >= 0)
            or (block.find(b"X", 0, end) >= 0 and block.find(b"0X", 0, end) >= 0))
