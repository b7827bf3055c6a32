"""Strings of the F-beta metric: cells, cleaning, tokens and compact ids."""
from __future__ import annotations

import re
from collections import defaultdict
from functools import partial
from itertools import chain, count
from operator import itemgetter

import numpy as np

from ....errors import InputError
from ....core.cells import split_cell

_CHAR_IDS = 0x110000     # ids up to this travel as one-character strings
_CLEAN_RE = re.compile(r"[^A-Za-z0-9]+")


def clean_text(text):
    """The competition's cleaning: non-alphanumerics to spaces, lower case."""
    return _CLEAN_RE.sub(" ", str(text)).lower().strip()


def tokens(text):
    return set(text.lower().split())


def jaccard(a: str, b: str) -> float:
    """Jaccard of two strings' lower-cased whitespace token sets (0 if both empty)."""
    ta, tb = tokens(a), tokens(b)
    union = len(ta | tb)
    return len(ta & tb) / union if union else 0.0


def shared_tokens(a: str, b: str, *, clean: bool = False) -> list[str]:
    """Sorted tokens two strings have in common (after optional cleaning)."""
    if clean:
        a, b = clean_text(a), clean_text(b)
    return sorted(tokens(a) & tokens(b))


def _as_lists(docs, what):
    """Each document as a list of items (plain lists pass through untouched)."""
    if set(map(type, docs)) <= {list}:
        return docs
    return [_as_items(d, what, i) for i, d in enumerate(docs)]


def _check_strings(distinct, flat, t_count):
    """Only the distinct items need a type check (there are fewer of them)."""
    if set(map(type, distinct)) <= {str}:
        return
    bad = next((s for s in distinct if not isinstance(s, str)), None)
    if bad is not None:
        i = next(i for i, s in enumerate(flat) if s is bad or s == bad)
        what = "truths" if i < t_count else "predictions"
        raise InputError(f"{what}: item {bad!r} is not a string")


def _as_items(doc, what, index):
    if isinstance(doc, list):
        return doc
    if doc is None:
        return []
    if isinstance(doc, str):
        return split_cell(doc)
    try:
        return list(doc)
    except TypeError:
        raise InputError(f"{what}: document {index} is not a list of strings") from None


def _first_ids(items):
    """(distinct items in first-seen order, id of each item), in one pass.

    A defaultdict hands out the next id to each new item, and ids travel as
    one-character strings: one itemgetter call looks them all up and one
    join packs them, all in C, read back as uint32 - several times cheaper
    than a set, a dict and a Python int per item. Raises TypeError for an
    unhashable item.
    """
    if not items:
        return [], np.zeros(0, dtype=np.int64)
    ids = defaultdict(partial(next, map(chr, range(_CHAR_IDS))))
    try:
        text = "".join(itemgetter(*items)(ids))
    except StopIteration:   # more distinct items than characters
        ids = dict(zip(dict.fromkeys(items), count()))
        return list(ids), np.fromiter(map(ids.__getitem__, items), dtype=np.int64,
                                      count=len(items))
    return list(ids), np.frombuffer(text.encode("utf-32-le", "surrogatepass"),
                                    np.uint32).astype(np.int64)


def _token_keys(strings):
    """Sorted unique keys string id * V + token id of each string's lower-cased
    whitespace tokens, and V (the vocabulary size)."""
    # One lower() and one split() over all strings joined, each followed by a
    # "\x00" marker token: C speed, instead of a list and a set per string.
    text = " \x00 ".join(strings) + " \x00"
    joined = text.count("\x00") == len(strings)
    if joined:
        toks = text.lower().split()
    else:   # no strings, or a string holding "\x00" itself
        lists = list(map(str.split, map(str.lower, strings)))
        toks = list(chain.from_iterable(lists))
    vocab, ids = _first_ids(toks)
    vocab = vocab or [""]
    if joined:
        mark = ids == vocab.index("\x00")
        owner = np.cumsum(mark) - mark
        owner, ids = owner[~mark], ids[~mark]
    else:
        lens = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
        owner = np.repeat(np.arange(len(lists)), lens)
    keys = owner * len(vocab) + ids
    keys.sort(kind="stable")                 # already grouped by string: fast
    if keys.size:
        keys = keys[np.r_[True, keys[1:] != keys[:-1]]]   # a set: repeats dropped
    return keys, len(vocab)
