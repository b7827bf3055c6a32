import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from filemaker import csv, write, write_parquet
from kmetric_gui.metrics.kernels import lwlrap, weighted_kappa
from kmetric_gui.errors import InputError
from kmetric_gui.analysis.scoring import Options, score_files
from reference import fbeta_ref, lwlrap_ref

T = [0, 1, 2, 3, 4, 2, 1, 0]
P = [0, 2, 2, 3, 3, 1, 1, 0]
IDS = ["000a", "0b1c", "1f2e", "77aa", "9c0d", "a1b2", "c3d4", "ffee"]


def kappa_pair(tmp_path, usage=None, shuffle=True, **kw):
    sol = [["id_code", "diagnosis"] + (["Usage"] if usage else [])]
    for i, (k, t) in enumerate(zip(IDS, T)):
        sol.append([k, t] + ([usage[i]] if usage else []))
    order = [3, 0, 7, 5, 1, 6, 2, 4] if shuffle else range(8)
    sub = [["id_code", "diagnosis"]] + [[IDS[i], P[i]] for i in order]
    return (write(tmp_path / "sol.csv", csv(sol), **kw),
            write(tmp_path / "sub.csv", csv(sub), **kw))


def test_kappa_layout_joins_on_id_not_row_order(tmp_path):
    rep = score_files(*kappa_pair(tmp_path))
    assert rep.metric == "qwk" and "one target column" in rep.reason
    assert rep.score == pytest.approx(0.875)
    assert list(rep.prepared.ids) == IDS
    assert rep.n_rows == 8


@pytest.mark.parametrize("kw", [dict(compress="gz"), dict(compress="zip"), dict(bom=True)])
def test_compressed_and_bom(tmp_path, kw):
    assert score_files(*kappa_pair(tmp_path, **kw)).score == pytest.approx(0.875)


def test_tsv_and_parquet(tmp_path):
    sol = "\n".join("\t".join(map(str, r)) for r in [["id", "y"]] + list(zip(IDS, T))) + "\n"
    sub = "\n".join("\t".join(map(str, r)) for r in [["id", "y"]] + list(zip(IDS, P))) + "\n"
    a = write(tmp_path / "s.tsv", sol)
    b = write_parquet(tmp_path / "p.parquet", csv([["id", "y"]] + list(zip(IDS, P))))
    assert score_files(a, b).score == pytest.approx(0.875)
    c = write(tmp_path / "p.tsv", sub)
    assert score_files(a, c).score == pytest.approx(0.875)


def test_usage_splits_scored_from_scratch(tmp_path):
    usage = ["Public", "private", "PUBLIC", "Private", "Ignored", "Public", "Private", "Public"]
    rep = score_files(*kappa_pair(tmp_path, usage=usage))
    t, p, u = np.array(T), np.array(P), np.array([x.lower() for x in usage])
    # weights from the whole solution's range 0..4, whatever the split holds
    for name in ("public", "private"):
        m = u == name
        want = cohen_kappa_score(t[m], p[m], weights="quadratic", labels=range(5))
        assert rep.splits[name].score == pytest.approx(want)
    m = u != "ignored"
    assert rep.score == pytest.approx(cohen_kappa_score(t[m], p[m], weights="quadratic",
                                                        labels=range(5)))
    assert rep.n_rows == 7
    js = rep.to_json()
    assert js["public"] == pytest.approx(rep.splits["public"].score)


def test_options_weights_and_range(tmp_path):
    a, b = kappa_pair(tmp_path)
    assert score_files(a, b, Options(weights="linear")).score == pytest.approx(0.727273, abs=1e-6)
    r = score_files(a, b, Options(min_rating=0, max_rating=6))
    assert r.score == pytest.approx(weighted_kappa(T, P, min_rating=0, max_rating=6).score)


CLASSES = ["Bark", "Meow", "Walk_and_footsteps"]
LW_T = np.array([[1, 0, 1], [0, 1, 1], [0, 1, 0], [1, 1, 0]])
LW_S = np.array([[.1, .7, .2], [.1, .7, .2], [.5, .5, .1], [.9, .3, .3]])


def lwlrap_files(tmp_path, wide=False, sub_cols=CLASSES):
    ids = ["a.wav", "b.wav", "c.wav", "d.wav"]
    if wide:
        sol = csv([["fname", *CLASSES]] + [[i, *r] for i, r in zip(ids, LW_T)])
    else:
        sol = "fname,labels\n" + "".join(
            f'{i},"{",".join(c for c, v in zip(CLASSES, r) if v)}"\n' for i, r in zip(ids, LW_T))
    sub = csv([["fname", *sub_cols]] + [[i, *r] for i, r in reversed(list(zip(ids, LW_S)))])
    return write(tmp_path / "sol.csv", sol), write(tmp_path / "sub.csv", sub)


@pytest.mark.parametrize("wide", [False, True])
def test_lwlrap_layouts(tmp_path, wide):
    rep = score_files(*lwlrap_files(tmp_path, wide))
    assert rep.metric == "lwlrap"
    assert rep.score == pytest.approx(lwlrap_ref(LW_T, LW_S))
    assert rep.score == pytest.approx(lwlrap(LW_T, LW_S).score)
    assert rep.result.tied_positives == 2
    o = score_files(*lwlrap_files(tmp_path, wide), Options(ties="original"))
    assert o.score == pytest.approx(lwlrap_ref(LW_T, LW_S, "original"))


FB_IDS = ["d1", "d2", "d3"]
FB_T = [["education longitudinal study", "census of agriculture"], ["noaa tide gauge"], []]
FB_P = [["education longitudinal study", "agriculture census data"], [], ["xyz"]]


@pytest.mark.parametrize("long", [False, True])
def test_fbeta_layouts(tmp_path, long):
    if long:
        rows = [["Id", "pub_title", "dataset_label", "cleaned_label"]]
        rows += [[i, "t", lab.title(), lab] for i, labs in zip(FB_IDS, FB_T) for lab in labs]
        rows += [["d3", "t", "", ""]]
        sol = csv(rows)
    else:
        sol = csv([["Id", "PredictionString"]] + [[i, "|".join(t)] for i, t in zip(FB_IDS, FB_T)])
    sub = csv([["Id", "PredictionString"]] + [[i, "|".join(p)] for i, p in zip(FB_IDS, FB_P)][::-1])
    rep = score_files(write(tmp_path / "sol.csv", sol), write(tmp_path / "sub.csv", sub))
    assert rep.metric == "fbeta"
    ref, counts = fbeta_ref(FB_T, FB_P)
    assert (rep.result.tp, rep.result.fp, rep.result.fn) == counts
    assert rep.score == pytest.approx(ref)
    js = rep.to_json()
    assert (js["tp"], js["fp"], js["fn"]) == counts


def test_metric_override_and_target_column(tmp_path):
    sol = csv([["Id", "a", "b"]] + [[i, t, t] for i, t in zip(IDS, T)])
    sub = csv([["Id", "b"]] + [[i, p] for i, p in zip(IDS, P)])
    rep = score_files(write(tmp_path / "s.csv", sol), write(tmp_path / "p.csv", sub),
                      Options(target_column="b", metric="qwk"))
    assert rep.score == pytest.approx(0.875) and "chosen by the user" in rep.reason


def problems(tmp_path, sol_text, sub_text, options=Options(), sol_name="sol.csv", sub_name="sub.csv"):
    a = write(tmp_path / sol_name, sol_text) if sol_text is not None else tmp_path / sol_name
    b = write(tmp_path / sub_name, sub_text) if sub_text is not None else tmp_path / sub_name
    with pytest.raises(InputError) as e:
        score_files(a, b, options)
    return "\n".join(e.value.problems)


GOOD_SOL = csv([["id", "y"]] + list(zip(IDS, T)))
GOOD_SUB = csv([["id", "y"]] + list(zip(IDS, P)))


@pytest.mark.parametrize("sub,expect", [
    ("", "submission sub.csv: file is empty"),
    ("id,y\n", "submission sub.csv: has a header but no data rows"),
    ("id;y\n000a;0\n", "is the delimiter ';'"),
    (GOOD_SUB + "000a,1\n", "1 duplicate id(s) in column 'id': '000a' (rows 1, 9)"),
    (csv([["id", "y"]] + list(zip(IDS, P))[:-1]), "1 id(s) of the solution are missing: 'ffee'"),
    (GOOD_SUB + "zzzz,1\n", "1 id(s) are not in the solution: 'zzzz'"),
    (GOOD_SUB.replace("0b1c,2", "0b1c,two"), "row 2 (id '0b1c'): 'two'"),
    (GOOD_SUB.replace("0b1c,2", "0b1c,2.7"),
     "row 2 (id '0b1c'): 2.7; continuous predictions need cut points"),
    ("id,y\n000a,1,5\n", "cannot parse as CSV"),
])
def test_bad_submission(tmp_path, sub, expect):
    msg = problems(tmp_path, GOOD_SOL, sub)
    assert expect in msg, msg


def test_binary_directory_missing(tmp_path):
    (tmp_path / "junk.csv").write_bytes(bytes(range(256)) * 10)
    msg = problems(tmp_path, GOOD_SOL, None, sub_name="junk.csv")
    assert "submission junk.csv: binary data, not a text table" in msg
    (tmp_path / "adir").mkdir()
    assert "adir: is a directory" in problems(tmp_path, GOOD_SOL, None, sub_name="adir")
    assert "solution nope.csv: file not found" in problems(tmp_path, None, GOOD_SUB, sol_name="nope.csv")


def test_every_problem_listed(tmp_path):
    sub = GOOD_SUB.replace("0b1c,2", "0b1c,x") + "000a,1\nzzzz,2\n"
    msg = problems(tmp_path, GOOD_SOL, sub)
    for part in ("duplicate id", "not in the solution", "'x'"):
        assert part in msg


def test_utf16_named(tmp_path):
    (tmp_path / "u16.csv").write_bytes(GOOD_SUB.encode("utf-16"))
    assert "UTF-16 text; save it as UTF-8" in problems(tmp_path, GOOD_SOL, None, sub_name="u16.csv")


def test_zip_with_two_tables(tmp_path):
    import zipfile
    with zipfile.ZipFile(tmp_path / "two.zip", "w") as z:
        z.writestr("a.csv", GOOD_SUB)
        z.writestr("b.csv", GOOD_SUB)
    assert "zip holds 2 files (a.csv, b.csv)" in problems(tmp_path, GOOD_SOL, None, sub_name="two.zip")


def test_bad_usage_value(tmp_path):
    sol = csv([["id", "y", "Usage"]] + [[i, t, "Public"] for i, t in zip(IDS, T)])
    sol = sol.replace("1f2e,2,Public", "1f2e,2,Secret")
    msg = problems(tmp_path, sol, GOOD_SUB)
    assert "not Public, Private or Ignored: rows 3 ('Secret')" in msg   # as the file spells it


def test_lwlrap_missing_and_duplicate_class_column(tmp_path):
    a, b = lwlrap_files(tmp_path, wide=True, sub_cols=["Bark", "Meow", "Cricket"])
    with pytest.raises(InputError) as e:
        score_files(a, b)
    msg = "\n".join(e.value.problems)
    assert "missing class column(s): Walk_and_footsteps" in msg
    assert "not in the solution: Cricket" in msg
    dup = write(tmp_path / "dup.csv", "fname,Bark,Bark,Meow\na.wav,1,2,3\n")
    with pytest.raises(InputError, match="duplicate column name"):
        score_files(a, dup)


def test_lwlrap_unknown_label(tmp_path):
    a, b = lwlrap_files(tmp_path, sub_cols=["Bark", "Meow", "Cricket"])
    with pytest.raises(InputError, match="'Walk_and_footsteps' \\(row 1"):
        score_files(a, b)


def test_input_files_never_modified(tmp_path):
    a, b = kappa_pair(tmp_path)
    before = (a.read_bytes(), b.read_bytes(), a.stat().st_mtime_ns)
    score_files(a, b)
    assert (a.read_bytes(), b.read_bytes(), a.stat().st_mtime_ns) == before


def test_duplicate_ids_are_listed_with_every_row(tmp_path):
    """Each duplicated id with all its rows (file, column, row and id named), the ids
    after the first five said to exist ('...'); counted from the text by hand."""
    ids = [f"k{i}" for i in range(12)]
    rows = ids + ["k3", "k3", "k0"] + [f"k{i}" for i in range(5, 11)]    # 7 ids repeat
    sol = write(tmp_path / "sol.csv", csv([["id", "y"]] + [[i, 1] for i in ids]))
    sub = write(tmp_path / "sub.csv", csv([["id", "y"]] + [[i, 1] for i in rows]))
    with pytest.raises(InputError) as e:
        score_files(sol, sub, Options(metric="qwk"))      # all-1 ratings: kappa named
    msg = next(str(p) for p in e.value.report if "duplicate" in str(p))
    want = {i: [r + 1 for r, x in enumerate(rows) if x == i] for i in dict.fromkeys(rows)
            if rows.count(i) > 1}
    assert msg.startswith(f"submission sub.csv: {len(rows) - len(ids)} duplicate id(s) in column 'id': ")
    listed = msg.split(": ", 2)[2]
    repeats = [r for r, x in enumerate(rows) if rows.index(x) < r]     # 2nd+ occurrences
    shown = list(dict.fromkeys(rows[r] for r in repeats[:5]))          # ids of the first five
    assert shown == ["k3", "k0", "k5", "k6"]
    assert listed == ", ".join(f"'{i}' (rows {', '.join(map(str, want[i]))})" for i in shown) + ", ..."
