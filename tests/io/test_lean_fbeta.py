"""F-beta pairs read in pieces (metrics/fbeta_reader.py) and coded in little memory
(metrics/fbeta_codes.py) against the full read and the reference loop.

The lean path must give the same Prepared (cells, ids, order, Usage, layout)
as the full read on valid files, take the full path on everything else, and
so leave every result and every message as they were.
"""
import numpy as np
import pytest

import kmetric_gui.metrics.fbeta_reader as lean
import kmetric_gui.io.pieces as pieces
import kmetric_gui.metrics.fbeta_codes as codes
from filemaker import write
from samedata import full_only, lean_only
from kmetric_gui.metrics.kernels import coded_fbeta, jaccard_fbeta, split_cell
from kmetric_gui.errors import Cancelled, InputError
from kmetric_gui.metrics.fbeta_cells import Cells
from kmetric_gui.metrics.fbeta_codes import code as code_cells
from kmetric_gui.analysis.scoring import Options, load, score_files, score_prepared
from reference import fbeta_ref

WORDS = ["alpha", "beta", "Gamma", "delta", "x-y", "É", "日本", "study", "survey"]


def _cell(rng, k):
    return "|".join(" ".join(rng.choice(WORDS, rng.integers(1, 4))) for _ in range(k))


def make_pair(tmp_path, n=200, seed=0, usage=False, sep=",", bom=False, crlf=False,
              shuffle=True, long=False, quoted=False, ids=None, edit=None):
    """An F-beta pair: empty cells, repeated and shared items, rows shuffled."""
    rng = np.random.default_rng(seed)
    ids = ids or [f"doc{k:05d}" for k in rng.choice(100000, n, replace=False)]
    truths = [_cell(rng, int(rng.integers(0, 4))) for _ in range(n)]
    preds = [("|".join(t.split("|")[:1]) + "|" if rng.random() < 0.7 else "") +
             _cell(rng, int(rng.integers(0, 3))) for t in truths]
    u = rng.choice(["Public", "Private", "Ignored", " public "], n) if usage else None
    if long:      # one row per (Id, label), a quoted title holding the delimiter
        head = ["Id", "pub_title", "cleaned_label"] + (["Usage"] if usage else [])
        rows = [[i, f'"Paper{sep} {k}"' if quoted else f"Paper {k}", lab] +
                ([u[k]] if usage else [])
                for k, i in enumerate(ids) for lab in truths[k].split("|")]
    else:
        head = ["Id", "PredictionString"] + (["Usage"] if usage else [])
        rows = [[i, f'"{t}"' if quoted and k % 3 == 0 else t] + ([u[k]] if usage else [])
                for k, (i, t) in enumerate(zip(ids, truths))]
    order = rng.permutation(n) if shuffle else np.arange(n)
    sub_rows = [[ids[k], preds[k]] for k in order]
    if edit:
        edit(rows, sub_rows)
    nl = "\r\n" if crlf else "\n"
    text = lambda h, rs: nl.join(sep.join(map(str, r)) for r in [h] + rs) + nl
    ext = ".tsv" if sep == "\t" else ".csv"
    return (write(tmp_path / f"sol{ext}", text(head, rows), bom=bom),
            write(tmp_path / f"sub{ext}", text(["Id", "PredictionString"], sub_rows), bom=bom))


def same_prepared(p, q):
    assert (p.metric, p.reason, p.layout, p.id_column) == (q.metric, q.reason, q.layout, q.id_column)
    assert p.target_columns == q.target_columns
    assert list(p.ids) == list(q.ids)
    assert list(p.truth) == list(q.truth) and list(p.pred) == list(q.pred)
    assert [p.truth.text(i) for i in range(len(p))] == [q.truth.text(i) for i in range(len(q))]
    assert (p.usage is None) == (q.usage is None)
    if p.usage is not None:
        assert np.array_equal(p.usage, q.usage)


def outcome(a, b, options=Options()):
    """The JSON of a score, the cells and ids, or every problem of a refusal."""
    try:
        rep = score_files(a, b, options)
    except InputError as e:
        return ("error", e.problems)
    p = rep.prepared
    return rep.to_json(), list(p.ids), list(p.truth), list(p.pred), rep.result.per_document.tolist()


@pytest.mark.parametrize("piece", [1 << 9, 1 << 22])
@pytest.mark.parametrize("kw", [{}, {"usage": True}, {"sep": "\t"}, {"bom": True, "crlf": True},
                                {"shuffle": False}, {"quoted": True}, {"long": True},
                                {"long": True, "quoted": True, "usage": True}])
def test_lean_read_equals_full_read(tmp_path, monkeypatch, piece, kw):
    monkeypatch.setattr(pieces, "PIECE", piece)          # 512 bytes: many pieces, lines cut at edges
    a, b = make_pair(tmp_path, **kw)
    with monkeypatch.context() as m:
        lean_only(m)
        p = load(a, b)
    with monkeypatch.context() as m:
        full_only(m, lean, "load_fbeta")
        q = load(a, b)
    same_prepared(p, q)
    for o in (Options(), Options(matching="many-to-one", clean=True, threshold=0.3)):
        rp, rq = score_prepared(p, o), score_prepared(q, o)
        assert rp.to_json() == rq.to_json()
        assert rp.result.per_document.tolist() == rq.result.per_document.tolist()
        keep = np.ones(len(p), bool) if p.usage is None else p.usage != 2
        truths = [list(x) for x, k in zip(p.truth, keep) if k]
        preds = [list(x) for x, k in zip(p.pred, keep) if k]
        _, counts = fbeta_ref(truths, preds, threshold=o.threshold, matching=o.matching,
                              clean=o.clean)
        assert (rp.result.tp, rp.result.fp, rp.result.fn) == counts


def _set(file, row, col, value):
    def edit(rows, sub_rows):
        (rows if file == "sol" else sub_rows)[row][col] = value
    return edit


ODD = {
    "duplicate id": dict(edit=lambda r, s: s[5].__setitem__(0, s[6][0])),
    "missing id": dict(edit=lambda r, s: s.pop(3)),
    "extra id": dict(edit=lambda r, s: s.append(["nowhere", "alpha"])),
    "empty id": dict(edit=_set("sub", 7, 0, "")),
    "empty solution id": dict(edit=_set("sol", 7, 0, "")),
    "numeric labels": dict(edit=lambda r, s: [x.__setitem__(1, str(k)) for k, x in enumerate(r)]),
    "numeric predictions": dict(edit=lambda r, s: [x.__setitem__(1, f"00{k}") for k, x in
                                                   enumerate(s)]),
    "one number among text late": dict(n=3000, edit=_set("sub", 2900, 1, "0x1f")),
    "quoted line break": dict(edit=_set("sub", 9, 1, '"alpha\nbeta"')),
    "quoted CR": dict(edit=_set("sol", 9, 1, '"alpha\rbeta"')),
    "quote inside field": dict(edit=_set("sub", 9, 1, 'al"pha')),
    "short row": dict(edit=lambda r, s: s[4].pop()),
    "long row": dict(edit=lambda r, s: s[4].append("x")),
    "bad usage": dict(usage=True, edit=_set("sol", 3, 2, "Secret")),
    "long usage conflict": dict(long=True, usage=True, n=50,
                                edit=lambda r, s: r[1].__setitem__(3, "Ignored")),
    "hex ids": dict(ids=[f"0x{k:04x}" for k in range(200)]),
    "numeric ids": dict(ids=[str(k) for k in range(200)]),
}


@pytest.mark.parametrize("name", list(ODD))
def test_odd_files_score_or_fail_as_before(tmp_path, monkeypatch, name):
    a, b = make_pair(tmp_path, **ODD[name])
    monkeypatch.setattr(pieces, "PIECE", 1 << 10)
    got = outcome(a, b)
    with monkeypatch.context() as m:
        full_only(m, lean, "load_fbeta")
        want = outcome(a, b)
    assert got == want


def test_header_only_and_missing_column(tmp_path):
    a, b = make_pair(tmp_path)
    for sol, sub in (("Id,PredictionString\n", None), (None, "Id,PredictionString\n"),
                     (None, "Id,Other\nx,y\n")):
        sa = write(tmp_path / "s.csv", sol) if sol else a
        sb = write(tmp_path / "u.csv", sub) if sub else b
        got = outcome(sa, sb, Options(metric="fbeta"))
        with pytest.MonkeyPatch.context() as m:
            full_only(m, lean, "load_fbeta")
            assert got == outcome(sa, sb, Options(metric="fbeta"))


def test_valid_pairs_take_the_lean_path(tmp_path, monkeypatch):
    a, b = make_pair(tmp_path, long=True, quoted=True)
    lean_only(monkeypatch)
    assert load(a, b).metric == "fbeta"


def test_cancel_while_reading(tmp_path, monkeypatch):
    a, b = make_pair(tmp_path, n=2000)
    monkeypatch.setattr(pieces, "PIECE", 1 << 10)
    lean_only(monkeypatch)
    seen = []
    with pytest.raises(Cancelled):
        load(a, b, progress=lambda f, m: seen.append(f), cancel=lambda: len(seen) > 3)
    assert 0 < max(seen) < 0.55


@pytest.mark.parametrize("sparse", [0.0, 2.0])           # always sorted; always hashed
@pytest.mark.parametrize("slice_", [1, 3, 1 << 16])        # equal strings across slices
@pytest.mark.parametrize("seed", range(4))
def test_both_codings_score_as_split_lists(monkeypatch, sparse, slice_, seed):
    monkeypatch.setattr(codes, "SPARSE", sparse)
    monkeypatch.setattr(codes, "SLICE", slice_)
    rng = np.random.default_rng(seed)
    n = 60
    t_text = [_cell(rng, int(rng.integers(0, 4))) + rng.choice(["", "| ", "|Alpha  beta"])
              for _ in range(n)]
    p_text = [_cell(rng, int(rng.integers(0, 4))) for _ in range(n)]
    order = rng.permutation(n)
    import pyarrow as pa
    truth = Cells(pa.chunked_array([pa.array(t_text[:20]), pa.array(t_text[20:])]))
    pred = Cells(pa.chunked_array([pa.array([p_text[i] for i in order])]), np.argsort(order))
    t_lists, p_lists = [split_cell(t) for t in t_text], [split_cell(p) for p in p_text]
    for clean in (False, True):
        for matching in ("one-to-one", "many-to-one"):
            got = coded_fbeta(code_cells(truth, pred, clean), threshold=0.4, matching=matching)
            want = jaccard_fbeta(t_lists, p_lists, threshold=0.4, matching=matching, clean=clean)
            assert got.per_document.tolist() == want.per_document.tolist()
            _, counts = fbeta_ref(t_lists, p_lists, threshold=0.4, matching=matching, clean=clean)
            assert (got.tp, got.fp, got.fn) == counts


def test_identity_index_is_dropped():
    import pyarrow as pa
    col = pa.chunked_array([pa.array(["a", "b|c", ""])])
    assert Cells(col, np.arange(3)).index is None
    assert Cells(col, np.array([0, 2, 1])).index is not None
    assert list(Cells(col, np.arange(3))) == [["a"], ["b", "c"], []]


def test_pairs_count_in_int64_from_int32_counts():
    from kmetric_gui.metrics.kernels.fbeta.match import _pairs
    nt = np.array([50000, 3, 0], np.int32)
    npd = np.array([50000, 2, 7], np.int32)
    assert _pairs(nt, npd) == 50000 * 50000 + 6          # past 2^31: int32 dot would wrap


def test_segment_sums_into_a_column():
    from kmetric_gui.metrics.kernels.fbeta.table import _segment_sums, _segments
    rng = np.random.default_rng(0)
    counts = rng.integers(0, 4, 70000).astype(np.int32)   # more runs than one slice
    flags = rng.random(int(counts.sum())) < 0.5
    starts = _segments(counts)
    want = [int(flags[s:s + c].sum()) for s, c in zip(starts.tolist(), counts.tolist())]
    out = np.empty((counts.size, 3), np.int64)
    _segment_sums(flags, starts, counts, out[:, 1])
    assert out[:, 1].tolist() == want == _segment_sums(flags, starts, counts).tolist()
