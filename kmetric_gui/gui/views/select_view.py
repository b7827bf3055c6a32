"""Final submissions: which to submit (kmetric select) and where one lands (kmetric rank).

A dialog: the truth, the candidate files, optionally a public leaderboard;
Run computes on a worker (``gui.jobs.JobController``) and the dialog only
draws: a table of candidates (score, interval, P(best), most alike) with the
verdict, and a histogram of the simulated private rank with the medal bands
and the noise model in words.
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QDialog, QDoubleSpinBox, QFileDialog, QFormLayout, QHBoxLayout,
                               QHeaderView, QLabel, QLineEdit, QListWidget, QPushButton,
                               QSpinBox, QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout,
                               QWidget)
from ...core.words import plural

BANDS = {"gold": (230, 190, 40, 90), "silver": (170, 170, 180, 90), "bronze": (200, 120, 60, 90)}
BAR = (70, 110, 180)


@dataclass(frozen=True)
class FinalResult:
    """What the worker made: the advice, the landing (or None) and the rank histogram."""
    advice: object                 # kmetric_gui.analysis.select.Advice
    landing: object = None         # kmetric_gui.analysis.ranking.Landing, or None without a leaderboard
    rank_edges: "np.ndarray | None" = None
    rank_counts: "np.ndarray | None" = None
    ranked: str = ""               # the candidate placed on the leaderboard
    problems: tuple = ()


def compute(truth, paths, board_path, options, correlation, progress=None, cancel=None, pick=2):
    """The worker's job: select over ``paths``, then rank the best set's first candidate."""
    from ...analysis.ranking import RankOptions, land, read_leaderboard
    from ...analysis.select import SelectOptions, select_files
    adv = select_files(truth, paths, options, SelectOptions(pick=pick), progress, cancel)
    if not board_path:
        return FinalResult(adv, problems=tuple(adv.problems))
    first = adv.selection.best.members[0]
    report = _report_of(truth, paths, adv.names[first], options, cancel)
    where = land(report, read_leaderboard(board_path), RankOptions(correlation=correlation), cancel)
    ranks = where.main.ranks
    lo, hi = int(ranks.min()), int(ranks.max())
    step = max(1, -(-(hi - lo + 1) // 60))
    edges = np.arange(lo, hi + step + 1, step) - 0.5
    counts, _ = np.histogram(ranks, bins=edges)
    return FinalResult(adv, where, edges, counts, adv.names[first], tuple(adv.problems))


def _report_of(truth, paths, name, options, cancel):
    from ...analysis.comparison import _names
    from ...analysis.scoring import score_files
    path = paths[_names(paths).index(name)]
    return score_files(truth, path, options, cancel=cancel)


class FinalDialog(QDialog):
    def __init__(self, jobs, truth="", paths=(), options=None, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Final submissions — which to submit, where they land")
        self.jobs, self.options = jobs, options
        self.result = None
        self.notes = []            # said above the results (e.g. files changed since a project)
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.truth = self._path_row(form, "Truth (validation labels)", truth)
        self.board = self._path_row(form, "Public leaderboard (optional)", "")
        self.correlation = QDoubleSpinBox()
        self.correlation.setRange(-1.0, 1.0)
        self.correlation.setSingleStep(0.1)
        self.correlation.setValue(0.5)
        self.correlation.setToolTip("correlation of the other teams' private − public gaps "
                                    "with ours")
        self.pick = QSpinBox()
        self.pick.setRange(1, 20)
        self.pick.setValue(2)
        self.pick.setToolTip("how many final submissions the competition allows")
        # Two small numbers on one row: stretched to the paths' width they read as fields to type in.
        knobs = QWidget()
        kl = QHBoxLayout(knobs)
        kl.setContentsMargins(0, 0, 0, 0)
        kl.addWidget(self.pick)
        kl.addSpacing(24)
        kl.addWidget(QLabel("Gap correlation with the other teams (leaderboard)"))
        kl.addWidget(self.correlation)
        kl.addStretch(1)
        form.addRow("Submissions to pick", knobs)
        lay.addLayout(form)
        row = QHBoxLayout()
        self.files = QListWidget()
        self.files.setMaximumHeight(90)
        self.files.addItems([str(p) for p in paths])
        side = QVBoxLayout()
        for text, slot in (("Add…", self._add), ("Remove", self._remove)):
            b = QPushButton(text)
            b.clicked.connect(slot)
            side.addWidget(b)
        self.run_button = QPushButton("Run")
        self.run_button.setDefault(True)
        self.run_button.clicked.connect(lambda: self.run())
        side.addWidget(self.run_button)
        row.addWidget(self.files, 1)
        row.addLayout(side)
        lay.addLayout(row)
        self.status = QLabel("Add two or more candidate submissions and press Run.")
        self.status.setWordWrap(True)
        lay.addWidget(self.status)
        split = QSplitter(Qt.Horizontal)
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        self.table = QTableWidget(0, 5)
        self.table.setHorizontalHeaderLabels(["candidate", "score", "95% CI", "P(best)",
                                              "most alike (corr.)"])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.table.horizontalHeaderItem(0).setToolTip("in bold: the pick (the set most likely "
                                                      "to hold the best)")
        self.table.verticalHeader().setVisible(False)
        self.verdict = QLabel("")
        self.verdict.setWordWrap(True)
        self.verdict.setTextInteractionFlags(Qt.TextSelectableByMouse)
        ll.addWidget(self.table, 1)
        ll.addWidget(self.verdict)
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        self.plot = pg.PlotWidget(background="w")
        self.plot.setLabel("bottom", "private rank (bands: gold, silver, bronze)")
        self.plot.setLabel("left", "simulations")
        self.plot.setMouseEnabled(x=False, y=False)
        self.landing = QLabel("No leaderboard: add one to see the rank and medal odds.")
        self.landing.setWordWrap(True)
        self.landing.setTextInteractionFlags(Qt.TextSelectableByMouse)
        rl.addWidget(self.plot, 1)
        rl.addWidget(self.landing)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([680, 600])       # the table's five columns whole at 1280 wide
        lay.addWidget(split, 1)

    def _path_row(self, form, label, value):
        edit = QLineEdit(str(value))
        b = QPushButton("Browse…")
        b.clicked.connect(lambda: self._browse(edit))
        w = QWidget()
        h = QHBoxLayout(w)
        h.setContentsMargins(0, 0, 0, 0)
        h.addWidget(edit, 1)
        h.addWidget(b)
        form.addRow(label, w)
        return edit

    def _browse(self, edit):
        path, _ = QFileDialog.getOpenFileName(self, "Choose a file", edit.text())
        if path:
            edit.setText(path)

    def _add(self):
        paths, _ = QFileDialog.getOpenFileNames(self, "Add candidate submissions")
        self.files.addItems(paths)

    def _remove(self):
        for item in self.files.selectedItems():
            self.files.takeItem(self.files.row(item))

    def paths(self):
        return [self.files.item(i).text() for i in range(self.files.count())]

    def run(self, notes=()):
        from ...analysis.scoring import Options
        self.notes = list(notes)
        truth, paths, board = self.truth.text().strip(), self.paths(), self.board.text().strip()
        options, rho = self.options or Options(), float(self.correlation.value())
        pick = int(self.pick.value())
        self.status.setText(" ".join(self.notes + [f"Scoring {len(paths)} candidates on the same "
                                                   "bootstrap draws…"]))
        self.jobs.submit("final", lambda progress, cancel: compute(
            truth, paths, board, options, rho, progress, cancel, pick), self.show_result,
            on_error=self.show_error, disables=[self.run_button], lane="background")

    def state(self):
        """The inputs, for a project (gui/project_final.py); ``ran``: results are shown."""
        return {"truth": self.truth.text().strip(), "candidates": self.paths(),
                "leaderboard": self.board.text().strip(), "pick": int(self.pick.value()),
                "correlation": float(self.correlation.value()), "ran": self.result is not None}

    def restore(self, state, notes=()):
        """Inputs from a project; run again when it had results (notes said above them)."""
        self.truth.setText(state["truth"])
        self.files.clear()
        self.files.addItems(state["candidates"])
        self.board.setText(state["leaderboard"])
        self.pick.setValue(state["pick"])
        self.correlation.setValue(state["correlation"])
        self.notes = list(notes)
        self.status.setText(" ".join(self.notes + ["Inputs of the project restored; press Run."]))
        if state["ran"] and len(state["candidates"]) > state["pick"]:
            self.run(notes)

    def show_error(self, exc):
        lines = getattr(exc, "problems", None) or [str(exc)]
        self.status.setText(" ".join(self.notes + ["Nothing computed:"] + [str(x) for x in lines[:6]]))

    def show_result(self, res):
        self.result = res
        adv = res.advice
        d = adv.to_json()
        s = adv.selection
        extra = f" — {len(res.problems)} problem(s): {res.problems[0]}" if res.problems else ""
        self.status.setText(" ".join(self.notes + [""]) +
                            f"{d['metric']} ({'higher' if d['higher_is_better'] else 'lower'} "
                            f"is better), {d['n_units']:,} {plural(d['unit'])}, {d['replicates']:,} "
                            f"joint replicates ({d['draws']} draws){extra}")
        order = sorted(range(len(adv.names)), key=lambda c: -np.nan_to_num(s.p_best[c], nan=-1))
        self.table.setRowCount(len(order))
        best = set(s.best.members)
        for r, c in enumerate(order):
            cand = d["candidates"][c]
            ci = cand["ci"]
            corr = s.agreement[c].copy()
            corr[c] = -np.inf
            twin = int(np.argmax(np.nan_to_num(corr, nan=-np.inf)))
            cells = [cand["name"], _f(cand["score"]),
                     "[undefined]" if ci["low"] is None else f"[{_f(ci['low'])}, {_f(ci['high'])}]",
                     "-" if cand["p_best"] is None else f"{100 * cand['p_best']:.1f}%",
                     f"{adv.names[twin]} ({corr[twin]:.2f})" if np.isfinite(corr[twin]) else "-"]
            for k, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setFlags(Qt.ItemIsSelectable | Qt.ItemIsEnabled)
                if k:
                    item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                if c in best:
                    f = item.font()
                    f.setBold(True)
                    item.setFont(f)
                self.table.setItem(r, k, item)
        self.verdict.setText(f"<b>Verdict</b> (the pick in bold): {escape(str(d['verdict']))}")
        self._draw_landing(res)

    def _draw_landing(self, res):
        self.plot.clear()
        w = res.landing
        if w is None:
            self.landing.setText("No leaderboard: add one to see the rank and medal odds.")
            return
        d = w.to_json()
        th = d["thresholds"]
        lo = 0.5
        for name in ("gold", "silver", "bronze"):
            hi = th[name] + 0.5
            if hi > lo:
                self.plot.addItem(pg.LinearRegionItem((lo, hi), movable=False,
                                                      brush=pg.mkBrush(*BANDS[name]), pen=None))
            lo = max(lo, hi)
        self.plot.addItem(pg.BarGraphItem(x0=res.rank_edges[:-1], x1=res.rank_edges[1:],
                                          height=res.rank_counts, brush=pg.mkBrush(*BAR),
                                          pen=pg.mkPen("w")))
        self.plot.addItem(pg.InfiniteLine(pos=d["rank_now"], angle=90,
                                          pen=pg.mkPen((200, 30, 30), width=2),
                                          label=f"now {d['rank_now']}",
                                          labelOpts={"position": 0.9, "color": (200, 30, 30),
                                                     "fill": (255, 255, 255, 200)}))
        right = max(float(res.rank_edges[-1]), th["bronze"] + 0.5)
        self.plot.setXRange(0.5, right, padding=0.02)
        m = d["medals"]
        sens = escape(" ".join(f"At correlation {s['correlation']:g}: median {s['rank_p50']}, "
                         f"any medal {100 * (1 - s['medals']['none']):.0f}%."
                         for s in d["sensitivity"]))
        self.landing.setText(
            f"<b>{escape(str(res.ranked))}</b> (first of the best set) among {d['teams']:,} teams: "
            f"rank {d['rank_now']} now; private "
            f"median <b>{d['rank_p50']}</b>, 90% in [{d['rank_p05']}, {d['rank_p95']}]. "
            f"Gold {100 * m['gold']:.1f}%, silver {100 * m['silver']:.1f}%, bronze "
            f"{100 * m['bronze']:.1f}%, none {100 * m['none']:.1f}% (gold to rank {th['gold']}, "
            f"silver {th['silver']}, bronze {th['bronze']}). {sens}<br><small>Assumed: "
            + escape("; ".join(d["assumptions"])) + ".</small>"
            + "".join(f"<br><b>Warning:</b> {escape(str(x))}" for x in d.get("warnings", [])))


def _f(x):
    return "undefined" if x is None else f"{x:.4f}"


def open_final_dialog(win, state=None, notes=()):
    """The dialog for the app's window: its truth, shown submission and compared files,
    or a project's inputs (``state``, gui/project_final.py; run again when it had results)."""
    s = win.session
    paths = [p for p in [s.sub_path, *s.compare_paths] if p]
    options = s.results.report.options if s.results is not None else None
    old = getattr(win, "final_dialog", None)
    if old is not None:
        try:
            old.close()              # one dialog: a project's replaces the one shown
        except RuntimeError:
            pass
    dlg = FinalDialog(win.jobs, s.truth_path or "", paths, options, win)
    room = win.screen().availableGeometry()          # a 1280x720 screen has a title bar to fit
    dlg.resize(min(1280, room.width()), min(720, room.height() - 40))
    dlg.show()
    if state is not None:
        dlg.restore(state, notes)
    return dlg


__all__ = ["FinalDialog", "FinalResult", "compute", "open_final_dialog"]
