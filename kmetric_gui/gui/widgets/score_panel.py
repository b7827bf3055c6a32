"""The score, its leaderboard splits and what was chosen, in plain words."""
import math
import re

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QVBoxLayout

COMPUTING = "interval: computing…"
GREY = "color:#8a8f98"


def fmt(x):
    return "undefined" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.6f}"


class ScorePanel(QFrame):
    rescore_requested = Signal()          # "Score again" under numbers marked out of date
    stats_requested = Signal()            # "compute" beside an interval that was stopped

    def __init__(self, parent=None):
        super().__init__(parent)
        self.report = None                # the report whose numbers are shown (None: none)
        self.stale = None                 # why the numbers shown are out of date (None: current)
        self._splits = {}
        self.setFrameShape(QFrame.StyledPanel)
        lay = QVBoxLayout(self)
        self.metric_label = QLabel("No files yet")
        self.metric_label.setObjectName("metricName")
        self.metric_label.setWordWrap(True)      # "Reading <solution> and <submission>…"
        self.score_label = QLabel("—")
        self.score_label.setObjectName("bigScore")
        self.score_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        f = self.score_label.font()
        f.setPointSize(f.pointSize() * 2 + 4)
        f.setBold(True)
        self.score_label.setFont(f)
        self.interval = QLabel("")
        self.interval.setObjectName("interval")
        self.interval.setWordWrap(True)
        self.interval.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.cautions = QLabel("")          # every warning of the intervals, as the CLI prints them
        self.cautions.setObjectName("cautions")
        self.cautions.setWordWrap(True)
        self.cautions.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.coverage = QLabel("")          # the coverage check of the interval (Options)
        self.coverage.setObjectName("coverage")
        self.coverage.setWordWrap(True)
        self.coverage.setTextInteractionFlags(Qt.TextSelectableByMouse)
        grid = QGridLayout()
        self.public = QLabel("")
        self.private = QLabel("")
        for w in (self.public, self.private):
            w.setWordWrap(True)
        self.detail = QLabel("")
        self.detail.setWordWrap(True)
        self.reason = QLabel("")
        self.reason.setWordWrap(True)
        self.reason.setObjectName("reason")
        self.change = QLabel("")           # previous score and the change (watched files)
        self.change.setObjectName("scoreChange")
        self.stale_note = QLabel("")      # out of date: why, and a link to score again
        self.stale_note.setObjectName("staleNote")
        self.stale_note.setWordWrap(True)
        self.stale_note.setVisible(False)
        self.stale_note.linkActivated.connect(lambda _: self.rescore_requested.emit())
        self.interval.linkActivated.connect(lambda _: self.stats_requested.emit())
        grid.addWidget(self.public, 0, 0)
        grid.addWidget(self.private, 1, 0)
        grid.addWidget(self.change, 2, 0)
        lay.addWidget(self.metric_label)
        lay.addWidget(self.stale_note)
        lay.addWidget(self.score_label)
        lay.addWidget(self.interval)
        lay.addWidget(self.cautions)
        lay.addWidget(self.coverage)
        lay.addLayout(grid)
        lay.addWidget(self.detail)
        lay.addWidget(self.reason)
        lay.addStretch(1)

    def clear(self, message="No files yet"):
        self._fresh()
        self.report = None
        self.metric_label.setText(message)
        for w in (self.public, self.private, self.detail, self.reason, self.interval, self.coverage,
                  self.cautions):
            w.setText("")
        self.score_label.setText("—")

    def show_report(self, rep):
        self._fresh()
        self.report = rep
        r = rep.result
        self._splits = {name: rep.splits.get(name) for name in ("public", "private")}
        self.interval.setText(f"<span style='color:#777'>{COMPUTING}</span>")
        self.coverage.setText("")            # a check of other numbers: not of these
        self.cautions.setText("")
        self.metric_label.setText(f"{rep.definition.label} — {rep.n_rows:,} rows")
        self.score_label.setText(fmt(r.score))
        self.score_label.setToolTip(repr(r.score))
        for name, label in (("public", self.public), ("private", self.private)):
            s = rep.splits.get(name)
            label.setText(f"{name.title()} LB: <b>{fmt(s.score)}</b>" if s is not None else "")
            if s is not None and s.undefined_reason:
                label.setToolTip(s.undefined_reason)
        lines = []
        if r.undefined_reason:
            lines.append(f"<b>Undefined:</b> {r.undefined_reason}")
        lines += rep.definition.summary_lines(rep)
        self.detail.setText("<br>".join(lines))
        self.reason.setText(f"<i>Chosen: {rep.reason}.</i><br><i>Layout: {rep.layout}.</i>")

    # -- numbers that are not of the data shown any more ---------------------------------
    def mark_stale(self, why):
        """Every number shown is out of date (e.g. Esc stopped the score of an edit): they
        are greyed and struck, and the panel says why, with a link to score again."""
        if self.stale == why or self.report is None:
            return
        self.stale = why
        self.stale_note.setText(f"<b>Out of date</b> — {why}. <a href='rescore'>Score again</a>")
        self.stale_note.setVisible(True)
        self.score_label.setStyleSheet(f"{GREY}; text-decoration: line-through")
        for w in (self.public, self.private, self.interval, self.detail, self.coverage,
                  self.cautions):
            w.setStyleSheet(GREY)
        if self.change.text():          # the change to the struck score: grey, not red/green
            self.change.setText(re.sub(r" style='color:#[0-9a-f]+'", "", self.change.text()))
            self.change.setStyleSheet(GREY)
        if self.computing:
            self.interval.setText("")

    def _fresh(self):
        if self.stale is not None:
            self.stale = None
            self.stale_note.setVisible(False)
            self.stale_note.setText("")
            for w in (self.score_label, self.public, self.private, self.interval, self.detail,
                      self.coverage, self.cautions, self.change):
                w.setStyleSheet("")

    @property
    def computing(self):
        return COMPUTING in self.interval.text()

    def stats_stopped(self, why="stopped"):
        """The interval job ended without an interval: the panel must not keep saying
        it computes one."""
        if self.computing:
            self.interval.setText(f"<span style='color:#777'>interval: not computed ({why})"
                                  "</span> <a href='stats'>compute</a>")

    def show_stats(self, stats, seed=0, pending=False):
        """The bootstrap intervals next to the score and the Public / Private scores.
        ``stats`` None: the intervals shown go (settings changed); ``pending``: new
        ones are computed (Esc then says "not computed", not a blank line)."""
        if stats is None:
            for name, label in (("public", self.public), ("private", self.private)):
                s = self._splits.get(name)
                if s is not None and self.report is not None:
                    label.setText(f"{name.title()} LB: <b>{fmt(s.score)}</b>")
            busy = pending and self.report is not None and self.stale is None
            self.interval.setText(f"<span style='color:#777'>{COMPUTING}</span>" if busy else "")
            self.cautions.setText("")
            return
        from ...analysis.stats import interval_text
        asked = getattr(stats.options, "method", None)
        ci = stats.intervals.get("ci")
        self.interval.setText(interval_text(ci, seed, asked) if ci is not None else "")
        self.cautions.setText(caution_html(stats.intervals))
        self.cautions.setToolTip(caution_html(stats.intervals, whole=True))
        for name, label in (("public", self.public), ("private", self.private)):
            s, iv = self._splits.get(name), stats.intervals.get(f"{name}_ci")
            if s is not None and iv is not None:
                short = interval_text(iv, seed).split(" CI ")[0]
                label.setText(f"{name.title()} LB: <b>{fmt(s.score)}</b> {short}")

    def caution_lines(self):
        """The warnings of the intervals shown, in the CLI's words (the tooltip of the short
        lines under the interval), as plain text (tests, the clipboard)."""
        from PySide6.QtGui import QTextDocument
        if not self.cautions.text():
            return []
        doc = QTextDocument()
        doc.setHtml(self.cautions.toolTip())
        return [x for x in doc.toPlainText().splitlines() if x.strip()]

    # -- the coverage check ---------------------------------------------------------------
    def coverage_running(self):
        self.coverage.setText(f"<span style='{GREY}'>coverage check: running…</span>")

    def coverage_stopped(self, why):
        """The check ended without a result (Esc, new data or settings, a failure)."""
        if "running" in self.coverage.text():
            self.coverage.setText(f"<span style='{GREY}'>coverage check: not made ({why})</span>")

    def show_coverage(self, iv):
        """The measured coverage beside the interval: a warning when it is short of
        nominal by more than 2 points, else the plain result."""
        from html import escape
        from ...analysis.stats import coverage_short, coverage_text
        text = escape(coverage_text(iv) or "")
        if coverage_short(iv):
            self.coverage.setText(f"<span style='color:#b42318'><b>Interval too narrow here:</b> "
                                  f"{text}, below the nominal {100 * iv.level:g}% by more than "
                                  "2 points</span>")
        else:
            self.coverage.setText(text)
        self.coverage.setToolTip("Datasets of this size drawn from the data itself (its score "
                                 "taken as the true value); the interval computed on each as on "
                                 "the data; the share that contains that score.")

    def show_change(self, previous, current):
        """'previous 0.774 → change +0.0042' until the next change (None: nothing)."""
        if previous is None or current is None:
            self.change.setText("")
            return
        if not (math.isfinite(previous) and math.isfinite(current)):
            self.change.setText(f"previous {fmt(previous)}")
            return
        delta = current - previous
        color = "#1a7f37" if delta > 0 else "#b42318" if delta < 0 else "#5b6675"
        self.change.setText(f"previous {fmt(previous)} · change "
                            f"<b style='color:{color}'>{delta:+.4f}</b>")
        self.change.setToolTip(f"{previous!r} → {current!r} (difference {delta!r})")


def caution_html(intervals, whole=False):
    """The warnings of the intervals: ``whole``, every one in the words `kmetric score --ci`
    prints under each interval, one a line; else one short line a kind of warning with the
    intervals it concerns (the whole words, three times for All, Public and Private, pushed
    the Public and Private scores out of a 1280x720 window). "too narrow likely" in red,
    others in amber."""
    from html import escape
    found = {}                       # lead -> (colour, [where...])
    lines = []
    for key, iv in intervals.items():
        where = {"public_ci": "Public LB", "private_ci": "Private LB"}.get(key, "")
        for w in iv.warnings:
            color = "#b42318" if w.startswith("too narrow likely") else "#9a6700"
            if whole:
                lines.append(f"<span style='color:{color}'>&#9888; "
                             f"{escape((where + ': ' if where else '') + w)}</span>")
                continue
            lead = w.split(":")[0] if ":" in w[:90] else w[:80].rsplit(" ", 1)[0] + " …"
            found.setdefault(lead, (color, []))[1].append(where or "all rows")
    if whole:
        return "<br>".join(lines)
    shown = [f"<span style='color:{c}'>&#9888; {escape(lead)} "
             f"({escape(', '.join(dict.fromkeys(places)))})</span>" for lead, (c, places) in found.items()]
    if shown:
        shown.append("<span style='color:#777'>(point here for the reasons)</span>")
    return "<br>".join(shown)
