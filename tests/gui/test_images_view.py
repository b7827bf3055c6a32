"""The Images view of the mask and box metrics: worst first, the selected image drawn with
its hits and misses over the image file when a folder is given, else a blank canvas."""
import numpy as np
import pytest

from kmetric_gui.analysis.scoring import Options, score_files
from kmetric_gui.metrics import get_metric
from kmetric_gui.metrics.image_pictures import FN, FP, TP, picture


def _report(name):
    sol, sub = get_metric(name).demo_paths()
    return score_files(sol, sub, Options(metric=name))


def test_mask_picture_colours_are_the_pixel_counts():
    rep = _report("dice")
    for k in range(rep.result.n):
        over = picture(rep, k).overlay
        counts = [int(np.all(over == np.array(c, np.uint8), axis=2).sum()) for c in (TP, FP, FN)]
        inter, t, p = rep.result.counts[k]
        assert counts == [inter, p - inter, t - inter]


@pytest.mark.parametrize("name", ["dice", "iou_precision", "map_iou", "point_f1"])
def test_the_view_lists_worst_first_and_draws_the_selected_image(qtbot, tmp_path, name):
    from PySide6.QtGui import QImage
    from kmetric_gui.gui.views.images_view import ImagesView
    rep = _report(name)
    view = ImagesView()
    qtbot.addWidget(view)
    view.resize(1000, 700)
    view.show()
    view.set_report(rep)
    m = view.model
    assert m.rowCount() == rep.result.n
    shown = [rep.result.values[int(k)] for k in m.order]
    assert shown[0] == np.nanmin(rep.result.values)
    # blank canvas of the image's size
    pic = picture(rep, view.current)
    assert view.bg.image.shape[:2] == pic.size
    # a folder holding the image: drawn under the overlay
    image_id = str(rep.prepared.ids[view.current])
    h, w = 30, 20
    img = QImage(w, h, QImage.Format_RGB888)
    img.fill(0x336699)
    assert img.save(str(tmp_path / f"{image_id}.png"))
    view.folder.setText(str(tmp_path))
    view._redraw()
    assert view.bg.image.shape == (h, w, 3)
    assert tuple(view.bg.image[0, 0]) == (0x33, 0x66, 0x99)
    # selecting another row draws that image and asks for its rows
    with qtbot.waitSignal(view.rows_requested, timeout=2000):
        view.table.selectRow(3)
    assert view.current == int(m.order[3])


@pytest.mark.parametrize("name", ["dice", "map_iou"])
def test_the_precision_recall_plot_is_made_for_boxes_only(qtbot, name):
    """Masks have no precision-recall curve: no plot is built for them (it cost 50-100 ms of
    the UI thread when a mask pair opened); boxes get one curve per class with truth."""
    from kmetric_gui.gui.views.images_view import ImagesView
    rep = _report(name)
    view = ImagesView()
    qtbot.addWidget(view)
    view.set_report(rep)
    det = rep.result.detail
    if not (hasattr(det, "hit") and det.hit.size):
        assert view.pr is None
        return
    curves = view.pr.getPlotItem().listDataItems()
    assert len(curves) == int((det.gt.sum(axis=0)[:10] > 0).sum()) > 0
    # made after the view was styled, it still takes the palette's colours (it was black
    # on the light theme)
    from kmetric_gui.gui.widgets.theme import colors
    assert view.pr.backgroundBrush().color() == colors(view.pr.palette())["background"]
