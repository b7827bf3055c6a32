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


def test_each_metric_group_shows_all_its_options_shared_ones_too(qtbot):
    """An option two metrics share has a widget in each metric's group (all showing the
    one value); with one metric in use, every option it declares is visible. (The shared
    widget sat in the first metric's group only, hidden when another metric was in use.)"""
    from kmetric_gui import metrics
    p = OptionsPanel()
    qtbot.addWidget(p)
    p.show()
    owners = {}
    for m in metrics.REGISTRY.values():
        for o in m.options:
            owners.setdefault(o.name, []).append(m.name)
    shared = [n for n, ms in owners.items() if len(ms) > 1]
    for m in metrics.REGISTRY.values():
        if not m.options:
            continue
        p.show_metric(m.name)
        box = p.metric_boxes[m.name]
        for o in m.options:
            seen = [w for w in p._copies[o.name] if box.isAncestorOf(w) and w.isVisibleTo(p)]
            assert len(seen) == 1, (m.name, o.name)
    if shared:                          # one value, every copy shows it
        name = shared[0]
        spec = p.option_specs[name]
        other = next((c for c in spec.choices if c != spec.default), None) if spec.choices \
            else (not spec.default if spec.type is bool else None)
        if other is not None:
            p.set_option(name, other)
            assert p.options().__getattr__(name) == other
