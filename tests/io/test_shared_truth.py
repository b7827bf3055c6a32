"""Many submissions of one truth (kmetric select): the truth read once, every
submission scored as `scoring.load` scores it, problems said as load says them."""
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from filemaker import csv, write
from kmetric_gui.analysis.comparison import load_all
from kmetric_gui.analysis.scoring import Options
from kmetric_gui.analysis.shared_truth import SharedTruth


def files(tmp_path, n=60, c=4, seed=3):
    rng = np.random.default_rng(seed)
    ids = [f"r{i}" for i in range(n)]          # widths differ: not the lean reader's
    t = rng.integers(0, 5, n)
    sol = write(tmp_path / "sol.csv", csv([["id", "rating"]] + list(zip(ids, t))))
    subs, preds = [], []
    for j in range(c):
        p = np.where(rng.random(n) < 0.6, t, rng.integers(0, 5, n))
        order = rng.permutation(n) if j % 2 else np.arange(n)      # some shuffled
        subs.append(write(tmp_path / f"s{j}.csv",
                          csv([["id", "rating"]] + [[ids[i], p[i]] for i in order])))
        preds.append(p)
    return sol, subs, t, preds


def test_reads_the_truth_once_and_scores_as_load_does(tmp_path, monkeypatch):
    sol, subs, t, preds = files(tmp_path)
    import kmetric_gui.io.read as read
    seen = []
    real = read.read_table

    def counted(path, *a, **k):
        seen.append(str(path))
        return real(path, *a, **k)
    monkeypatch.setattr(read, "read_table", counted)
    names, reports, problems = load_all(sol, subs, Options(), loader=SharedTruth())
    assert seen.count(str(sol)) == 1 and all(seen.count(str(s)) == 1 for s in subs)
    assert problems == [[]] * len(subs)
    for r, p in zip(reports, preds):
        assert r.metric == "qwk"
        assert r.score == pytest.approx(cohen_kappa_score(t, p, weights="quadratic"))
    monkeypatch.setattr(read, "read_table", real)
    _, plain, _ = load_all(sol, subs, Options())
    assert [r.score for r in reports] == pytest.approx([r.score for r in plain])


def test_a_bad_submission_is_said_as_the_pair_read_says_it(tmp_path):
    sol, subs, _, _ = files(tmp_path)
    lines = subs[1].read_text().splitlines()
    subs[1].write_text("\n".join(lines[:-3] + ["r0,2"]) + "\n")     # two ids missing, one twice
    subs[2].write_text("id,rating\nr0,x\n")
    shared = load_all(sol, subs, Options(), loader=SharedTruth())
    plain = load_all(sol, subs, Options())
    assert shared[2] == plain[2]
    assert shared[1][1] is None and shared[1][2] is None and shared[2][1] and shared[2][2]
    assert [r is None for r in shared[1]] == [False, True, True, False]


@pytest.mark.parametrize("text, seen", [("id,r\na,1\nb,0x3\n", True), ("id,r\na,1\n", False),
                                        ("0x", True), ("", False), ("id,r\na,0X1", True)])
def test_saw_hex_on_small_files_sized_to_them(tmp_path, text, seen):
    from kmetric_gui.io.sources import saw_hex
    p = tmp_path / "f.csv"
    p.write_text(text)
    assert saw_hex(str(p)) is seen
