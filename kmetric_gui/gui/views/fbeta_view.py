"""The anatomy of Jaccard-matched F-beta: documents, Jaccard and match matrices.

Counts come from the core's FbetaResult; one document's matrices from
core.document_matrices (same code path as the score).
"""
from html import escape

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QGridLayout, QFrame, QGroupBox,
                               QHBoxLayout, QHeaderView, QLabel, QScrollArea, QSizePolicy,
                               QSlider, QSplitter, QTableView, QVBoxLayout, QWidget)

from ...metrics.kernels import document_matrices, shared_tokens
from ..models.table import Column, ColumnsModel, fit_columns
from ..widgets.export import ExportButton, columns_csv
from ..widgets.heatmap import Heatmap
from ..widgets.reflow import ReflowGrid

EXPLAIN = (
    "<b>Matching.</b> A ground truth is matched when its best Jaccard (word sets, "
    "lower-cased) with a prediction reaches the threshold. Predictions are sorted, so "
    "among equal Jaccard the alphabetically first wins. <i>one-to-one</i>: ground truths "
    "in sorted order each take the best <i>remaining</i> prediction, which is then used up. "
    "<i>many-to-one</i>: each ground truth takes its best prediction, even one already "
    "taken. Seed 002's example (5 ground truths; predictions 'postsecondary student', "
    "'education longitudinal study', 'xyz') scores 0.714286 many-to-one (TP 3, FP 1, FN 2) "
    "and 0.588235 one-to-one (TP 2, FP 1, FN 3).")

PAIR_HINT = "Click a Jaccard cell to see the shared words."


class FbetaView(QWidget):
    option_changed = Signal(str, object)     # name, value (threshold, beta, matching, clean)

    def __init__(self, context=None, parent=None):
        super().__init__(parent)
        self.jobs = context.jobs if context else None
        self.session = context.session if context else None
        self.report = self.prep = self.result = None
        self.doc = self._order = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        self.export = ExportButton()
        head = QHBoxLayout()
        head.addWidget(self.summary, 1)
        head.addWidget(self.export)
        lay.addLayout(head)

        controls = QGroupBox("Scoring")
        form = QGridLayout(controls)          # two rows: short screens keep the maps
        self.threshold = QSlider(Qt.Horizontal, minimum=0, maximum=100, value=50)
        self.beta = QSlider(Qt.Horizontal, minimum=5, maximum=400, value=50)
        self.threshold_label, self.beta_label = QLabel("0.50"), QLabel("0.50")
        row_t, row_b = QHBoxLayout(), QHBoxLayout()
        row_t.addWidget(self.threshold, 1)
        row_t.addWidget(self.threshold_label)
        row_b.addWidget(self.beta, 1)
        row_b.addWidget(self.beta_label)
        self.matching = QComboBox()
        self.matching.addItems(["one-to-one", "many-to-one"])
        self.clean = QCheckBox("clean text")
        form.setContentsMargins(6, 2, 6, 2)
        form.addWidget(QLabel("Jaccard threshold"), 0, 0)
        form.addLayout(row_t, 0, 1)
        form.addWidget(QLabel("β"), 0, 2)
        form.addLayout(row_b, 0, 3)
        form.addWidget(QLabel("Matching"), 1, 0)
        form.addWidget(self.matching, 1, 1)
        form.addWidget(self.clean, 1, 3)
        explain = QLabel(EXPLAIN)
        explain.setWordWrap(True)
        explain.setObjectName("reason")
        explain_box = QScrollArea()           # scrolls on short screens instead of pushing
        explain_box.setWidgetResizable(True)
        explain_box.setFrameShape(QFrame.NoFrame)
        explain_box.setWidget(explain)
        explain_box.setMinimumHeight(40)
        # As tall as the two rows of controls, not its text's height (a scroll area asks
        # up to 24 lines): at 1280x720 that height went from the Jaccard map (~50 px left).
        explain_box.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Ignored)
        controls.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Maximum)
        top = QHBoxLayout()
        top.addWidget(controls, 2)
        top.addWidget(explain_box, 3)
        lay.addLayout(top)

        split = QSplitter(Qt.Horizontal)
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        filters = QHBoxLayout()
        self.has_fp = QCheckBox("has FP")
        self.has_fn = QCheckBox("has FN")
        self.empty_pred = QCheckBox("empty prediction")
        for w in (self.has_fp, self.has_fn, self.empty_pred):
            filters.addWidget(w)
            w.toggled.connect(self._filter_docs)
        filters.addStretch(1)
        self.docs_label = QLabel("")
        ll.addLayout(filters)
        ll.addWidget(self.docs_label)
        self.docs_model = ColumnsModel(self)
        self.docs = QTableView()
        self.docs.setModel(self.docs_model)
        self.docs.setSelectionBehavior(QTableView.SelectRows)
        self.docs.setSelectionMode(QTableView.SingleSelection)
        self.docs.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
        self.docs.verticalHeader().setDefaultSectionSize(20)
        ll.addWidget(self.docs)
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        self.doc_title = QLabel("Pick a document")
        self.doc_title.setWordWrap(True)
        maps = ReflowGrid(layouts=((2, 380),), row_height=150)   # side by side, or tabs
        self.jac_map = Heatmap("Jaccard", totals=False,
                               row_axis="ground truth", col_axis="prediction")
        self.match_map = Heatmap("Matches", totals=False, row_axis="ground truth",
                                 col_axis="prediction")
        maps.add(self.jac_map, "Jaccard")
        maps.add(self.match_map, "Matches")
        self.strings = QLabel("")
        self.strings.setWordWrap(True)
        self.strings.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.pair = QLabel(PAIR_HINT)
        self.pair_cell = None                 # (document, t, p) the pair line describes
        self.pair.setWordWrap(True)
        # The strings scroll in a short box of their own: on a short screen
        # wrapped text would otherwise be laid over the maps.
        text = QWidget()
        tl = QVBoxLayout(text)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addWidget(self.strings)
        tl.addWidget(self.pair)
        tl.addStretch(1)
        text_box = QScrollArea()
        text_box.setWidgetResizable(True)
        text_box.setFrameShape(QFrame.NoFrame)
        text_box.setWidget(text)
        text_box.setMinimumHeight(44)
        text_box.setMaximumHeight(80)
        maps.setMinimumHeight(150)          # a few rows of a map with their values drawn
        rl.addWidget(self.doc_title)
        rl.addWidget(maps, 1)
        rl.addWidget(text_box)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([380, 620])
        lay.addWidget(split, 1)

        (self.export.add_table("documents table", lambda: columns_csv(self.docs_model))
         .add_plot("Jaccard matrix", self.jac_map).add_table("Jaccard matrix", self.jac_map.to_csv)
         .add_plot("match matrix", self.match_map).add_table("match matrix", self.match_map.to_csv))
        self.threshold.valueChanged.connect(self._threshold_moved)
        self.beta.valueChanged.connect(self._beta_moved)
        self.threshold.sliderReleased.connect(
            lambda: self.option_changed.emit("threshold", self.threshold.value() / 100))
        self.beta.sliderReleased.connect(
            lambda: self.option_changed.emit("beta", self.beta.value() / 100))
        self.matching.currentTextChanged.connect(lambda m: self.option_changed.emit("matching", m))
        self.clean.toggled.connect(lambda c: self.option_changed.emit("clean", c))
        self.docs.selectionModel().currentRowChanged.connect(
            lambda cur, _: cur.isValid() and self.show_document(int(self.docs_model.rows[cur.row()])))
        self.jac_map.cell_clicked.connect(self._pair_clicked)

    # -- controls ---------------------------------------------------------------------
    def _threshold_moved(self, v):
        self.threshold_label.setText(f"{v / 100:.2f}")
        if not self.threshold.isSliderDown():          # keyboard / programmatic change
            self.option_changed.emit("threshold", v / 100)

    def _beta_moved(self, v):
        self.beta_label.setText(f"{v / 100:.2f}")
        if not self.beta.isSliderDown():
            self.option_changed.emit("beta", v / 100)

    def _sync_controls(self, r, clean):
        for w in (self.threshold, self.beta, self.matching, self.clean):
            w.blockSignals(True)
        self.threshold.setValue(int(round(r.threshold * 100)))
        self.beta.setValue(int(round(r.beta * 100)))
        self.threshold_label.setText(f"{r.threshold:.2f}")
        self.beta_label.setText(f"{r.beta:.2f}")
        self.matching.setCurrentText(r.matching)
        self.clean.setChecked(clean)
        for w in (self.threshold, self.beta, self.matching, self.clean):
            w.blockSignals(False)

    # -- inputs ---------------------------------------------------------------------------
    def set_report(self, report, new_data=False):
        self.report, self.prep, self.result = report, report.prepared, report.result
        if new_data:
            self.doc = None                      # a document of the previous files
        self._order = None
        r = self.result
        self._sync_controls(r, report.options.clean)
        score = "undefined" if r.undefined_reason else f"{r.score:.6f}"
        self.summary.setText(
            f"F<sub>{r.beta:g}</sub> <b>{score}</b> — precision {r.precision:.4f}, recall "
            f"{r.recall:.4f}; TP {r.tp:,}, FP {r.fp:,}, FN {r.fn:,} pooled over "
            f"{len(self.prep.ids):,} documents (threshold {r.threshold:g}, {escape(str(r.matching))}).")
        ids, prep, per = self.prep.ids, self.prep, r.per_document

        def job(progress, cancel):
            # O(documents) work: on the worker, like every other table. After an
            # incremental rescore the edited predictions are made here, not on the UI thread.
            pred = prep.pred
            errors = per[:, 1] + per[:, 2]
            # Counted from the file's column (plus the edited documents): no Python
            # list per document, which the UI thread would later have to free.
            n_pred = pred.counts() if hasattr(pred, "counts") else \
                np.fromiter(map(len, pred), dtype=np.int64, count=len(pred))
            cols = [Column("Id", ids), Column("TP", per[:, 0], align_right=True),
                    Column("FP", per[:, 1], align_right=True),
                    Column("FN", per[:, 2], align_right=True),
                    Column("errors", errors, align_right=True),
                    Column("predictions", n_pred, align_right=True)]
            return r, cols, np.argsort(-errors, kind="stable")      # most errors first
        if self.jobs is not None:
            gen = self.session.generation if self.session is not None else None
            self.jobs.submit("fbeta-docs", job, self._docs_ready, generation=gen)
        else:
            self._docs_ready(job(None, None))

    def set_gains(self, gains):
        """Per-document gain if its FPs, its FNs, or both were removed (exact)."""
        self.doc_gains = gains
        self._add_gain_columns()

    def _add_gain_columns(self):
        g = getattr(self, "doc_gains", None)
        m = self.docs_model
        if g is None or not m.columns or len(g.both) != m.n_source:
            return
        cols = [c for c in m.columns if not c.name.startswith("gain")]
        for name, values in (("gain: no FP", g.fp_removed), ("gain: no FN", g.fn_removed),
                             ("gain: both", g.both)):
            cols.append(Column(name, values, fmt=lambda v: f"{v:+.4f}", align_right=True,
                               tooltip="exact score change if this document were fixed so"))
        rows = m.rows
        m.set_columns(cols, m.n_source)
        m.set_rows(rows)

    def _docs_ready(self, result):
        r, cols, order = result
        if r is not self.result:          # a newer score has arrived since
            return
        keep = self.doc
        self.docs_model.set_columns(cols, len(order))
        fit_columns(self.docs)          # right-aligned counts were cut off at 100 px
        self.docs.setColumnWidth(0, min(self.docs.columnWidth(0), 140))   # long ids elide
        self._order = order
        self._add_gain_columns()
        self._filter_docs()
        if keep is not None and keep < len(order):
            self.select_document(keep)
        elif len(order):
            self.docs.selectRow(0)

    def _filter_docs(self):
        if self.result is None or self._order is None:
            return
        per = self.result.per_document
        keep = np.ones(len(per), dtype=bool)
        if self.has_fp.isChecked():
            keep &= per[:, 1] > 0
        if self.has_fn.isChecked():
            keep &= per[:, 2] > 0
        if self.empty_pred.isChecked():
            keep &= self.docs_model.columns[5].values == 0
        rows = self._order[keep[self._order]]
        self.docs_model.set_rows(rows)
        self.docs_label.setText(f"{len(rows):,} of {len(per):,} documents")

    def select_document(self, i):
        r = self.docs_model.view_row(i)
        if r >= 0:
            self.docs.selectRow(r)
        self.show_document(i)

    def show_document(self, i):
        prep, r = self.prep, self.result
        if prep is None or not 0 <= i < len(prep.ids):
            return          # a row of the previous table, before the new one arrives
        opts = self.report.options
        d = document_matrices(prep.truth[i], prep.pred[i], threshold=r.threshold,
                              matching=r.matching, clean=opts.clean)
        self.doc, self.doc_match = i, d
        self.doc_title.setText(f"<b>{escape(str(prep.ids[i]))}</b>: TP {d.tp}, FP {d.fp}, FN {d.fn} "
                               f"(cells at or above the threshold {r.threshold:g} are outlined)")
        rows = [f"t{k + 1}" for k in range(len(d.truths))]
        cols = [f"p{k + 1}" for k in range(len(d.predictions))]
        if d.jaccard.size:
            self.jac_map.set_matrix(d.jaccard, rows, col_labels=cols,
                                    outline=d.jaccard >= r.threshold, levels=(0.0, 1.0))
            self.match_map.set_matrix(d.match.astype(float), rows, col_labels=cols,
                                      integer=True, levels=(0.0, 1.0))
        else:
            self.jac_map.set_matrix(np.zeros((0, 0)))
            self.match_map.set_matrix(np.zeros((0, 0)))
        self.strings.setText(
            "<b>Ground truths</b>: " + ("; ".join(f"t{k + 1} = {escape(str(s))}"
                                                  for k, s in enumerate(d.truths)) or "none") +
            "<br><b>Predictions</b> (sorted): " +
            ("; ".join(f"p{k + 1} = {escape(str(s))}" for k, s in enumerate(d.predictions)) or "none"))
        # The pair line is redone from these matrices (same cell, same document) or cleared:
        # after an edit or a new option the old words no longer belong to the cell shown.
        cell, self.pair_cell = self.pair_cell, None
        self.pair.setText(PAIR_HINT)
        if cell is not None and cell[0] == i and cell[1] < d.jaccard.shape[0] \
                and cell[2] < d.jaccard.shape[1]:
            self._pair_clicked(cell[1], cell[2])

    def _pair_clicked(self, i, j):
        d = self.doc_match
        if d is None or not (0 <= i < d.jaccard.shape[0] and 0 <= j < d.jaccard.shape[1]):
            return
        self.pair_cell = (self.doc, i, j)
        words = shared_tokens(d.truths[i], d.predictions[j], clean=self.report.options.clean)
        self.pair.setText(f"t{i + 1} × p{j + 1}: Jaccard {d.jaccard[i, j]:.4f}; shared words: "
                          f"{', '.join(words) or 'none'}"
                          f"{' — matched' if d.match[i, j] else ''}")
