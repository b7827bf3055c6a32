"""A number option shows the value in force exactly: log loss's eps of 1e-15 showed as
0.00 in a two-decimal spin box and went back as 0 once touched."""
from kmetric_gui.gui.widgets.options_panel import OptionsPanel
from kmetric_gui.analysis.scoring import Options


def test_a_tiny_default_is_shown_and_kept(qtbot):
    p = OptionsPanel()
    qtbot.addWidget(p)
    w = p.option_widgets["eps"]
    assert w.text() in ("1e-15", "1e-15".upper()), w.text()
    w.editingFinished.emit()                   # focus in and out, nothing typed
    assert p.options().eps == 1e-15
    w.setText("1e-7")
    w.editingFinished.emit()
    assert p.options().eps == 1e-7
    p.set_options(Options(eps=2e-12))
    assert float(w.text()) == 2e-12
