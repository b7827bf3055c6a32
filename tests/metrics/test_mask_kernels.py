"""Run-length masks: parsing, checks and pixel counts against pycocotools' RLE and plain
loops over decoded pixels (edge cases: empty truth, empty prediction, both, one pixel)."""
import numpy as np
import pytest

from kmetric_gui.metrics.kernels.masks import (MaskImage, dice_of, instance_pairs, iou_of,
                                               pixel_counts, threshold_counts)
from kmetric_gui.metrics.kernels.rle import decode, encode, parse_cells, runs_of_cells

mask_api = pytest.importorskip("pycocotools.mask")


def _plain_rle(mask):
    """Kaggle RLE of a mask by a plain loop over the column-major pixels."""
    flat = mask.T.ravel()
    out, k = [], 0
    while k < flat.size:
        if flat[k]:
            s = k
            while k < flat.size and flat[k]:
                k += 1
            out += [s + 1, k - s]
        else:
            k += 1
    return " ".join(map(str, out))


def _image(masks, h, w):
    texts = [encode(m) for m in masks if m.any()]
    runs, why = runs_of_cells(texts, [h * w] * len(texts))
    assert not why
    ptr = runs.ptr
    return MaskImage(tuple(texts), runs.starts, runs.lengths, ptr, h, w)


def _random_masks(rng, n, h=None, w=None, k=1):
    out = []
    for _ in range(n):
        hh, ww = h or int(rng.integers(1, 40)), w or int(rng.integers(1, 40))
        lab = rng.integers(0, k + 1, (hh, ww)) * (rng.random((hh, ww)) < rng.random())
        out.append([lab == j for j in range(1, k + 1)])
    return out


def test_encode_and_decode_match_a_plain_loop_and_both_orders():
    rng = np.random.default_rng(0)
    for (m,) in _random_masks(rng, 200):
        text = encode(m)
        assert text == _plain_rle(m)
        runs, why = runs_of_cells([text], [m.size])
        assert not why
        assert np.array_equal(decode(*runs.cell(0), *m.shape), m)
        row = encode(m, "row")
        assert row == _plain_rle(m.T)           # row-major = column-major of the transpose
        runs, _ = runs_of_cells([row], [m.size])
        assert np.array_equal(decode(*runs.cell(0), *m.shape, order="row"), m)


def test_pixel_counts_equal_pycocotools_rle_area_and_intersection():
    rng = np.random.default_rng(1)
    pairs = [(a[0], b[0]) for a, b in zip(_random_masks(rng, 150, 30, 25),
                                          _random_masks(rng, 150, 30, 25))]
    pairs += [(np.zeros((30, 25), bool), np.zeros((30, 25), bool))]        # both empty
    one = np.zeros((30, 25), bool)
    one[3, 4] = True
    pairs += [(one, np.zeros((30, 25), bool)), (np.zeros((30, 25), bool), one), (one, one)]
    truth = [_image([a], 30, 25) for a, _ in pairs]
    pred = [_image([b], 30, 25) for _, b in pairs]
    got = pixel_counts(truth, pred)
    for k, (a, b) in enumerate(pairs):
        ra, rb = (mask_api.encode(np.asfortranarray(x.astype(np.uint8))) for x in (a, b))
        inter = mask_api.merge([ra, rb], intersect=True)
        assert got[k].tolist() == [int(mask_api.area(inter)), int(mask_api.area(ra)),
                                   int(mask_api.area(rb))]
    d = dice_of(got)
    assert d[-4] == 1.0 and d[-3] == 0.0 and d[-2] == 0.0 and d[-1] == 1.0
    assert iou_of(got[-1:])[0] == 1.0


def test_instance_ious_equal_pycocotools_iou():
    rng = np.random.default_rng(2)
    for t_masks, p_masks in zip(_random_masks(rng, 60, 20, 30, k=3), _random_masks(rng, 60, 20, 30, k=3)):
        t_masks = [m for m in t_masks if m.any()]
        p_masks = [m for m in p_masks if m.any()]
        pairs = instance_pairs([_image(t_masks, 20, 30)], [_image(p_masks, 20, 30)])
        got = np.zeros((len(t_masks), len(p_masks)))
        got[pairs.truth, pairs.pred] = pairs.iou
        if t_masks and p_masks:
            rt = [mask_api.encode(np.asfortranarray(m.astype(np.uint8))) for m in t_masks]
            rp = [mask_api.encode(np.asfortranarray(m.astype(np.uint8))) for m in p_masks]
            ref = mask_api.iou(rp, rt, [0] * len(rt)).T
            np.testing.assert_allclose(got, ref, atol=1e-12)


def test_threshold_counts_follow_the_tgs_rule():
    # one truth mask of 10 pixels; the prediction shares 7 of its 10 and adds 1: IoU 7/11
    t = np.zeros((5, 5), bool)
    t.flat[:10] = True
    p = np.zeros((5, 5), bool)
    p.flat[3:11] = True
    c = threshold_counts(instance_pairs([_image([t], 5, 5)], [_image([p], 5, 5)]),
                         np.arange(0.5, 1.0, 0.05))[0]
    iou = 7 / 11
    expect_tp = (np.arange(0.5, 1.0, 0.05) < iou).astype(int)
    assert c[:, 0].tolist() == expect_tp.tolist()
    assert c[:, 1].tolist() == (1 - expect_tp).tolist() == c[:, 2].tolist()


@pytest.mark.parametrize("text,words", [
    ("1 3 5", "odd number"),
    ("0 2", "pixel 0"),
    ("5 0", "length 0"),
    ("24 5", "past the image's end"),
    ("10 3 5 2", "out of order"),
    ("1 5 4 2", "out of order or overlapping"),
    ("1 2 x 4", "other than digits"),
    ("1 -2", "other than digits"),
])
def test_bad_encodings_are_named(text, words):
    _, why = runs_of_cells(["1 2", text], [25, 25])
    assert list(why) == [1] and words in why[1]


def test_parse_cells_reads_many_cells_at_once():
    p = parse_cells(["1 22 333", "", "  4   5 ", "9" * 15])
    assert p.values.tolist() == [1, 22, 333, 4, 5, int("9" * 15)]
    assert p.counts().tolist() == [3, 0, 2, 1]
