"""The options panel is made from the metrics' declared options and shows what is in
force: after a cleared or refused entry, after Cancel; the wheel changes nothing unfocused."""
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QComboBox, QLineEdit

from kmetric_gui import metrics
from kmetric_gui.gui.widgets.options_panel import OptionsPanel
from kmetric_gui.metrics.base import Metric
from kmetric_gui.metrics.schema import Option
from kmetric_gui.analysis.scoring import Options


def _panel(qtbot):
    p = OptionsPanel()
    qtbot.addWidget(p)
    p.show()
    return p


def test_every_declared_option_has_a_widget(qtbot):
    p = _panel(qtbot)
    for m in metrics.REGISTRY.values():
        for o in m.options:
            assert o.name in p.option_widgets
            assert getattr(p.options(), o.name) == o.default
    assert [p.metric_combo.itemData(i) for i in range(p.metric_combo.count())] == \
        [None, *metrics.REGISTRY]


def test_a_registered_metric_gets_its_options(qtbot):
    class Toy(Metric):
        name, label = "toyopts", "Toy"
        options = (Option("toy_k", int, 5, help="how many", minimum=1),
                   Option("toy_mode", str, "a", ("a", "b")))
    metrics.register(Toy())
    try:
        p = _panel(qtbot)
        assert isinstance(p.option_widgets["toy_k"], QLineEdit)
        assert isinstance(p.option_widgets["toy_mode"], QComboBox)
        p.set_option("toy_mode", "b")
        assert p.options().toy_mode == "b"
        p.option_widgets["toy_k"].setText("0")          # below the declared minimum: refused
        p.option_widgets["toy_k"].editingFinished.emit()
        assert p.options().toy_k == 5 and p.option_widgets["toy_k"].text() == "5"
        assert "at least 1" in p.option_widgets["toy_k"].toolTip()
    finally:
        metrics.unregister("toyopts")


def test_clearing_min_rating_and_enter_goes_back_to_auto(qtbot):
    p = _panel(qtbot)
    p.set_options(Options(min_rating=1, max_rating=4))
    seen = []
    p.changed.connect(seen.append)
    p.min_rating.setFocus()
    p.min_rating.clear()
    qtbot.keyClick(p.min_rating, Qt.Key_Return)
    assert p.options().min_rating is None and seen == ["rescore"]
    assert p.options().max_rating == 4


def test_bad_number_goes_back_to_the_value_in_force(qtbot):
    p = _panel(qtbot)
    p.set_options(Options(min_rating=2))
    p.min_rating.setText("0x3")                         # not in the one number grammar
    p.min_rating.editingFinished.emit()
    assert p.min_rating.text() == "2" and p.options().min_rating == 2
    p.min_rating.setText(" +3 ")
    p.min_rating.editingFinished.emit()
    assert p.min_rating.text() == "3" and p.options().min_rating == 3


def _wheel(widget):
    pos = QPointF(widget.rect().center())
    ev = QWheelEvent(pos, QPointF(widget.mapToGlobal(pos.toPoint())), QPoint(0, 0),
                     QPoint(0, -120), Qt.NoButton, Qt.NoModifier, Qt.NoScrollPhase, False)
    QApplication.sendEvent(widget, ev)


def test_wheel_changes_nothing_without_focus(qtbot):
    p = _panel(qtbot)
    p.id_column.setFocus()
    before = (p.weights.currentData(), p.replicates.value(), p.ci_level.value())
    for w in (p.weights, p.replicates, p.ci_level):
        _wheel(w)
    assert (p.weights.currentData(), p.replicates.value(), p.ci_level.value()) == before
    p.weights.setFocus()
    qtbot.waitUntil(p.weights.hasFocus, timeout=2000)
    _wheel(p.weights)
    assert p.weights.currentData() != before[0]


def test_cancel_after_changing_the_metric_shows_the_one_in_force(window, monkeypatch):
    p = window.options_panel
    in_force = window.session.options
    monkeypatch.setattr(window, "request_discard", lambda then: False)    # the user cancels
    p.metric_combo.setCurrentIndex(p.metric_combo.findData("lwlrap"))
    assert p.metric_combo.currentData() == in_force.metric
    p.id_column.setText("other")
    p.id_column.editingFinished.emit()
    assert p.id_column.text() == (in_force.id_column or "")
    assert window.session.options == in_force


def test_a_metrics_own_option_is_kept_for_the_next_session(qtbot, tmp_path, monkeypatch):
    class Toy(Metric):
        name, label = "toykeep", "Toy"
        options = (Option("toy_keep", int, 5, minimum=1),)
    metrics.register(Toy())
    monkeypatch.setenv("KMETRIC_SETTINGS", str(tmp_path / "settings.ini"))
    from kmetric_gui.gui.main_window import MainWindow
    try:
        wins = []
        for _ in range(2):
            w = MainWindow()
            qtbot.addWidget(w)
            wins.append(w)
            if len(wins) == 1:
                w.options_panel.set_option("toy_keep", 9)
                w.options_panel.set_option("weights", "linear")
                w._save_settings()
        o = wins[1].options_panel.options()
        assert (o.toy_keep, o.weights) == (9, "linear")
        assert wins[1].session.options.toy_keep == 9
    finally:
        for w in wins:
            w._discarding = True
            w.jobs.shutdown()
        metrics.unregister("toykeep")
