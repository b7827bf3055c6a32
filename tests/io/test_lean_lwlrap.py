"""LwLRAP pairs read in pieces (metrics/lwlrap_reader.py) against the full read.

The lean path must give the same Prepared (matrices bit for bit, ids, Usage,
layout) as the full read on valid files, take the full path on everything
else, and so leave every result and every message as they were.
"""
import numpy as np
import pytest

import kmetric_gui.metrics.lwlrap_reader as lean
import kmetric_gui.io.pieces as pieces
from filemaker import write
from samedata import full_only, lean_only
from kmetric_gui.errors import Cancelled, InputError
from kmetric_gui.analysis.scoring import Options, load, score_files, score_prepared
from reference import lwlrap_ref


def _rows(header, ids, cols, sep=","):
    lines = [sep.join(header)]
    lines += [sep.join([i, *c]) for i, c in zip(ids, cols)]
    return "\n".join(lines) + "\n"


def make_pair(tmp_path, n=300, c=6, seed=0, usage=False, sep=",", bom=False, crlf=False,
              truth_cells=None, score_cells=None, ids=None):
    """A wide LwLRAP pair: ties, all-zero rows, a class without positives, rows shuffled."""
    rng = np.random.default_rng(seed)
    ids = ids or [f"{k:06x}.wav" for k in rng.choice(1 << 24, n, replace=False)]
    truth = (rng.random((n, c)) < 0.3).astype(int)
    truth[:, c - 1] = 0                                  # a class with no positive label
    truth[rng.random(n) < 0.1] = 0                       # samples without positives
    scores = rng.integers(0, 5, (n, c)) / 4.0            # many ties
    free = rng.random((n, c)) < 0.5
    scores[free] = rng.random(free.sum())
    classes = [f"cls_{j}" for j in range(c)]
    head = ["fname", *classes] + (["Usage"] if usage else [])
    u = rng.choice(["Public", "Private", "Ignored", " public "], n) if usage else None
    tcells = truth_cells or [[str(v) for v in row] for row in truth]
    sol_cols = [row + ([u[i]] if usage else []) for i, row in enumerate(tcells)]
    order = rng.permutation(n)
    scells = score_cells or [[repr(float(v)) for v in row] for row in scores]
    sol = _rows(head, ids, sol_cols, sep)
    sub = _rows(["fname", *classes], [ids[i] for i in order], [scells[i] for i in order], sep)
    if crlf:
        sol, sub = sol.replace("\n", "\r\n"), sub.replace("\n", "\r\n")
    ext = ".tsv" if sep == "\t" else ".csv"
    return (write(tmp_path / f"sol{ext}", sol, bom=bom), write(tmp_path / f"sub{ext}", sub, bom=bom),
            truth, scores, u)


def outcome(a, b, options=Options()):
    """The JSON of a score and the matrices' bytes, or every problem of a refusal."""
    try:
        rep = score_files(a, b, options)
    except InputError as e:
        return ("error", e.problems)
    p = rep.prepared
    return rep.to_json(), p.truth.dtype, p.truth.tobytes(), p.pred.tobytes(), list(p.ids)


def same_prepared(p, q):
    assert (p.metric, p.reason, p.layout, p.id_column) == (q.metric, q.reason, q.layout, q.id_column)
    assert p.classes == q.classes and p.target_columns == q.target_columns
    assert list(p.ids) == list(q.ids)
    assert p.truth.dtype == q.truth.dtype and np.array_equal(p.truth, q.truth)
    assert p.pred.dtype == q.pred.dtype and p.pred.tobytes() == q.pred.tobytes()   # bit for bit
    assert (p.usage is None) == (q.usage is None)
    if p.usage is not None:
        assert np.array_equal(p.usage, q.usage)


@pytest.mark.parametrize("piece", [1 << 9, 1 << 22])
@pytest.mark.parametrize("kw", [{}, {"usage": True}, {"sep": "\t"}, {"bom": True, "crlf": True}])
def test_lean_read_equals_full_read(tmp_path, monkeypatch, piece, kw):
    monkeypatch.setattr(pieces, "PIECE", piece)          # 512 bytes: many pieces, lines cut at edges
    a, b, truth, scores, usage = make_pair(tmp_path, **kw)
    with monkeypatch.context() as m:
        lean_only(m)
        p = load(a, b)
    with monkeypatch.context() as m:
        full_only(m, lean, "load_lwlrap")
        q = load(a, b)
    same_prepared(p, q)
    for ties in ("worst", "original"):
        o = Options(ties=ties)
        assert score_prepared(p, o).to_json() == score_prepared(q, o).to_json()
    rep = score_prepared(p)
    keep = np.ones(len(truth), bool) if usage is None else np.char.strip(
        np.char.lower(usage.astype(str))) != "ignored"
    assert rep.score == pytest.approx(lwlrap_ref(truth[keep], scores[keep]), abs=1e-12)
    if usage is not None:
        pub = np.char.strip(np.char.lower(usage.astype(str))) == "public"
        assert rep.splits["public"].score == pytest.approx(lwlrap_ref(truth[pub], scores[pub]),
                                                            abs=1e-12)


def _odd_cases():
    """(name, edit of the truth cells, edit of the score cells, extra edit) -> a file pair."""
    def cell(rows, r, c, v):
        rows = [list(x) for x in rows]
        rows[r][c] = v
        return rows
    return {
        "truth 1.0": dict(truth=lambda t: cell(t, 5, 0, "1.0")),
        "truth 2": dict(truth=lambda t: cell(t, 5, 0, "2")),
        "truth 300": dict(truth=lambda t: cell(t, 250, 1, "300")),
        "truth hex": dict(truth=lambda t: cell(t, 7, 2, "0x1")),
        "truth empty": dict(truth=lambda t: cell(t, 7, 2, "")),
        "score -0": dict(score=lambda s: cell(s, 3, 1, "-0")),
        "int scores, one -0": dict(score=lambda s: cell([[str(int(float(x) > 0.5)) for x in r]
                                                         for r in s], 3, 1, "-0")),
        "score nan": dict(score=lambda s: cell(s, 3, 1, "nan")),
        "score text": dict(score=lambda s: cell(s, 299, 4, "high")),
        "score quoted": dict(score=lambda s: cell(s, 3, 1, '"0.5"')),
        "score spaced": dict(score=lambda s: cell(s, 3, 1, " 0.5")),
        "score empty": dict(score=lambda s: cell(s, 3, 1, "")),
        "all int scores": dict(score=lambda s: [[str(int(float(x) > 0.5)) for x in r] for r in s]),
        "hex ids": dict(ids=[f"0x{k:04x}" for k in range(300)]),
        "empty id": dict(ids=[""] + [f"{k}.wav" for k in range(1, 300)]),
        "duplicate id": dict(ids=["a.wav"] * 2 + [f"{k}.wav" for k in range(2, 300)]),
    }


@pytest.mark.parametrize("name", list(_odd_cases()))
def test_odd_files_score_or_fail_as_before(tmp_path, monkeypatch, name):
    case = _odd_cases()[name]
    a, b, truth, scores, _ = make_pair(tmp_path)
    t_cells = [[str(v) for v in row] for row in truth]
    s_cells = [[repr(float(v)) for v in row] for row in scores]
    a, b, *_ = make_pair(tmp_path, truth_cells=case.get("truth", lambda x: x)(t_cells),
                         score_cells=case.get("score", lambda x: x)(s_cells), ids=case.get("ids"))
    monkeypatch.setattr(pieces, "PIECE", 1 << 10)
    got = outcome(a, b)
    with monkeypatch.context() as m:
        full_only(m, lean, "load_lwlrap")
        want = outcome(a, b)
    assert got == want


@pytest.mark.parametrize("edit", ["sub missing a row", "sub extra column", "sol labels layout",
                                  "gz", "header only", "usage in submission"])
def test_other_layouts_take_the_full_path(tmp_path, monkeypatch, edit):
    a, b, *_ = make_pair(tmp_path, n=40)
    text_a, text_b = a.read_text(), b.read_text()
    if edit == "sub missing a row":
        b.write_text("".join(text_b.splitlines(True)[:-1]))
    elif edit == "sub extra column":
        b.write_text("".join(line.rstrip("\n") + (",extra\n" if i == 0 else ",1\n")
                             for i, line in enumerate(text_b.splitlines(True))))
    elif edit == "sol labels layout":
        a.write_text('fname,labels\n' + "".join(f'{line.split(",")[0]},"cls_0,cls_1"\n'
                                                for line in text_a.splitlines()[1:]))
    elif edit == "gz":
        a = write(a, text_a, compress="gz")
        b = write(b, text_b, compress="gz")
    elif edit == "header only":
        a.write_text(text_a.splitlines(True)[0])
    elif edit == "usage in submission":
        b.write_text("".join(line.rstrip("\n") + (",Usage\n" if i == 0 else ",Public\n")
                             for i, line in enumerate(text_b.splitlines(True))))
    taken = []
    real = lean.load_lwlrap
    monkeypatch.setattr(lean, "load_lwlrap", lambda *a, **k: taken.append(real(*a, **k)) or taken[-1])
    got = outcome(a, b)
    assert all(t is None for t in taken)      # not asked (first rows decide), or declined
    with monkeypatch.context() as m:
        full_only(m, lean, "load_lwlrap")
        assert outcome(a, b) == got


def test_cancel_while_reading_pieces(tmp_path, monkeypatch):
    a, b, *_ = make_pair(tmp_path)
    monkeypatch.setattr(pieces, "PIECE", 1 << 10)
    lean_only(monkeypatch)
    seen = []
    with pytest.raises(Cancelled):
        load(a, b, progress=lambda f, m: seen.append(f), cancel=lambda: len(seen) > 3)
    assert 0 < max(seen) < 0.55
