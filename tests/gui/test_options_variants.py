"""The variants (options several metrics declare) in the options panel: in the group of
each metric declaring them, a column option read with the files again, the reading
settings kept in the options the panel gives back."""
from kmetric_gui.analysis.scoring import Options
from kmetric_gui.gui.widgets.options_panel import OptionsPanel


def _panel(qtbot):
    p = OptionsPanel()
    qtbot.addWidget(p)
    p.show()
    return p


def test_variant_rows_follow_the_metric_in_use(qtbot):
    p = _panel(qtbot)

    def shown(metric, name):
        box = p.metric_boxes[metric]
        return box.isVisible() and any(w.isVisibleTo(box) and box.isAncestorOf(w)
                                       for w in p._copies[name])
    p.show_metric("rmse")
    assert shown("rmse", "weights_column") and shown("rmse", "round")
    p.show_metric("accuracy")                   # labels: no rounding
    assert shown("accuracy", "weights_column") and not shown("accuracy", "round")
    assert not shown("rmse", "weights_column")
    p.show_metric("qwk")                        # kappa declares no variant
    assert not any(w.isVisible() for w in p._copies["weights_column"])


def test_a_column_option_reads_the_files_again_a_rounding_rescores(qtbot):
    p = _panel(qtbot)
    p.set_options(Options(metric="rmse"))
    got = []
    p.changed.connect(got.append)
    p.option_widgets["weights_column"].setText("w")
    p.option_widgets["weights_column"].editingFinished.emit()
    p.option_widgets["round"].setText("2")
    p.option_widgets["round"].editingFinished.emit()
    assert got == ["reload", "rescore"]
    o = p.options()
    assert (o.weights_column, o.round) == ("w", 2)


def test_reading_settings_round_trip_through_the_panel(qtbot):
    p = _panel(qtbot)
    o = Options(metric="mapk", extra_ids="ignore", usage_map="Holdout=private",
                unscored_value=-1.0)
    p.set_options(o)
    assert p.options() == o.with_(allow_continuous=True)
    got = []
    p.changed.connect(got.append)
    w = p.reading_widgets["usage_map"]
    w.setText("Holdout=nowhere")                # refused in words, the value in force stays
    w.editingFinished.emit()
    assert got == [] and "Usage map refused" in p.refused_text
    assert p.options().usage_map == "Holdout=private"
