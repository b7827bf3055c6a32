"""The mask and box metrics through `kmetric`: scores against the competitions' plain
definitions, bad input as one line naming file, column, row and id, detection that asks
where several metrics fit, edits of a cell, and the image as the unit."""
import json
from pathlib import Path

import numpy as np
import pytest

from kmetric_gui.analysis.scoring import Options, score_files
from kmetric_gui.cli import main
from kmetric_gui.metrics import get_metric
from kmetric_gui.metrics.base import FieldSpec
from kmetric_gui.metrics.kernels.rle import encode

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"


def _write(path, header, rows):
    path.write_text("\n".join([",".join(header)] + [",".join(map(str, r)) for r in rows]) + "\n")
    return str(path)


def _tgs_plain(truth, pred):
    """TGS salt's published per-image rule on one mask: mean over t of [IoU > t]; an empty
    truth scores 1 with an empty prediction, else 0."""
    if not truth.any():
        return 1.0 if not pred.any() else 0.0
    iou = (truth & pred).sum() / (truth | pred).sum()
    return float(np.mean([iou > t for t in np.arange(0.5, 1.0, 0.05)]))


def test_iou_precision_equals_the_tgs_rule_on_random_masks(tmp_path, capsys):
    rng = np.random.default_rng(3)
    sol, sub, ref = [], [], []
    for i in range(30):
        t = np.zeros((11, 13), bool)
        if i % 5:
            y, x = rng.integers(0, 8, 2)
            t[y:y + rng.integers(1, 5), x:x + rng.integers(1, 6)] = True
        p = np.roll(t, int(rng.integers(-1, 2)), axis=int(rng.integers(0, 2)))
        if i % 7 == 0:
            p = np.zeros_like(p)
        if i == 4:
            p[0, 0] = True                          # one pixel on an empty truth
        sol.append([f"i{i}", encode(t)])
        sub.append([f"i{i}", encode(p)])
        ref.append(_tgs_plain(t, p))
    s = _write(tmp_path / "sol.csv", ["id", "rle_mask"], sol)
    b = _write(tmp_path / "sub.csv", ["id", "rle_mask"], sub)
    assert main(["score", s, b, "--metric", "iou_precision", "--image-size", "11x13",
                 "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["score"] == pytest.approx(np.mean(ref), abs=1e-12)
    assert d["n_images"] == 30 and d["worst_images"][0]["score"] == min(ref)


def test_row_major_and_column_major_give_the_same_dice(tmp_path):
    rng = np.random.default_rng(4)
    masks = [(rng.random((6, 9)) < 0.3, rng.random((6, 9)) < 0.3) for _ in range(12)]
    scores = []
    for order in ("column", "row"):
        s = _write(tmp_path / f"s{order}.csv", ["id", "m"], [[k, encode(t, order)] for k, (t, _) in
                                                               enumerate(masks)])
        b = _write(tmp_path / f"b{order}.csv", ["id", "m"], [[k, encode(p, order)] for k, (_, p) in
                                                               enumerate(masks)])
        rep = score_files(s, b, Options(metric="dice", params={"image_size": "6x9",
                                                               "rle_order": order}))
        scores.append(rep.score)
    ref = np.mean([2 * (t & p).sum() / (t.sum() + p.sum()) for t, p in masks])
    assert scores[0] == pytest.approx(ref) and scores[1] == pytest.approx(ref)


@pytest.mark.parametrize("cell,words", [
    ("1 3 5", "odd number of values"),
    ("95 10", "past the image's end"),
    ("10 3 11 2", "out of order or overlapping"),
    ("1 2 b", "other than digits"),
])
def test_a_bad_encoding_is_one_line_with_file_column_row_and_id(tmp_path, capsys, cell, words):
    s = _write(tmp_path / "sol.csv", ["id", "EncodedPixels"], [["a", "1 2"], ["b", ""]])
    b = _write(tmp_path / "sub.csv", ["id", "EncodedPixels"], [["a", "1 2"], ["b", cell]])
    assert main(["score", s, b, "--metric", "dice", "--image-size", "10x10"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in err[0]
    assert "sub.csv" in err[0] and "'EncodedPixels'" in err[0] and "row 2" in err[0] \
        and "'b'" in err[0] and words in err[0]


def test_a_missing_image_size_is_named(tmp_path, capsys):
    s = _write(tmp_path / "sol.csv", ["id", "EncodedPixels"], [["a", "1 2"]])
    b = _write(tmp_path / "sub.csv", ["id", "EncodedPixels"], [["a", "1 2"]])
    assert main(["score", s, b, "--metric", "dice"]) == 2
    err = capsys.readouterr().err
    assert "image size missing" in err and "sol.csv" in err


@pytest.mark.parametrize("cell,words", [
    ("cat 1.5 0 0 10 10", "confidence outside [0, 1]"),
    ("cat 0.5 10 0 5 10", "negative width or height"),
    ("cat 0.5 0 0 10", "groups of 6"),
    ("cat 0.5 0 0 10 nan", "not a number"),
])
def test_a_bad_box_string_is_one_line(tmp_path, capsys, cell, words):
    s = _write(tmp_path / "sol.csv", ["image_id", "PredictionString"],
               [["x", "cat 0 0 10 10"], ["y", "cat 5 5 9 9"]])
    b = _write(tmp_path / "sub.csv", ["image_id", "PredictionString"],
               [["x", "cat 0.9 0 0 10 10"], ["y", cell]])
    assert main(["score", s, b, "--metric", "map_iou"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "row 2" in err[0] and "'y'" in err[0] and words in err[0]


def test_detection_asks_among_mask_metrics_and_takes_box_strings(capsys):
    assert main(["score", str(DEMO / "dice_solution.csv"), str(DEMO / "dice_submission.csv")]) == 2
    err = capsys.readouterr().err
    listed = set(err.split("--metric {")[1].split("}")[0].split(","))
    assert {"dice", "iou", "iou_precision", "fbeta_iou", "pixel_fbeta"} <= listed
    assert main(["score", str(DEMO / "map_iou_solution.csv"), str(DEMO / "map_iou_submission.csv"),
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["metric"] == "map_iou"
    assert main(["score", str(DEMO / "point_f1_solution.csv"),
                 str(DEMO / "point_f1_submission.csv"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["metric"] == "point_f1"


def test_an_edited_cell_rescores_as_the_edited_file(tmp_path):
    """A mask cell replaced by another encoding, a box string edited: the score equals the
    score of a file holding that value; a bad value is refused in words."""
    for name in ("dice", "map_iou"):
        m = get_metric(name)
        sol, sub = m.demo_paths()
        rep = score_files(sol, sub, Options(metric=name))
        prep = rep.prepared
        text = "100 30 200 12" if name == "dice" else "nodule 0.9 10 10 60 60"
        value = m.parse(FieldSpec("pred"), text, prep)
        lines = Path(sub).read_text().splitlines()
        first = prep.ids[0]
        out = [lines[0]] + [ln for ln in lines[1:] if ln.split(",")[0] != first] + [f"{first},{text}"]
        edited = tmp_path / f"{name}.csv"
        edited.write_text("\n".join(out) + "\n")
        want = score_files(sol, str(edited), Options(metric=name)).score
        pred = list(prep.pred)
        pred[0] = value
        from dataclasses import replace
        got = m.score(m.plan(replace(prep, pred=pred), rep.options), None, rep.options, lambda: False)
        assert got.score == pytest.approx(want, abs=1e-12)
        with pytest.raises(ValueError, match="odd number|groups of"):
            m.parse(FieldSpec("pred"), "1 2 3" if name == "dice" else "nodule 0.9 1 2", prep)


def test_fix_first_gains_are_exact_rescorings_for_map(tmp_path):
    from kmetric_gui.analysis.fixes import top_fixes
    m = get_metric("map_iou")
    sol, sub = m.demo_paths()
    rep = score_files(sol, sub, Options(metric="map_iou"))
    f = top_fixes(rep, 3).fixes
    prep = rep.prepared
    pred = list(prep.pred)
    from dataclasses import replace
    for k, unit in enumerate(f.units[:3]):
        t = prep.truth[unit]
        pred[unit] = replace(t, conf=np.ones(len(t)))      # the image's truth, predicted surely
        again = m.score(m.plan(replace(prep, pred=pred), rep.options), None, rep.options,
                        lambda: False).score
        assert again == pytest.approx(f.score_after[k], abs=1e-12)
