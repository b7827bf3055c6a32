"""The report of a comparison (issue 24): every compared submission in the HTML and PDF,
and no number broken across lines in the PDF's tables."""
import re
from pathlib import Path

import pytest

from kmetric_gui.analysis.comparison import CompareOptions, _names, compare_reports
from kmetric_gui.report import build_report, render_html, score_entry
from kmetric_gui.analysis.scoring import score_files

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"


@pytest.fixture(scope="module")
def data():
    truth = DEMO / "qwk_solution.csv"
    subs = [str(DEMO / "qwk_submission.csv"), str(DEMO / "qwk_submission_b.csv")]
    reps = [score_files(truth, s) for s in subs]
    cmp = compare_reports(_names(subs), subs, reps,
                          CompareOptions(replicates=100, permutations=100, splits=100))
    # as the app makes it: one entry (the shown submission) and its comparison
    return build_report(truth, [score_entry(subs[0], reps[0])], comparison=cmp), reps


def _text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html).replace("\u200b", ""))


@pytest.mark.parametrize("pdf", [False, True])
def test_every_compared_submission_is_listed(data, pdf):
    d, reps = data
    text = _text(render_html(d, pdf=pdf))
    assert "Compared submissions" in text
    assert "qwk_submission_b.csv" in text
    second = reps[1].score
    assert (f"{second:.4g}" if pdf else f"{second:.6g}") in text


def test_pdf_tables_keep_numbers_whole(qapp, data):
    from PySide6.QtCore import QMarginsF, QSizeF
    from PySide6.QtGui import QFont, QPageLayout, QPageSize, QTextDocument
    d, _ = data
    doc = QTextDocument()                  # as gui.report_render.write_pdf lays it out
    doc.setDefaultFont(QFont("DejaVu Sans", 9))
    page = QPageLayout(QPageSize(QPageSize.A4), QPageLayout.Portrait,
                       QMarginsF(15, 15, 15, 15), QPageLayout.Millimeter)
    doc.setPageSize(QSizeF(page.paintRectPoints().size()))
    doc.setHtml(render_html(d, pdf=True))
    doc.documentLayout().documentSize()
    numbers, broken = 0, []
    block = doc.begin()
    while block.isValid():
        t = block.text().strip()
        if re.fullmatch(r"-?[\d.,]+(e[-+]\d+)?", t):
            numbers += 1
            if block.layout().lineCount() > 1:
                broken.append(t)
        block = block.next()
    assert numbers > 50 and broken == []
