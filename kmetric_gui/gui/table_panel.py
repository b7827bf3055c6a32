"""The joined table (or a raw file that failed validation): filter, drill-down,
sort, edits. Rows are chosen on the worker; results of older data are dropped."""
import numpy as np
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (QHBoxLayout, QHeaderView, QLabel, QLineEdit, QPushButton,
                               QTableView, QVBoxLayout, QWidget)

from ..tables import ArrowRows, Column
from .models.table import ColumnsModel, SpareWidth, fit_columns, sorted_rows

USAGE_NAMES = ("Public", "Private", "Ignored")


def joined_columns(prep, metric):
    """Id, Usage and the metric's own columns (cheap: no per-row work here)."""
    cols = [Column(prep.id_column, ArrowRows(prep.id_array), tooltip="id (rows joined on it)",
                   sort_key=lambda _: _arrow_ranks(prep.id_array))]
    if prep.usage is not None:
        cols.append(Column("Usage", prep.usage, fmt=lambda c: USAGE_NAMES[int(c)],
                           meta={"short": True}))     # a few letters: never the spare width
    return cols + metric.table_columns(prep)


def _arrow_ranks(arr):
    """Rank of each string by Arrow's sort: no Python comparisons, GIL released."""
    import pyarrow.compute as pc
    order = pc.sort_indices(arr).to_numpy()
    ranks = np.empty(len(arr), dtype=np.int64)
    ranks[order] = np.arange(len(arr))
    return ranks


def id_contains(id_array, values, text):
    """Rows whose id contains ``text`` (any case): Arrow's kernel, not a Python loop."""
    if id_array is not None:
        import pyarrow.compute as pc
        hit = pc.match_substring(id_array, pattern=text, ignore_case=True)
        return np.asarray(pc.fill_null(hit, False).to_numpy(zero_copy_only=False), dtype=bool)
    return np.fromiter((text in str(v).lower() for v in values), bool, len(values))


class TablePanel(QWidget):
    rows_shown = Signal()

    def __init__(self, session, jobs, controller, parent=None):
        super().__init__(parent)
        self.session, self.jobs, self.controller = session, jobs, controller
        self.kind = None                     # "joined" or "raw:<role>"
        self._raw = {}
        self._base = None                    # the io.Prepared the columns were built for
        self._drill = self._sort = None
        self.model = ColumnsModel(self)
        self.model.on_sort = self._request_sort
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSortingEnabled(True)
        self.table.setTabKeyNavigation(False)        # Tab leaves the table
        vh = self.table.verticalHeader()
        vh.setSectionResizeMode(QHeaderView.Fixed)   # no per-row size queries
        vh.setDefaultSectionSize(22)
        hh = self.table.horizontalHeader()
        hh.setDefaultSectionSize(150)
        self.spare = SpareWidth(self.table)         # to a text column, not the last (a count)
        self._fitted = True                          # derived columns measured once scored
        hh.setSectionsMovable(True)
        self.table.setAlternatingRowColors(True)
        self.table.setSelectionBehavior(QTableView.SelectRows)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter rows by id (Ctrl+F)…")
        self.filter.setClearButtonEnabled(True)
        self.label = QLabel("")
        self.show_all = QPushButton("Show all rows")
        self.show_all.setVisible(False)
        top = QHBoxLayout()
        top.addWidget(self.filter, 1)
        top.addWidget(self.show_all)
        top.addWidget(self.label)
        self.banner = QLabel("")             # why the table takes no edits now
        self.banner.setObjectName("tableBanner")
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet("background:#fff4ce; color:#5c4400; padding:3px")
        self.banner.setVisible(False)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.banner)
        lay.addLayout(top)
        lay.addWidget(self.table)
        self.filter.textChanged.connect(lambda: QTimer.singleShot(0, self, self.refresh_rows))
        self.show_all.clicked.connect(self.clear_filters)
        self.model.edit_rejected.connect(lambda m: controller.message.emit(f"Edit refused — {m}", 0))
        from . import table_clipboard
        table_clipboard.install(self)        # Ctrl+C rows, Ctrl+V a block (one undo step)
        session.data_changed.connect(self._data_changed)
        session.results_changed.connect(self._results_changed)
        controller.raw_tables.connect(self._show_failed)
        session.compare_changed.connect(self._compare_changed)
        session.hold_changed.connect(self._held)

    def _held(self, reason):
        """Read-only while the data is about to be replaced, saying why."""
        self.model.read_only = bool(reason)
        self.banner.setText(f"Read-only: {reason}" if reason else "")
        self.banner.setVisible(bool(reason))

    # -- what the table shows ---------------------------------------------------------
    def _data_changed(self, version):
        if version is None:
            if self.kind == "joined":
                self._set_columns([], 0, None)
            return
        self.model.edit_handler = self.controller.edit
        if version.base is not self._base:           # new files (or a replaced field)
            self._base = version.base
            self._set_columns(joined_columns(version.base, self.session.metric), len(version),
                              "joined", version)
        else:
            self.model.set_data_source(version)
            if self._drill is not None or self._sort is not None:
                self.refresh_rows()                  # a drill-down list follows edits

    def mark_unscored(self):
        """The data shown could not be scored: its score columns go blank until it is."""
        self.model.unscored = True
        for c, col in enumerate(self.model.columns):
            if col.derived is not None:
                self.model.refresh_column(c)

    def _results_changed(self, results):
        if results is None or self.kind != "joined":
            return
        self.model.unscored = False
        derived = [c for c, col in enumerate(self.model.columns) if col.derived is not None]
        for c in derived:
            self.model.set_derived(c, np.asarray(self.model.columns[c].derived(results.report)))
        if not self._fitted:                # the scores were blank when the columns came
            self._fitted = True
            fit_columns(self.table, derived)
            self.spare.apply()

    def _fit_columns(self):
        """Numbers as wide as their first rows (a few characters); the spare width to the
        widest text column. Reads FIT_ROWS rows, never all of them."""
        cols = self.model.columns
        self._fitted = not any(c.derived is not None for c in cols)
        if not cols:
            return
        t, room = self.table, self.table.viewport().width()
        room = room if room > 200 else 1000          # not laid out yet
        if not t.verticalScrollBar().isVisible():    # it comes with the rows, after this
            room -= t.verticalScrollBar().sizeHint().width()
        fit_columns(t, cap=max(160, room // 2))
        text = [c for c, col in enumerate(cols) if not col.align_right and not col.meta.get("short")]
        widths = [t.columnWidth(c) for c in text]
        # Long texts share what the numbers leave (elided, widened by hand), so that the
        # counts beside them are on screen; when the numbers overflow anyway (many classes)
        # the texts only stay under a quarter of the width.
        budget = room - sum(t.columnWidth(c) for c in range(len(cols)) if c not in text)
        if text and sum(widths) > budget:
            f = budget / sum(widths)
            fits = budget >= 80 * len(text)
            widths = [max(80, int(w * f)) if fits else min(w, max(160, room // 4)) for w in widths]
            for c, w in zip(text, widths):
                t.setColumnWidth(c, w)
        self.spare.give_to(text[len(widths) - 1 - widths[::-1].index(max(widths))] if text else -1)

    def _compare_changed(self, res):
        """The other submissions' predictions beside the shown ones (one-column layouts)."""
        if self.kind != "joined":
            return
        extra = []
        cmp = res.comparison if res is not None else None
        for sub in (cmp.submissions[1:] if cmp is not None else []):
            prep = sub.report.prepared
            if len(prep) != self.model.n_source:
                continue
            preds = [c for c in sub.report.definition.table_columns(prep)
                     if c.spec is not None and c.spec.name == "pred"]
            if len(preds) == 1:
                c = preds[0]
                # Headed by the file alone: "prediction (class) — submission_b.csv"
                # took 344 px and pushed itself past the right edge at 1280x720.
                # c.values, not prep.pred: a metric file's predictions are a 2-D block.
                extra.append(Column(sub.name, c.values, fmt=c.fmt,
                                    align_right=c.align_right, sort_key=c.sort_key,
                                    tooltip=f"{c.name} of {sub.name} (compared, read-only)"))
        if self._sort is not None and (self._sort[0] >= len(self.model.columns) or
                                       self.model.columns[self._sort[0]].meta.get("extra")):
            # The rows stay in that order; later refreshes no longer sort by a column gone.
            self._sort = None
            self.table.horizontalHeader().setSortIndicator(-1, Qt.AscendingOrder)
        self.model.set_extra_columns(extra)
        if extra:       # all refitted in the room there is: it came past the right edge
            self.spare.give_to(-1)
            self._fit_columns()

    def _show_failed(self, raw):
        self._raw, self._base = dict(raw), None
        role = "submission" if "submission" in raw else next(iter(raw), None)
        if role:
            self.show_raw(role)
        else:
            self._set_columns([], 0, None)

    def show_raw(self, role):
        cols, n = self._raw[role]
        self.model.edit_handler = None               # a file that failed is not edited
        self._set_columns(cols, n, f"raw:{role}")

    def _set_columns(self, cols, n, kind, version=None):
        self.kind = kind
        self.spare.give_to(-1)
        self.model.set_columns(cols, n, version)
        self._fitted = False
        self._fit_columns()
        self.filter.blockSignals(True)
        self.filter.clear()
        self.filter.blockSignals(False)
        self._drill = self._sort = None
        self.show_all.setVisible(False)
        # The model shows every row already: the indicator is reset without asking for
        # rows again (a job, and a second reset of a 10,000-row model, in the turn that
        # shows newly scored files); a rows job still running is for the columns before.
        self.jobs.cancel("rows")
        on_sort, self.model.on_sort = self.model.on_sort, None
        self.table.horizontalHeader().setSortIndicator(-1, Qt.AscendingOrder)
        self.model.on_sort = on_sort
        self.table.scrollToTop()
        self._update_label()

    def _update_label(self):
        what = "" if self.kind in (None, "joined") else f" of the {self.kind[4:]} file"
        self.label.setText(f"{self.model.rowCount():,} of {self.model.n_source:,} rows{what}")

    # -- rows: filter, drill-down, sort on the worker -----------------------------------
    def _request_sort(self, column, order):
        ok = 0 <= column < len(self.model.columns)
        self._sort = (column, order == Qt.DescendingOrder) if ok else None
        self.refresh_rows()

    def filter_rows(self, mask_fn, label):
        """Show only rows where mask_fn(prepared, source_rows) is True (drill-down)."""
        self._drill = (mask_fn, label)
        self.show_all.setVisible(True)
        self.show_all.setText(f"Show all rows ({label})")
        self.refresh_rows()

    def clear_filters(self):
        self._drill = None
        self.show_all.setVisible(False)
        self.filter.clear()
        self.refresh_rows()

    def refresh_rows(self):
        model = self.model
        if not model.columns:
            return
        text = self.filter.text().strip().lower()
        cols, n, drill, sort = list(model.columns), model.n_source, self._drill, self._sort
        snap = self.session.snapshot()
        joined = self.kind == "joined"

        def job(progress, cancel):
            prep = snap.data.prepared() if joined and snap.data is not None else None
            keep = np.ones(n, dtype=bool)
            if drill is not None and prep is not None:
                keep &= drill[0](prep, np.arange(n))
            if text:
                keep &= id_contains(snap.data.base.id_array if prep is not None else None,
                                    cols[0].values, text)
            rows = np.flatnonzero(keep)
            if sort is not None and sort[0] < len(cols):
                c = cols[sort[0]]
                values = getattr(prep, c.spec.name) if c.spec is not None and prep is not None \
                    else c.values
                if c.spec is not None and c.spec.part is not None:
                    values = values[:, c.spec.part]
                rows = sorted_rows(values, rows, sort[1], c.sort_key, c.fmt)
            return rows

        def done(rows):
            model.set_rows(rows)
            self._update_label()
            self.rows_shown.emit()
        self.jobs.submit("rows", job, done, generation=snap.generation, lane="table")

    def select_source_row(self, row, role=None):
        if role is not None and role in self._raw and self.kind != f"raw:{role}":
            self.show_raw(role)
        r = self.model.view_row(row)
        if r >= 0:
            self.table.selectRow(r)
            self.table.scrollTo(self.model.index(r, 0), QTableView.PositionAtCenter)
        return r
