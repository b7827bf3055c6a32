"""The app's "Competition" picker: it puts the competition's metric, options and columns
in the options panel, refuses (said) one no built-in scores, and a project keeps it."""
import json
import shutil

import pytest

from kmetric_gui.analysis.competitions import resolve
from kmetric_gui.analysis.scoring import Options
from kmetric_gui.gui.project_file import (ProjectError, file_ref, project_json, read_project,
                                          write_project)
from kmetric_gui.gui.widgets.options_panel import OptionsPanel
from kmetric_gui.paths import resources_dir


def _panel(qtbot):
    p = OptionsPanel()
    qtbot.addWidget(p)
    return p


def _pick(panel, slug):
    w = panel.competition
    index = w.findData(slug)
    assert index > 0
    w.setCurrentIndex(index)
    w.activated.emit(index)


def test_picking_a_competition_sets_metric_options_and_columns(qtbot):
    p = _panel(qtbot)
    with qtbot.waitSignal(p.changed) as sig:
        _pick(p, "h-and-m-personalized-fashion-recommendations")
    assert sig.args == ["reload"]
    o = p.options()
    assert (o.metric, o.k, o.id_column, o.target_column, o.extra_ids) == (
        "mapk", 12, "customer_id", "prediction", "ignore")
    _pick(p, "icr-identify-age-related-conditions")
    o = p.options()
    assert (o.metric, o.balanced, o.target_column) == ("logloss", True, "class_0,class_1")
    # another metric chosen by hand: the competition no longer applies
    p.metric_combo.setCurrentIndex(p.metric_combo.findData("auc"))
    assert p.competition.slug() is None


def test_a_competition_no_builtin_scores_is_refused_in_words(qtbot):
    p = _panel(qtbot)
    before = p.options()
    with qtbot.waitSignal(p.refused) as sig:
        _pick(p, "rossmann-store-sales")
    assert "rossmann-store-sales" in sig.args[0] and "metric file" in sig.args[0]
    assert p.options() == before and p.competition.slug() is None


def test_the_search_finds_a_word_of_the_title(qtbot):
    p = _panel(qtbot)
    done = p.competition.completer()
    done.setCompletionPrefix("blindness")
    found = [done.completionModel().index(i, 0).data() for i in range(done.completionCount())]
    assert found and all("blindness" in f.lower() for f in found)
    assert any(f.startswith("aptos2019-blindness-detection") for f in found)


def test_a_project_keeps_the_competition(tmp_path):
    demo = resources_dir() / "demo"
    truth = shutil.copy(demo / "qwk_solution.csv", tmp_path / "t.csv")
    sub = shutil.copy(demo / "qwk_submission.csv", tmp_path / "s.csv")
    refs = [file_ref(truth, "truth", tmp_path), file_ref(sub, "submission", tmp_path)]
    c = resolve("aptos2019-blindness-detection")
    options = Options(metric=c.metric, id_column=c.id_column, allow_continuous=True, **c.options)
    path = tmp_path / "p.kmetric"
    write_project(path, project_json(refs, options, [], {}, competition=c.slug))
    assert read_project(path).competition == c.slug
    write_project(path, project_json(refs, options, [], {}))
    assert read_project(path).competition is None
    d = json.loads(path.read_text())
    d["competition"] = "no-such-competition"
    path.write_text(json.dumps(d))
    with pytest.raises(ProjectError, match="competition"):
        read_project(path)
