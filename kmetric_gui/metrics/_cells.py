"""How the shared layouts' cells are shown and typed in the app's table (Qt-free).

A layout's builder (metrics/_probabilities.py, _labels.py, _regression.py,
mapk.py, additive.py) describes its truth and prediction fields with one kind
each and sets ``Prepared.cells``; ``FamilyMetric.table_columns`` and ``parse``
read it. So a metric built on a shared layout gets an editable table without a
line of its own:

  Numbers    real values; a 2-D field has one column per class or target
  Binary     0/1 truth
  ClassCode  one class a row, held as its index, shown and typed by its name
  ClassSet   (n, C) 0/1 rows, shown and typed as comma-joined class names
  Labels     class labels as read (numbers or text), typed among the solution's
  Items      space-separated item lists
  Text       free text, shown and typed as it is (edit distances, word overlap)
  Parts      a 2-D field whose columns are different things (a prediction and
             its confidence), each with its own heading and bounds

A typed value goes through the one number grammar (numbers.py); a value the
metric cannot take raises ValueError with one line saying why, and the app
changes nothing.
"""
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..fields import FieldSpec
from ..numbers import parse_number, shown
from ..tables import Column

WORDS = {"truth": "truth", "pred": "prediction"}
SHORT = {"truth": "truth", "pred": "pred."}
SHOWN_CLASSES = 8


def number_text(v):
    """A number as the table shows it: short when that is exact, else every digit
    (what is shown is what a save writes and a paste gives back)."""
    v = float(v)
    short = f"{v:.6g}"
    return short if float(short) == v else repr(v)


def not_a_class(value, classes):
    return f"{shown(value)} is not a class of the solution (classes: {class_list(classes)})"


def class_list(classes):
    names = [str(c) for c in classes]
    more = ", …" if len(names) > SHOWN_CLASSES else ""
    return ", ".join(names[:SHOWN_CLASSES]) + more


@dataclass(frozen=True)
class Numbers:
    """Real values, optionally within [low, high] (``why``: the refusal's words)."""
    low: "float | None" = None
    high: "float | None" = None
    why: str = ""
    per_class: bool = False        # a 2-D field's columns are classes: headed by their name

    def columns(self, name, values, targets):
        tip = "(editable)"
        if values.ndim == 1:
            return [Column(f"{WORDS[name]} ({targets[0]})", values, FieldSpec(name), number_text,
                           align_right=True, tooltip=f"{_side(name)} value {tip}")]
        out = []
        for j, t in enumerate(targets):      # several targets: the target's name first
            head = str(t) if self.per_class else f"{t} ({SHORT[name]})"
            what = f"{_side(name)} score of class {t}" if self.per_class else \
                f"{_side(name)} value of {t}"
            out.append(Column(head, values[:, j], FieldSpec(name, j), number_text,
                              align_right=True, tooltip=f"{what} {tip}"))
        return out

    def parse(self, text, part, prep):
        v = parse_number(text)
        if (self.low is not None and v < self.low) or (self.high is not None and v > self.high):
            raise ValueError(f"{shown(v)} {self.why}")
        return v


@dataclass(frozen=True)
class Binary:
    """A 0/1 truth: the row is positive (1) or negative (0)."""

    def columns(self, name, values, targets):
        return [Column(f"{WORDS[name]} ({targets[0]})", values, FieldSpec(name), _int_text,
                       align_right=True, tooltip="solution class: 1 positive, 0 negative (editable)")]

    def parse(self, text, part, prep):
        v = parse_number(text)
        if v not in (0.0, 1.0):
            raise ValueError(f"{shown(v)} is not 0 or 1: the truth marks a row positive (1) "
                             "or negative (0)")
        return int(v)


@dataclass(frozen=True)
class ClassCode:
    """One class a row, stored as its index among ``classes``, shown by name."""
    classes: tuple
    column: str = "class"

    def columns(self, name, values, targets):
        names = np.array([str(c) for c in self.classes] + [""], dtype=object)[:-1]
        return [Column(f"{WORDS[name]} ({self.column})", values, FieldSpec(name),
                       lambda code: str(names[int(code)]), meta={"short": True},
                       tooltip=f"{_side(name)} class (editable: type a class name: "
                               f"{class_list(self.classes)})")]

    def parse(self, text, part, prep):
        label = str(text).strip()
        for j, c in enumerate(self.classes):
            if str(c) == label:
                return j
        raise ValueError(not_a_class(label, self.classes))


@dataclass(frozen=True)
class ClassSet:
    """(n, C) 0/1 rows: the classes marked 1, comma-joined."""
    classes: tuple

    def columns(self, name, values, targets):
        names = [str(c) for c in self.classes]
        return [Column("true labels" if name == "truth" else "predicted labels", values,
                       FieldSpec(name), lambda row: ",".join(c for c, t in zip(names, row) if t),
                       sort_key=lambda v: label_strings(v, names),
                       tooltip="classes marked 1, comma-joined (editable: type class names "
                               "separated by commas; empty for none)")]

    def parse(self, text, part, prep):
        row = np.zeros(len(self.classes), dtype=np.int8)      # as the builders hold it
        index = {str(c): j for j, c in enumerate(self.classes)}
        for label in str(text).split(","):
            label = label.strip()
            if not label:
                continue
            if label not in index:
                raise ValueError(not_a_class(label, self.classes))
            row[index[label]] = 1
        return row


@dataclass(frozen=True)
class Labels:
    """Class labels as read: whole numbers, numbers or text; typed among ``classes``
    (the solution's), so a prediction never names a class the solution lacks."""
    classes: tuple
    kind: str = "text"             # "int", "float" or "text"

    def columns(self, name, values, targets):
        fmt = number_text if self.kind == "float" else str
        return [Column(f"{WORDS[name]} ({targets[0]})", values, FieldSpec(name), fmt,
                       align_right=self.kind != "text", meta={"short": True},
                       tooltip=f"{_side(name)} label (editable: one of {class_list(self.classes)})")]

    def parse(self, text, part, prep):
        if self.kind == "text":
            value = str(text).strip()
        else:
            value = parse_number(text)
            if self.kind == "int":
                if not value.is_integer():
                    raise ValueError(not_a_class(value, self.classes))
                value = int(value)
        if value not in self._known:
            raise ValueError(not_a_class(value, self.classes))
        return value

    @cached_property
    def _known(self):
        return set(self.classes)


@dataclass(frozen=True)
class Items:
    """Space-separated items (a ranking, or the relevant items of a query)."""
    allow_empty: bool = True
    need: str = "at least one item"

    def columns(self, name, values, targets):
        return [Column(f"{WORDS[name]} ({targets[0]})", values, FieldSpec(name), " ".join,
                       sort_key=lambda v: np.array([" ".join(x) for x in v], dtype=object),
                       tooltip=f"{_side(name)} items, space-separated (editable)")]

    def parse(self, text, part, prep):
        text = str(text)
        items = text.split()
        quoted = any(len(x) > 1 and x[0] == x[-1] and x[0] in "'\"" for x in items)
        if quoted or any(ch in text for ch in ",;[]"):     # a list in another notation
            raise ValueError("items are separated by spaces (e.g. 'item1 item2'), not by "
                             "commas or semicolons, and without brackets or quotes")
        if not items and not self.allow_empty:
            raise ValueError(f"empty: a prediction needs {self.need}")
        return items


@dataclass(frozen=True)
class Text:
    """Text as read, typed as it is (spaces kept: they count in an edit distance);
    ``need_word``: a text without a word is refused, with ``why``."""
    need_word: bool = False
    why: str = ""

    def columns(self, name, values, targets):
        return [Column(f"{WORDS[name]} ({targets[0]})", values, FieldSpec(name), str,
                       tooltip=f"{_side(name)} text (editable)")]

    def parse(self, text, part, prep):
        text = str(text)
        if self.need_word and not text.split():
            raise ValueError(f"no word: {self.why}")
        return text


@dataclass(frozen=True)
class Parts:
    """A 2-D field whose columns are different quantities: column j is ``heads[j]``
    (headed with the file's column name) and typed as ``kinds[j]`` (a Numbers)."""
    heads: tuple
    kinds: tuple

    def columns(self, name, values, targets):
        out = []
        for j, (head, kind) in enumerate(zip(self.heads, self.kinds)):
            out.append(Column(f"{head} ({targets[j]})", values[:, j], FieldSpec(name, j),
                              number_text, align_right=True,
                              tooltip=f"{_side(name)} {head} (editable)"))
        return out

    def parse(self, text, part, prep):
        if part is None:
            raise ValueError("type one value a cell")
        return self.kinds[part].parse(text, None, prep)


@dataclass(frozen=True)
class Cells:
    """The truth and prediction kinds of a layout; ``interleave``: each target's truth
    column beside its prediction's (several regression targets)."""
    truth: object
    pred: object
    interleave: bool = False

    def columns(self, prep):
        names = list(prep.target_columns)
        cols = [self.truth.columns("truth", prep.truth, names),
                self.pred.columns("pred", prep.pred, names)]
        if self.interleave and len(cols[0]) == len(cols[1]):
            return [c for pair in zip(*cols) for c in pair]
        return cols[0] + cols[1]

    def parse(self, spec, text, prep):
        kind = self.truth if spec.name == "truth" else self.pred
        return kind.parse(text, spec.part, prep)


def _side(name):
    return "solution" if name == "truth" else "submission"


def _int_text(v):
    return str(int(v))


def label_strings(truth, classes):
    """Each row's classes marked 1, comma-joined (a sort key)."""
    names = np.array(classes, dtype=object)
    rows, cols = np.nonzero(truth)
    out = np.full(truth.shape[0], "", dtype=object)
    if rows.size:
        starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
        ends = np.r_[starts[1:], rows.size]
        for s, e in zip(starts, ends):
            out[rows[s]] = ",".join(names[cols[s:e]])
    return out
