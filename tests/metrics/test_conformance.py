"""Every registered metric holds the same contract: its score equals the reference it
declares; compare, blends and fix first follow its direction; `--ci` and `compare` run;
the JSON has the stable keys; the app opens its demo at 1280x720 with no exception.
A metric registered from inside this test passes the same checks."""
import json
from pathlib import Path

import numpy as np
import pytest

from filemaker import csv, write
from kmetric_gui import metrics
from kmetric_gui.cli import main
from kmetric_gui.analysis.comparison import CompareOptions, compare_files
from kmetric_gui.analysis.fixes import top_fixes
from kmetric_gui.metrics.additive import AdditiveMetric
from kmetric_gui.metrics.base import split_rows
from kmetric_gui.metrics.references import same
from kmetric_gui.metrics.schema import Option
from kmetric_gui.analysis.scoring import COMMON_OPTIONS, Options, score_files

SCORE_KEYS = {"metric", "score", "higher_is_better", "n_rows", "chosen", "layout", "options"}
PAIR_KEYS = {"a", "b", "delta", "delta_ci", "p_b_better", "p_a_better", "p_value",
             "permutations", "public_delta", "private_delta", "p_order_flips"}


class HuberLike(AdditiveMetric):
    """A metric a user adds: mean pseudo-Huber loss (lower is better), one option."""
    name = "toyhuber"
    label = "Toy pseudo-Huber loss"
    higher_is_better = False
    stat_names = ("loss",)
    demo_label = "pseudo-Huber (made in a test)"
    folder = None
    options = (Option("delta", float, 1.0, help="pseudo-Huber's delta", minimum=0.01,
                      maximum=100, step=0.1),)

    def row_stats(self, truth, pred, options):
        d = options.delta
        r = np.asarray(truth, dtype=float) - np.asarray(pred, dtype=float)
        return (d * d * (np.sqrt(1 + (r / d) ** 2) - 1))[:, None]

    def score_sums(self, sums, n):
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(n > 0, sums[..., 0] / n, np.nan)

    def reference(self, prep, options, rows=None):
        keep = range(len(prep.truth)) if rows is None else rows
        d, total = options.delta, 0.0
        for i in keep:
            r = float(prep.truth[i]) - float(prep.pred[i])
            total += d * d * ((1 + (r / d) ** 2) ** 0.5 - 1)
        return total / len(keep)

    def demo_paths(self):
        if self.folder is None:
            return None
        return str(self.folder / "toyhuber_solution.csv"), str(self.folder / "toyhuber_submission.csv")


def _write_toy_demo(folder):
    rng = np.random.default_rng(11)
    n = 80
    truth = rng.normal(size=n) * 3
    ids = [f"x{i}" for i in range(n)]
    usage = ["Public" if i % 4 else "Private" for i in range(n)]
    write(folder / "toyhuber_solution.csv", csv([["id", "target", "Usage"]] + [
        [i, repr(float(t)), u] for i, t, u in zip(ids, truth, usage)]))
    for name, scale in (("toyhuber_submission.csv", 0.5), ("toyhuber_submission_b.csv", 1.5)):
        pred = truth + rng.normal(size=n) * scale
        write(folder / name, csv([["id", "target"]] + [[i, repr(float(v))] for i, v in zip(ids, pred)]))


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    m = HuberLike()
    m.folder = tmp_path_factory.mktemp("toydemo")
    _write_toy_demo(m.folder)
    metrics.register(m)
    yield m
    metrics.unregister(m.name)


BUILT_IN = list(metrics.REGISTRY)
EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "metrics"
FILE_METRIC = "file:kl_divergence.py"


@pytest.fixture(scope="module")
def kl_file():
    """A competition's metric file registered as a metric (its example pair as its demo)."""
    from kmetric_gui.metricfile.metric import file_metric
    m = file_metric(EXAMPLES / "kl_divergence.py")
    m.demo_paths = lambda: (str(EXAMPLES / "kl_solution.csv"), str(EXAMPLES / "kl_submission.csv"))
    metrics.register(m)
    yield m
    metrics.unregister(m.name)
    m.close()


@pytest.fixture(params=BUILT_IN + ["toyhuber", FILE_METRIC])
def metric(request, toy, kl_file):
    return metrics.get_metric(request.param)


def _files(metric):
    sol, sub = metric.demo_paths()
    b = Path(sub).with_name(Path(sub).stem + "_b.csv")
    return sol, sub, str(b)


def test_score_equals_its_reference_and_json_keys(metric):
    sol, sub, _ = _files(metric)
    rep = score_files(sol, sub, Options(metric=metric.name))
    rows = split_rows(rep.prepared.usage)
    assert same(rep.score, metric.reference(rep.prepared, rep.options, rows))
    for split in ("public", "private"):
        if split in rep.splits:
            assert same(rep.splits[split].score,
                        metric.reference(rep.prepared, rep.options,
                                         split_rows(rep.prepared.usage, split)))
    d = json.loads(json.dumps(rep.to_json()))
    assert SCORE_KEYS <= set(d)
    assert d["metric"] == metric.name and d["higher_is_better"] is metric.higher_is_better
    own = {o.name for o in metric.options} | set(COMMON_OPTIONS) | set(metric.json_options(rep))
    assert set(d["options"]) <= own
    assert {o.name for o in metric.options} <= set(d["options"]) | {
        o.name for o in metric.options if o.default is None}


def test_direction_in_compare_blend_and_fix_first(metric):
    sol, a, b = _files(metric)
    o = CompareOptions(replicates=200, permutations=50, splits=50, seed=2, alphas=11)
    cmp = compare_files(sol, [a, b], Options(metric=metric.name), o)
    sa, sb = (s.score for s in cmp.submissions)
    better_b = sb > sa if metric.higher_is_better else sb < sa
    assert cmp.best == (1 if better_b else 0)
    st = cmp.pairs[0].stats
    deltas = st.deltas[np.isfinite(st.deltas)]
    want = np.mean(deltas > 0 if metric.higher_is_better else deltas < 0)
    assert st.p_b_better == pytest.approx(want, abs=1e-12)
    assert cmp.to_json()["higher_is_better"] is metric.higher_is_better
    curve = cmp.pairs[0].blend
    if curve is not None:
        ok = np.isfinite(curve.scores)
        best = curve.scores[ok].max() if metric.higher_is_better else curve.scores[ok].min()
        assert curve.best_score == best
    rep = score_files(sol, a, Options(metric=metric.name))
    tf = top_fixes(rep, 5)
    f = tf.fixes
    if len(f):
        prev = np.concatenate(([f.score], f.score_after[:-1]))
        sign = 1 if metric.higher_is_better else -1
        np.testing.assert_allclose(f.gains, sign * (f.score_after - prev), atol=1e-12)
        assert f.gains[0] > 0                        # the first fix improves the score


def test_cli_ci_and_compare_run(metric, capsys):
    sol, a, b = _files(metric)
    assert main(["score", sol, a, "--metric", metric.name, "--ci", "0.9", "--bootstrap", "200",
                 "--shakeup", "--splits", "100", "--top-fixes", "3", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["ci"]["level"] == 0.9 and d["higher_is_better"] is metric.higher_is_better
    assert main(["compare", sol, a, b, "--metric", metric.name, "--json", "--bootstrap", "100",
                 "--permutations", "50", "--splits", "50"]) == 0
    c = json.loads(capsys.readouterr().out)
    assert PAIR_KEYS <= set(c["pairs"][0]) and c["higher_is_better"] is metric.higher_is_better
    assert main(["compare", sol, a, b, "--metric", metric.name, "--bootstrap", "100",
                 "--permutations", "50", "--splits", "50"]) == 0
    assert c["metric"] in capsys.readouterr().out


def test_the_app_opens_its_demo(metric, qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("KMETRIC_SETTINGS", str(tmp_path / "settings.ini"))
    from kmetric_gui.gui.main_window import MainWindow
    win = MainWindow(size=(1280, 720))
    qtbot.addWidget(win)
    win.show()
    try:
        with qtbot.waitSignal(win.scored, timeout=30000) as got:
            win.open_demo(metric.name)
        rep = got.args[0]
        assert rep.metric == metric.name
        view = win.tabs.views[metric.name]
        assert win.tabs.currentWidget() is view and view.isVisible()
        qtbot.wait(200)                      # the view's own jobs deliver
        assert win.width() <= 1280 and win.height() <= 720
    finally:
        win._discarding = True
        win.jobs.shutdown()


def test_a_report_of_the_registered_metric(toy, tmp_path, capsys):
    sol, a, b = _files(toy)
    out = tmp_path / "rep"
    assert main(["report", sol, a, b, "--metric", toy.name, "--out", str(out)]) == 0, \
        capsys.readouterr().err
    d = json.loads((out / "report.json").read_text())
    assert d["metric"] == toy.name and d["higher_is_better"] is False
    assert set(d["options"]) == {"metric", "delta"}
    assert d["comparison"]["higher_is_better"] is False
    html = (out / "index.html").read_text(encoding="utf-8")
    assert "lower is better" in html


# -- the direction holds: a perfect submission scores best -------------------------------

def _perfect_check(metric):
    """Scores of the demo's two submissions and of a perfect one (the metric's ``perfect``
    predictions); AssertionError when the declared direction ranks the perfect one worse."""
    from dataclasses import replace as _replace

    from kmetric_gui.analysis.scoring import load, score_prepared
    from kmetric_gui.metrics.base import better
    sol, a, b = _files(metric)
    o = Options(metric=metric.name)
    scores = [score_prepared(load(sol, p, o), o).score for p in (a, b)]
    prep = load(sol, a, o)
    best = score_prepared(_replace(prep, pred=metric.perfect(prep)), o).score
    assert np.isfinite(best), f"{metric.name}: a perfect submission scores {best}"
    for s in scores:
        assert not better(metric, s, best), \
            f"{metric.name}: {s} ranks above a perfect submission's {best} (wrong direction?)"
    assert any(better(metric, best, s) for s in scores if np.isfinite(s)), \
        f"{metric.name}: the perfect submission ({best}) is not better than either demo {scores}"
    return best, scores


def test_a_perfect_submission_scores_best(metric):
    _perfect_check(metric)


def test_a_wrong_direction_is_caught(toy):
    """The check above fails for a metric registered with the wrong direction."""
    class Flipped(type(toy)):
        name = "toyflipped"
        higher_is_better = True              # a loss declared higher-is-better
    m = Flipped()
    m.folder = toy.folder
    m.demo_paths = lambda: toy.demo_paths()
    metrics.register(m)
    try:
        with pytest.raises(AssertionError, match="wrong direction"):
            _perfect_check(m)
    finally:
        metrics.unregister(m.name)


# -- options: CLI -> JSON -> project -> panel --------------------------------------------

def _candidates(o):
    """Valid values of option ``o`` other than its default, to try on the demo in turn."""
    if o.choices:
        return [c for c in o.choices if c != o.default]
    if o.type is bool:
        return [not o.default]
    if o.type is int:
        lo = int(o.minimum) if o.minimum is not None else -(10 ** 6)
        hi = int(o.maximum) if o.maximum is not None else 10 ** 6
        base = o.default if o.default is not None else 0
        vals = [base + 1, 0, -1, 10, 100, lo, hi]
    elif o.type is float:
        lo = o.minimum if o.minimum is not None else 0.0
        hi = o.maximum if o.maximum is not None else lo + 1.0
        vals = [lo + (hi - lo) * f for f in (0.37, 0.61, 0.05)]
    elif o.examples:     # free text of a form (an image size, thresholds): the metric's own
        return [v for v in o.examples if v != o.default]
    else:                # free text (a label): a few usual ones
        return [v for v in ("0", "1", "2", "true", "a") if v != o.default]
    return [v for v in dict.fromkeys(vals) if v != o.default and lo <= v <= hi]


def _flag_text(v):
    return repr(v) if isinstance(v, float) else str(v)


def _given(metric, o, v, capsys):
    """The JSON options of the demo scored with option ``o`` set to ``v``, or None when
    the data refuses the value (said in one line)."""
    sol, sub, _ = _files(metric)
    argv = ["score", sol, sub, "--metric", metric.name, "--json", o.flag]
    code = main(argv + ([_flag_text(v)] if o.type is not bool else []))
    out = capsys.readouterr()
    if code == 2:
        assert out.err.startswith("kmetric: ") and "Traceback" not in out.err
        return None
    assert code == 0, out.err
    return json.loads(out.out)["options"]


WITH_FLAGS = [n for n in BUILT_IN if any(o.cli for o in metrics.get_metric(n).options)]


@pytest.mark.parametrize("name", WITH_FLAGS)
def test_options_round_trip_cli_json_project_panel(name, capsys, qtbot):
    """Every declared option of every metric: a value given as a flag is in the JSON,
    the JSON's options make a project's options that the schema takes unchanged, and
    the options panel shows and gives back exactly those options."""
    from kmetric_gui.gui.project_schema import Problems, check_options
    from kmetric_gui.gui.widgets.options_panel import OptionsPanel
    metric = metrics.get_metric(name)
    flags = [o for o in metric.options if o.cli]
    chosen = {}
    for o in flags:
        for v in _candidates(o):
            got = _given(metric, o, v, capsys)
            if got is not None:
                assert got[o.name] == pytest.approx(v), o.name
                chosen[o.name] = got[o.name]
                break
        else:
            pytest.fail(f"{name}: no value of --{o.name} other than its default scores the demo")
    problems = Problems()
    kw = check_options({"metric": name, **chosen}, problems)
    assert kw is not None, list(problems)
    from_project = Options(**kw)
    assert from_project == Options(metric=name, **chosen)
    panel = OptionsPanel()
    qtbot.addWidget(panel)
    panel.set_options(from_project)
    shown = panel.options()
    assert shown.metric == name and shown.params == from_project.params
