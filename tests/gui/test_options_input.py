"""Options > Min/Max rating read with the one number grammar: a refused text is said
and the field shows the value in force again; options() never raises."""
import pytest

from kmetric_gui.analysis.scoring import Options


@pytest.mark.parametrize("typed", ["1,000", "+", "1e400", "2.5", "٣", "0x3"])
def test_refused_rating_reverts_to_the_value_in_force(window, typed):
    panel = window.options_panel
    panel.set_options(Options(min_rating=1, max_rating=4))
    window.session.set_options(panel.options())
    panel.min_rating.setText(typed)
    assert panel.options().min_rating == 1           # never raises; the value in force
    panel.min_rating.editingFinished.emit()
    assert panel.min_rating.text() == "1"
    assert "Min rating refused" in panel.refused_text and "it stays 1" in panel.refused_text
    assert "Min rating refused" in window.statusBar().currentMessage()
    assert window.session.options.min_rating == 1 and window.session.options.max_rating == 4


def test_accepted_ratings_in_the_grammar(window):
    panel = window.options_panel
    for typed, value in (("3", 3), (" +2 ", 2), ("-1", -1), ("1e1", 10), ("4.0", 4), ("", None)):
        panel.max_rating.setText(typed)
        panel.max_rating.editingFinished.emit()
        assert panel.options().max_rating == value, typed
    assert window.session.options.max_rating is None


def test_a_bad_saved_value_never_raises(window):
    """Options restored from a damaged settings file: the field is read as auto."""
    panel = window.options_panel
    panel.set_options({"min_rating": "abc", "max_rating": 4})   # as read from settings
    assert panel.options().min_rating is None and panel.options().max_rating == 4
