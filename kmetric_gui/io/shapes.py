"""The shapes of real competitions' files, made plain before a metric reads them.

* ``Usage`` spellings: Public/PublicTest/public_test, Private/PrivateTest,
  Ignored/None/unused... mapped to the three codes; others named (a
  ``--usage-map`` adds spellings);
* composite keys (``--id-column image,class``): one key column joining the
  parts with a separator no value holds, so the join, duplicates and the
  table work as for one id; a repeated pair is refused naming both columns;
* scored columns named (``--target-column a,b`` or ``sol=sub`` pairs): the
  submission's columns renamed to the solution's, the columns not scored left
  alone and listed in a note;
* the files written back keep the submission's own names and key columns.

Notes (things that did not stop scoring) go to ``Collector.notes``; the
prepared data carries them (``Prepared.notes``).
"""
import numpy as np
import pyarrow as pa

from ..numbers import arrow_ints, arrow_scalar, arrow_texts, plain_array
from .problems import SHOW, Problem, quote

# Usage spellings, compared lower-cased with everything but letters and digits removed.
USAGE_WORDS = {
    0: ("public", "publictest", "pub", "publiclb", "publicleaderboard", "publicset"),
    1: ("private", "privatetest", "priv", "privatelb", "privateleaderboard", "privateset"),
    2: ("ignored", "ignore", "none", "unused", "notscored", "unscored", "skip", "skipped"),
}
CODE_OF = {"public": 0, "private": 1, "ignored": 2}
SEPARATORS = ("|", "/", ";", "#", "\x1f")     # joins a composite key's parts
PARTS_KEY = b"kmetric_id_parts"              # field metadata of a joined key column


def _squeeze(arr):
    import pyarrow.compute as pc
    low = pc.utf8_lower(arr.cast(pa.string()))
    return pc.replace_substring_regex(low, "[^a-z0-9]", "")


def parse_usage_map(text):
    """{spelling: code} of a --usage-map text ('Val=public, Holdout=private'); ValueError
    in words when a pair is not SPELLING=public|private|ignored."""
    out = {}
    if not text:
        return out
    for part in str(text).split(","):
        if not part.strip():
            continue
        key, eq, value = part.partition("=")
        code = CODE_OF.get(value.strip().lower())
        if not eq or not key.strip() or code is None:
            raise ValueError(f"usage_map: '{part.strip()}' is not SPELLING=public, private or "
                             "ignored")
        out["".join(ch for ch in key.lower() if ch.isalnum())] = code
    return out


def usage_codes(column, usage_map=None):
    """(codes (n,) int64: 0 Public, 1 Private, 2 Ignored, -1 unknown, squeezed spellings)."""
    import pyarrow.compute as pc
    words = {w: c for c, ws in USAGE_WORDS.items() for w in ws}
    words.update(parse_usage_map(usage_map))
    keys = list(words)
    raw = _squeeze(column)
    found = pc.fill_null(pc.index_in(raw, value_set=arrow_texts(keys)),
                         arrow_scalar(-1).cast(pa.int32()))
    idx = plain_array(found).astype(np.int64)
    table = np.array([words[k] for k in keys] + [-1], dtype=np.int64)
    return table[idx], raw


def read_usage(sol, sol_name, col, usage_map=None):
    """Usage codes of the solution or None; unknown spellings collected, each named."""
    names = [c for c in sol.column_names if c.lower() == "usage"]
    if not names:
        return None
    column = sol.column(names[0])
    codes, _ = usage_codes(column, usage_map)
    bad = np.flatnonzero(codes < 0)
    if bad.size:
        vals = column.cast(pa.string()).take(arrow_ints(bad[:200])).to_pylist()
        kinds = list(dict.fromkeys(vals))[:SHOW]
        col.add(sol_name, f"column '{names[0]}': {bad.size} value(s) are not Public, Private "
                f"or Ignored: rows {', '.join(str(r + 1) for r in bad[:SHOW])} ({quote(kinds)}); "
                f"name other spellings with --usage-map "
                f"{kinds[0] if kinds and kinds[0] else 'VALUE'}=public|private|ignored",
                bad)
    return codes


# -- composite keys -------------------------------------------------------------------

def id_parts(id_column, *tables):
    """The key columns of ``--id-column a,b`` (a list of two or more), or None for one id
    column (a column named 'a,b' in a file is one id column)."""
    if not id_column or "," not in id_column:
        return None
    if any(id_column in t.column_names for t in tables):
        return None
    parts = [p.strip() for p in id_column.split(",")]
    return parts if len(parts) >= 2 and all(parts) else None


def id_words(table, id_col):
    """'column 'id'' or 'columns 'image' + 'class'' (a joined key) for messages."""
    try:
        meta = table.schema.field(id_col).metadata or {}
    except KeyError:
        meta = {}
    parts = meta.get(PARTS_KEY)
    if parts:
        names = parts.decode("utf-8").split("\x00")
        return "columns " + " + ".join(f"'{n}'" for n in names)
    return f"column '{id_col}'"


def _holds(arr, sep):
    import pyarrow.compute as pc
    return bool(pc.any(pc.match_substring(arr, sep)).as_py() or False)


def join_key(sol, sub, parts, id_col, sol_name, sub_name, col):
    """(sol, sub, separator): both tables with their key columns ``parts`` replaced by
    one text column ``id_col`` joining them; None tables when a part is missing or
    empty (problems collected)."""
    import pyarrow.compute as pc
    from .ids import empty_rows
    for name, t in ((sol_name, sol), (sub_name, sub)):
        lacking = [p for p in parts if p not in t.column_names]
        if lacking:
            col.add(name, f"no id column(s) {', '.join(map(repr, lacking))} of --id-column "
                    f"{id_col}; found columns: {', '.join(t.column_names)}")
    if col.problems:
        return None, None, None
    texts = {}
    for name, t in ((sol_name, sol), (sub_name, sub)):
        texts[name] = [t.column(p).cast(pa.string()) for p in parts]
        for p, arr in zip(parts, texts[name]):
            rows = empty_rows(arr)
            if rows.size:
                col.add(name, f"{rows.size} empty value(s) in id column '{p}' (part of the key "
                        f"{id_col}): rows {', '.join(str(r + 1) for r in rows[:SHOW])}", rows)
    if col.problems:
        return None, None, None
    every = [a for arrs in texts.values() for a in arrs]
    sep = next((s for s in SEPARATORS if not any(_holds(a, s) for a in every)), None)
    if sep is None:
        col.add(sol_name, f"the key columns {', '.join(parts)} hold every separator "
                f"({' '.join(SEPARATORS[:-1])}): they cannot be joined into one key")
        return None, None, None
    meta = {PARTS_KEY: "\x00".join(parts).encode("utf-8"), b"kmetric_id_sep": sep.encode()}
    out = []
    for name, t in ((sol_name, sol), (sub_name, sub)):
        key = pc.binary_join_element_wise(*texts[name], sep)
        rest = t.drop_columns(parts)
        out.append(rest.add_column(0, pa.field(id_col, pa.string(), metadata=meta), key))
    return out[0], out[1], sep


def split_key(values, sep, n):
    """Joined keys back into their n parts (lists), for writing the file again."""
    out = [str(v).split(sep) for v in values]
    return [p if len(p) == n else (p + [""] * n)[:n] for p in out]


# -- scored columns -------------------------------------------------------------------

def target_pairs(text, sol_cols=(), sub_cols=()):
    """[(solution name, submission name)] of a --target-column text, or None for one plain
    name (read by the metric itself). 'a,b' names several; 'a=b' maps a solution column
    to the submission's. A name a file holds as it is (commas and all) is one name."""
    if not text:
        return None
    text = str(text)
    if text in sol_cols or text in sub_cols:
        return None
    if "," not in text and "=" not in text:
        return None
    out = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        sol, eq, sub = part.partition("=")
        sol, sub = sol.strip(), (sub.strip() if eq else sol.strip())
        if not sol or not sub:
            raise ValueError(f"target_column: '{part}' is not NAME or SOLUTION_NAME=SUBMISSION_NAME")
        out.append((sol, sub))
    return out or None


def scored_columns(sol, sub, pairs, keep, id_col, sol_name, sub_name, col, notes):
    """Both tables reduced to the scored columns ``pairs`` (the submission's renamed to the
    solution's names), the id, Usage and ``keep`` (columns the metric's options read).
    Other solution columns are left alone (a note lists them); the submission keeps its
    other columns only when a scored column is the solution's alone (class labels whose
    classes are the submission's columns)."""
    sol_names = [s for s, _ in pairs]
    for s, _ in pairs:
        if s not in sol.column_names:
            col.add(sol_name, f"no target column '{s}' (--target-column); found columns: "
                    f"{', '.join(sol.column_names)}")
    in_sub = [u for _, u in pairs if u in sub.column_names]
    if in_sub and len(in_sub) != len(pairs):
        lacking = [u for _, u in pairs if u not in sub.column_names]
        col.add(sub_name, f"no target column(s) {', '.join(map(repr, lacking))} "
                f"(--target-column); found columns: {', '.join(sub.column_names)}")
    if col.problems:
        return sol, sub
    usage = [c for c in sol.column_names if c.lower() == "usage"]
    wanted = set([id_col] + usage + sol_names + list(keep))
    left = [c for c in sol.column_names if c not in wanted]
    if left:
        notes.append(Problem(sol_name, f"column(s) not scored, left alone: {_names(left)}"))
        sol = sol.drop_columns(left)
    if in_sub:
        rename = {u: s for s, u in pairs}
        extra = [c for c in sub.column_names if c != id_col and c not in rename]
        if extra:
            notes.append(Problem(sub_name, f"column(s) not scored, left alone: {_names(extra)}"))
            sub = sub.drop_columns(extra)
        sub = sub.rename_columns([rename.get(c, c) for c in sub.column_names])
    return sol, sub


def _names(cols):
    shown = ", ".join(cols[:8])
    return shown + (f", ... ({len(cols)} in all)" if len(cols) > 8 else "")


def unscored_note(sol, read, keep, id_col, sol_name):
    """A note naming the solution's columns the metric did not read (None: all read)."""
    wanted = set(read) | set(keep) | {id_col}
    left = [c for c in sol.column_names if c not in wanted and c.lower() != "usage"]
    if not left:
        return None
    return Problem(sol_name, f"column(s) not scored, left alone: {_names(left)}")


# -- writing back --------------------------------------------------------------------

def as_written(prep, header, rows):
    """(header, rows) of a submission in its file's own names: a joined key split back
    into its columns, scored columns under the submission's names."""
    renamed = getattr(prep, "renamed", None) or {}
    parts = getattr(prep, "id_parts", None) or ()
    if not renamed and not parts:
        return header, rows
    header = [renamed.get(h, h) for h in header]
    if not parts:
        return header, rows
    sep = prep.id_sep
    at = header.index(prep.id_column) if prep.id_column in header else 0
    header = header[:at] + list(parts) + header[at + 1:]

    def split(rows):
        for row in rows:
            row = list(row)
            key = str(row[at]).split(sep)
            key = (key + [""] * len(parts))[:len(parts)]
            yield row[:at] + key + row[at + 1:]
    return header, split(rows)


__all__ = ["read_usage", "usage_codes", "parse_usage_map", "id_parts", "id_words", "join_key",
           "target_pairs", "scored_columns", "unscored_note", "as_written"]
