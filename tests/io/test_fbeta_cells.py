"""F-beta columns kept as read (Cells) and coded on their bytes: the same items,
counts and scores as splitting every cell in Python (split_cell) and scoring
with the reference loop; the CLI path imports no pandas."""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st

from kmetric_gui.metrics.kernels import coded_fbeta, jaccard_fbeta, split_cell
from kmetric_gui.metrics.fbeta_cells import Cells
from kmetric_gui.metrics.fbeta_codes import code as code_cells
from kmetric_gui.analysis.scoring import Options, score_files
from reference import fbeta_ref

# Words that tie, repeat, change with case or cleaning, and whitespace Python
# knows beyond ASCII (\xa0, \u3000) and in ASCII beyond space (\t, \x1c).
WORDS = ["a", "b", "A", "c d", "x-y", "É", "é", "İ", "ß", "ss", "\x00", "日本"]
SPACES = [" ", "  ", "\t", "\x1c", "\xa0", "\u3000", ""]


@st.composite
def cells(draw):
    parts = draw(st.lists(st.tuples(st.sampled_from(SPACES), st.sampled_from(WORDS + [""]),
                                    st.sampled_from(SPACES), st.sampled_from(WORDS + [""])),
                          max_size=4))
    return "|".join("".join(p) for p in parts)


def _chunked(values, cut):
    cut = min(cut, len(values))
    parts = [values[:cut], values[cut:]]
    return pa.chunked_array([pa.array(p, pa.string()) for p in parts if p], pa.string())


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(cells(), cells()), max_size=12), st.integers(0, 12),
       st.randoms(use_true_random=False), st.booleans(),
       st.sampled_from(["one-to-one", "many-to-one"]), st.sampled_from([0.0, 0.34, 0.5, 1.0]))
def test_coded_cells_score_as_split_lists(docs, cut, rnd, clean, matching, threshold):
    t_text = [t for t, _ in docs]
    p_text = [p for _, p in docs]
    order = list(range(len(docs)))
    rnd.shuffle(order)                           # submission rows in another order
    file_p = [p_text[i] for i in order]
    index = np.argsort(order)                    # document -> submission row
    truth, pred = Cells(_chunked(t_text, cut)), Cells(_chunked(file_p, cut), index)
    t_lists, p_lists = [split_cell(t) for t in t_text], [split_cell(p) for p in p_text]
    assert list(truth) == t_lists and list(pred) == p_lists
    assert [pred[i] for i in range(len(docs))] == p_lists and truth == t_lists
    assert truth.counts().tolist() == [len(x) for x in t_lists]
    coded = code_cells(truth, pred, clean)
    got = coded_fbeta(coded, threshold=threshold, matching=matching)
    want = jaccard_fbeta(t_lists, p_lists, threshold=threshold, matching=matching, clean=clean)
    assert got.per_document.tolist() == want.per_document.tolist()
    _, counts = fbeta_ref(t_lists, p_lists, threshold=threshold, matching=matching, clean=clean)
    assert (got.tp, got.fp, got.fn) == counts
    rows = np.array([i for i in range(len(docs)) if rnd.random() < 0.5], dtype=np.int64)
    part = coded_fbeta(coded.take(rows), threshold=threshold, matching=matching)
    _, counts = fbeta_ref([t_lists[i] for i in rows], [p_lists[i] for i in rows],
                          threshold=threshold, matching=matching, clean=clean)
    assert (part.tp, part.fp, part.fn) == counts


def test_ties_duplicates_and_blank_items_on_random_words():
    rng = np.random.default_rng(5)
    words = ["alpha", "beta", "Gamma", "delta", "eps"]

    def cell():
        items = [" ".join(rng.choice(words, rng.integers(1, 4))) for _ in range(rng.integers(0, 5))]
        items += [" ", ""] * int(rng.integers(0, 2))
        return "|".join(rng.permutation(items).tolist()) if items else ""
    t_text = [cell() for _ in range(400)]
    p_text = [cell() for _ in range(400)]
    t_lists, p_lists = [split_cell(t) for t in t_text], [split_cell(p) for p in p_text]
    coded = code_cells(Cells(pa.array(t_text)), Cells(pa.array(p_text)))
    for matching in ("one-to-one", "many-to-one"):
        for threshold in (0.3, 0.5, 0.67):
            got = coded_fbeta(coded, threshold=threshold, matching=matching)
            ref, counts = fbeta_ref(t_lists, p_lists, threshold=threshold, matching=matching)
            assert (got.tp, got.fp, got.fn) == counts and got.score == pytest.approx(ref)


@pytest.mark.parametrize("sparse", [0.0, 1.0])      # items sorted / hashed
def test_small_blocks_and_slices_code_the_same(monkeypatch, sparse):
    """Tokens cut a few strings at a time and items walked in short slices (the
    memory bounds) give what one pass gives: block edges inside the data."""
    from kmetric_gui.metrics import fbeta_cells, fbeta_codes
    monkeypatch.setattr(fbeta_cells, "_BLOCK", 3)
    monkeypatch.setattr(fbeta_codes, "SLICE", 5)
    monkeypatch.setattr(fbeta_codes, "SPARSE", sparse)
    rng = np.random.default_rng(11)
    words = ["alpha", "Beta", "gamma", "É x", "日本 語", "delta"]

    def cell():
        items = [" ".join(rng.choice(words, rng.integers(1, 4))) for _ in range(rng.integers(0, 4))]
        return "|".join(items)
    t_text = [cell() for _ in range(120)]
    p_text = [cell() for _ in range(120)]
    t_lists, p_lists = [split_cell(t) for t in t_text], [split_cell(p) for p in p_text]
    for clean in (False, True):
        coded = code_cells(Cells(pa.array(t_text)), Cells(pa.array(p_text)), clean)
        for matching in ("one-to-one", "many-to-one"):
            got = coded_fbeta(coded, threshold=0.5, matching=matching)
            _, counts = fbeta_ref(t_lists, p_lists, threshold=0.5, matching=matching, clean=clean)
            assert (got.tp, got.fp, got.fn) == counts


def test_width_classes_are_ceil_log2():
    from kmetric_gui.metrics.kernels.fbeta.match import _width_class
    for widths in (np.arange(1, 300), np.array([1, 2, 3, 4, 5, 65536, 65537, 70000, 2 ** 20 + 1])):
        want = [(int(w) - 1).bit_length() for w in widths]
        assert _width_class(widths).tolist() == want


def _write(path, rows):
    path.write_text("".join(",".join(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.parametrize("clean", [False, True])
def test_files_with_usage_long_solution_and_shuffled_rows(tmp_path, clean):
    rng = np.random.default_rng(3)
    words = ["survey", "Census", "of", "agriculture", "study", "NOAA"]
    ids = [f"doc{i}" for i in range(60)]
    truths = [sorted({" ".join(rng.choice(words, 2)) for _ in range(rng.integers(0, 4))})
              for _ in ids]
    preds = [[" ".join(rng.choice(words, 2)) for _ in range(rng.integers(0, 4))] for _ in ids]
    usage = ["Public" if rng.random() < 0.5 else "Private" for _ in ids]
    rows = [["Id", "cleaned_label", "Usage"]]
    for i, ts, u in zip(ids, truths, usage):
        rows += [[i, t, u] for t in (ts or [""])]
    long_rows = [rows[0]] + [rows[1:][k] for k in rng.permutation(len(rows) - 1)]
    sol = _write(tmp_path / "sol.csv", long_rows)
    order = rng.permutation(len(ids))
    sub = _write(tmp_path / "sub.csv", [["Id", "PredictionString"]] +
                 [[ids[k], "|".join(preds[k])] for k in order])
    rep = score_files(sol, sub, Options(clean=clean))
    assert rep.layout.startswith("solution one row per")
    for name, want in (("public", "Public"), ("private", "Private")):
        sel = [k for k in range(len(ids)) if usage[k] == want]
        _, counts = fbeta_ref([truths[k] for k in sel], [preds[k] for k in sel], clean=clean)
        s = rep.splits[name]
        assert (s.tp, s.fp, s.fn) == counts
    _, counts = fbeta_ref(truths, preds, clean=clean)
    assert (rep.result.tp, rep.result.fp, rep.result.fn) == counts
    prep = rep.prepared                       # the app reads documents by solution row
    k = [i.as_py() for i in prep.id_array].index("doc7")
    assert prep.truth[k] == truths[7] and prep.pred[k] == split_cell("|".join(preds[7]))


@pytest.mark.parametrize("long", [False, True])
def test_fbeta_cli_path_imports_no_pandas(tmp_path, long):
    root = Path(__file__).resolve().parents[2]
    if long:
        sol = _write(tmp_path / "sol.csv", [["Id", "cleaned_label", "Usage"], ["d1", "a b", "Public"],
                                            ["d1", "c", "Public"], ["d2", "x", "Private"]])
    else:
        sol = _write(tmp_path / "sol.csv", [["Id", "PredictionString"], ["d1", "a b|c"], ["d2", "x"]])
    sub = _write(tmp_path / "sub.csv", [["Id", "PredictionString"], ["d2", "x y"], ["d1", "a b"]])
    # main(), not the console entry: that one ends the process with os._exit.
    code = ("import sys; from kmetric_gui.cli import main\n"
            "rc = main(['score', sys.argv[1], sys.argv[2]]); assert rc == 0, rc\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pandas', 'scipy', 'sklearn')))")
    env = dict(os.environ, PYTHONPATH=str(root))
    r = subprocess.run([sys.executable, "-c", code, str(sol), str(sub)], cwd=root,
                       env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "metric:  fbeta" in r.stdout
    assert r.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("bitset", [True, False])
def test_long_strings_binary_search_against_loop(monkeypatch, bitset):
    # Strings of 1 to 60 tokens (repeats too): the search among a string's own
    # sorted tokens takes several halvings; the bitset path must agree.
    table = sys.modules["kmetric_gui.metrics.kernels.fbeta.table"]
    monkeypatch.setattr(table, "_DENSE_MATMUL", 0)
    if not bitset:
        monkeypatch.setattr(table, "_BITSET_MAX", 0)
    rng = np.random.default_rng(11)
    vocab = [f"t{i}" for i in range(80)]

    def item():
        return " ".join(rng.choice(vocab, rng.integers(1, 61)))
    truths = [[item() for _ in range(rng.integers(0, 4))] for _ in range(150)]
    preds = [[item() for _ in range(rng.integers(0, 4))] for _ in range(150)]
    coded = code_cells(Cells(pa.array(["|".join(t) for t in truths])),
                       Cells(pa.array(["|".join(p) for p in preds])))
    for threshold in (0.1, 0.3, 0.5):
        ref, counts = fbeta_ref(truths, preds, threshold=threshold)
        for r in (coded_fbeta(coded, threshold=threshold),
                  jaccard_fbeta(truths, preds, threshold=threshold)):
            assert (r.tp, r.fp, r.fn) == counts


def test_released_cells_are_coded_the_same_and_keep_no_text():
    """A one-shot score hands the columns over (Cells.release): same codes, then no
    silent empty column: reading it raises; a Cells taken before keeps its text."""
    t_text = ["a b|c", "", "x|y z", "c"]
    p_text = ["a b", "q", "y z|x", "c|a b"]
    kept = code_cells(Cells(pa.array(t_text)), Cells(pa.array(p_text)))
    truth, pred = Cells(pa.chunked_array([pa.array(t_text[:2]), pa.array(t_text[2:])])), \
        Cells(pa.array(p_text))
    part = truth.take(np.array([2, 0]))
    released = code_cells(truth, pred, release=True)
    assert kept.t_sid.tolist() == released.t_sid.tolist()
    assert kept.p_sid.tolist() == released.p_sid.tolist()
    assert coded_fbeta(kept).per_document.tolist() == coded_fbeta(released).per_document.tolist()
    with pytest.raises(RuntimeError, match="no longer kept"):
        truth[0]
    with pytest.raises(RuntimeError, match="no longer kept"):
        pred.counts()
    assert part[0] == ["x", "y z"] and part[1] == ["a b", "c"]


def test_kmetric_score_frees_the_columns_and_prints_what_the_api_scores(tmp_path, capsys,
                                                                        monkeypatch):
    import json
    from kmetric_gui.cli import main
    from kmetric_gui.metrics import fbeta_cells
    from kmetric_gui.analysis.scoring import report_json
    released, release = [], fbeta_cells.Cells.release

    def counted(self):
        released.append(len(self))
        return release(self)
    monkeypatch.setattr(fbeta_cells.Cells, "release", counted)
    rng = np.random.default_rng(8)
    words = ["survey", "census", "of", "study"]
    ids = [f"d{i}" for i in range(40)]
    sol = _write(tmp_path / "sol.csv", [["Id", "PredictionString", "Usage"]] + [
        [i, "|".join(" ".join(rng.choice(words, 2)) for _ in range(rng.integers(0, 3))),
         "Public" if k % 3 else "Private"] for k, i in enumerate(ids)])
    sub = _write(tmp_path / "sub.csv", [["Id", "PredictionString"]] + [
        [i, "|".join(" ".join(rng.choice(words, 2)) for _ in range(rng.integers(0, 3)))]
        for i in rng.permutation(ids)])
    want = score_files(sol, sub)
    assert want.prepared.keep_columns and want.prepared.truth[0] is not None
    assert released == []                           # the API keeps its columns
    assert main(["score", str(sol), str(sub), "--json"]) == 0
    assert released == [40, 40]                     # kmetric score hands both over
    got = json.loads(capsys.readouterr().out)
    assert got == json.loads(json.dumps(report_json(want)))
    _, counts = fbeta_ref(list(want.prepared.truth), list(want.prepared.pred))
    assert (got["tp"], got["fp"], got["fn"]) == counts
