"""Blend, where-they-differ, fix first and the report's plots for every registered metric
with a demo pair (<name>_submission.csv and <name>_submission_b.csv), each held to an
independent computation: the blended file written and scored again, the unit swapped and
scored again, the fixed rows scored again (brute force). Lower-is-better metrics included."""
from dataclasses import replace

import numpy as np
import pytest

from kmetric_gui.analysis.comparison import CompareOptions, compare_reports
from kmetric_gui.analysis.fixes import top_fixes
from kmetric_gui.analysis.scoring import Options, score_files, score_prepared
from kmetric_gui.io.saving import csv_text
from kmetric_gui.metrics import REGISTRY
from kmetric_gui.metrics.base import split_rows
from kmetric_gui.metrics.family_analyses import StatsAnalyses
from kmetric_gui.metrics.kernels.differ import UnitDiffer
from kmetric_gui.paths import resources_dir

DEMO = resources_dir() / "demo"
PAIRS = [m for m in REGISTRY.values()
         if m.demo_paths() and (DEMO / f"{m.name}_submission_b.csv").is_file()]
IDS = [m.name for m in PAIRS]


def _reports(metric):
    o = Options(metric=metric.name)
    sol = DEMO / f"{metric.name}_solution.csv"
    return (score_files(sol, DEMO / f"{metric.name}_submission.csv", o),
            score_files(sol, DEMO / f"{metric.name}_submission_b.csv", o))


def _rescore(report, pred):
    return score_prepared(replace(report.prepared, pred=pred), report.options).score


def test_every_family_has_a_demo_pair_and_both_directions():
    names = set(IDS)
    assert {"auc", "logloss", "accuracy", "f1", "mapk", "rmse", "rmsle", "mae", "mcrmse"} <= names
    assert any(not m.higher_is_better for m in PAIRS) and any(m.higher_is_better for m in PAIRS)


@pytest.mark.parametrize("metric", PAIRS, ids=IDS)
def test_blend_curve_is_the_score_of_each_blended_file(metric, tmp_path):
    ra, rb = _reports(metric)
    rows = split_rows(ra.prepared.usage)
    parts = [None, split_rows(ra.prepared.usage, "public")]
    curves = metric.blend_sets(ra, rb, np.linspace(0, 1, 5), parts)
    if curves[0] is None:
        why = metric.blend_why_not(ra, rb)
        assert why and metric.label.split()[0].lower() in why.lower() or len(why) > 20
        return
    c = curves[0]
    assert c.scores[-1] == pytest.approx(ra.score, rel=1e-9, abs=1e-12)      # alpha 1: A
    assert c.scores[0] == pytest.approx(rb.score, rel=1e-9, abs=1e-12)       # alpha 0: B
    best = np.nanmax(c.scores) if metric.higher_is_better else np.nanmin(c.scores)
    assert c.best_score == best
    if "public" in ra.splits:       # a part of the rows: its end point is A on that part
        assert curves[1].scores[-1] == pytest.approx(ra.splits["public"].score, rel=1e-9,
                                                     abs=1e-12)
    for g in (1, 3):       # each alpha's blend written as a file and scored from scratch
        alpha = float(c.alphas[g])
        pred = metric.blend_prediction(ra.prepared, rb.prepared.pred, alpha)
        header, body = metric.submission_rows(replace(ra.prepared, pred=pred))
        path = tmp_path / f"blend_{g}.csv"
        path.write_text(csv_text([header, *body], spreadsheet=False))
        again = score_files(DEMO / f"{metric.name}_solution.csv", path, Options(metric=metric.name))
        assert again.score == pytest.approx(c.scores[g], rel=1e-9, abs=1e-12)
    assert rows is None or len(rows)


@pytest.mark.parametrize("metric", [m for m in PAIRS if m.name != "qwk"],
                         ids=[n for n in IDS if n != "qwk"])
def test_compare_checks_the_best_blend_on_held_out_rows(metric):
    ra, rb = _reports(metric)
    cmp = compare_reports(["a", "b"], [None, None], [ra, rb],
                          CompareOptions(replicates=20, permutations=0, splits=5))
    pair = cmp.pairs[0]
    if pair.blend is None:
        assert pair.blend_note
        return
    held = pair.blend.held_out
    if ra.prepared.usage is None:
        assert [h.fit_on for h in held] == ["half 1", "half 2"]
        return
    assert [h.fit_on for h in held] == ["Public", "Private"]
    for h in held:      # the held-out end points are A and B alone on that part
        assert h.a_score == pytest.approx(ra.splits[h.held.lower()].score, rel=1e-9)
        assert h.b_score == pytest.approx(rb.splits[h.held.lower()].score, rel=1e-9)


@pytest.mark.parametrize("metric", PAIRS, ids=IDS)
def test_where_they_differ_returns_units(metric):
    ra, rb = _reports(metric)
    d = metric.differ(ra, rb, metric.paired([ra, rb]), 0, 1)
    assert d is not None
    if not isinstance(d, UnitDiffer):
        return                      # the seeds' own kinds have their own tests
    assert d.units.size > 0 and np.all(np.diff(np.abs(d.delta)) <= 1e-15)
    rows = split_rows(ra.prepared.usage)
    if metric.name == "auc":        # rows' shares of the pairs: they add up to the difference
        assert d.delta.sum() == pytest.approx(rb.score - ra.score, abs=1e-12)
        return
    for k in (0, d.units.size - 1):     # B with A's prediction on that unit, scored again
        u = int(d.units[k])
        sol = u if rows is None else int(rows[u])
        pred = list(rb.prepared.pred) if isinstance(rb.prepared.pred, list) else \
            np.array(rb.prepared.pred, copy=True)
        pred[sol] = ra.prepared.pred[sol]
        assert rb.score - _rescore(rb, pred) == pytest.approx(d.delta[k], rel=1e-9, abs=1e-12)
    assert len(d.a_text) == len(d.b_text) == min(200, d.units.size)


@pytest.mark.parametrize("metric", [m for m in PAIRS if isinstance(m, StatsAnalyses)
                                    or m.name == "auc"],
                         ids=[m.name for m in PAIRS if isinstance(m, StatsAnalyses)
                              or m.name == "auc"])
def test_fix_first_score_after_is_the_rescored_fixed_file(metric):
    ra, _ = _reports(metric)
    fx = top_fixes(ra, 12)
    assert len(fx.fixes) > 0 and fx.words and "rating" not in fx.words
    prep = ra.prepared
    for k in (1, 5, len(fx.fixes)):
        field, pred = metric.fix_rows(prep, fx.rows[:k])
        assert field == "pred"
        assert _rescore(ra, pred) == pytest.approx(fx.fixes.score_after[k - 1], rel=1e-9, abs=1e-12)
    gains = fx.fixes.gains
    assert np.all(gains > 0)            # improvements in the metric's direction
    after = fx.fixes.score_after
    assert (after[-1] > ra.score) == metric.higher_is_better


def test_auc_fix_first_multi_class_by_brute_force():
    from kmetric_gui.metrics.kernels.auc_units import auc_fix_first, fixed_scores, row_pairs
    from kmetric_gui.metrics.kernels.ranking import roc_auc
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 3, 60)
    scores = np.round(rng.random((60, 3)), 1)        # ties on purpose
    rp = row_pairs(truth, scores)
    assert rp.score() == pytest.approx(roc_auc(truth, scores).score, abs=1e-12)
    picks, after = auc_fix_first(rp, 15)
    for k in range(1, picks.size + 1):
        fixed = fixed_scores(truth, scores, picks[:k])
        assert roc_auc(truth, fixed).score == pytest.approx(after[k - 1], abs=1e-12)
    # the greedy pick is the best single move (brute force over every row)
    single = [roc_auc(truth, fixed_scores(truth, scores, [i])).score for i in range(60)]
    assert after[0] == pytest.approx(max(single), abs=1e-12)


@pytest.mark.parametrize("metric", PAIRS, ids=IDS)
def test_the_report_has_plots_per_submission_and_per_pair(metric, qapp):
    from kmetric_gui.gui.report_render import _dispose
    from kmetric_gui.gui.views import report_plots
    from kmetric_gui.gui.views.anatomy_plots import pair_plots
    from kmetric_gui.report import build_report, score_entry
    ra, rb = _reports(metric)
    sol = DEMO / f"{metric.name}_solution.csv"
    data = build_report(sol, [score_entry(DEMO / f"{metric.name}_submission.csv", ra),
                              score_entry(DEMO / f"{metric.name}_submission_b.csv", rb)],
                        compare=CompareOptions(replicates=20, permutations=0, splits=5))
    own = report_plots(data.entries[0])
    other = report_plots(data.entries[1])
    pairs = pair_plots(data.json["comparison"])
    assert own and other and len(own) == len(other)
    kinds = {name.split("_")[-1] for name, _, _ in pairs}
    assert "differ" in kinds or metric.name in ("qwk", "lwlrap", "fbeta")
    assert ("blend" in kinds) == (data.json["comparison"]["pairs"][0].get("blend") is not None)
    _dispose([w for _, _, w in own + other + pairs])
