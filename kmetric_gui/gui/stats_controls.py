"""Two statistics controls of the Options panel: the coverage self-check of the
interval (a background job like every other: progress, Esc, superseded by new
data, options or interval settings) and the row-group column (offered from the
solution's header, read on a worker after each load).

``group_labels`` reads the group of every solution row on a worker for the
statistics, comparison and held-out jobs; the last one is kept.
"""
import os
import threading
from dataclasses import dataclass, replace

from PySide6.QtCore import QObject

_LAST = {}
_LOCK = threading.Lock()


def group_labels(report, truth_path, column):
    """Group label per solution row from ``column`` of the solution (None: no column).
    InputError (a missing column, an id without group) names the file and column."""
    if not column or not truth_path:
        return None
    try:
        st = os.stat(truth_path)
        stamp = (st.st_mtime_ns, st.st_size)
    except OSError:
        stamp = None
    prep = report.prepared
    key = (str(truth_path), column, stamp, len(prep), prep.id_column)
    with _LOCK:
        if _LAST.get("key") == key:
            return _LAST["labels"]
    from ..analysis.grouping import read_groups
    labels = read_groups(prep, truth_path=truth_path, column=column)
    with _LOCK:
        _LAST.update(key=key, labels=labels)
    return labels


def group_kw(report, truth_path, settings):
    """{"groups": labels} for a job's call when the settings name a group column, else {}."""
    column = getattr(settings[0], "group_column", None) if settings else None
    labels = group_labels(report, truth_path, column)
    return {} if labels is None else {"groups": labels}


@dataclass(frozen=True)
class CoverageResult:
    generation: object
    settings: object         # (StatsOptions, ShakeupOptions) it was measured with
    interval: object         # core.intervals.Interval with its ``coverage``


class StatsControls(QObject):
    def __init__(self, win):
        super().__init__(win)
        self.win = win
        panel, s = win.options_panel, win.session
        panel.coverage_button.clicked.connect(self.check_coverage)
        panel.stats_changed.connect(self._settings_changed)
        win.jobs.ended.connect(self._ended)
        s.data_changed.connect(self._data_changed)
        self._base = None               # the loaded data whose columns are offered
        self._why = None                # why the running check is being stopped

    # -- the coverage check -----------------------------------------------------------
    def check_coverage(self):
        w, s = self.win, self.win.session
        if s.results is None or not s.is_current(s.results.generation) \
                or s.stats_settings is None:
            w.statusBar().showMessage("Not checked: the data shown is not scored yet", 6000)
            return
        from ..core.coverage import SIMULATIONS
        from ..analysis.stats import score_intervals
        report, gen, settings, truth = s.results.report, s.results.generation, \
            s.stats_settings, s.truth_path
        ci = replace(settings[0], coverage_check=SIMULATIONS)

        def job(progress, cancel):
            progress(0.0, "coverage check")
            kw = group_kw(report, truth, settings)
            ivs = score_intervals(report, ci, cancel, kw.get("groups"), progress, keys=("ci",))
            return CoverageResult(gen, settings, ivs["ci"])

        def done(res):
            if res.settings == s.stats_settings and s.is_current(res.generation):
                w.score_panel.show_coverage(res.interval)
            else:
                w.score_panel.coverage_stopped("the settings changed during the check")

        def failed(exc):
            w.score_panel.coverage_stopped(str(exc))
        w.score_panel.coverage_running()
        w.jobs.submit("coverage", job, done, on_error=failed, generation=gen,
                      disables=[w.options_panel.coverage_button], lane="background")

    def _settings_changed(self):
        if self.win.jobs.running("coverage"):
            self._why = "the interval settings changed"
            self.win.jobs.cancel("coverage")
        else:
            self.win.score_panel.coverage.setText("")     # of other settings

    def _ended(self, kind, outcome):
        if kind == "coverage" and outcome in ("cancelled", "superseded"):
            why = "stopped" if outcome == "cancelled" else "the data or options changed"
            self.win.score_panel.coverage_stopped(self._why or why)
            self._why = None

    # -- the row-group column -----------------------------------------------------------
    def _data_changed(self, version):
        if version is None or version.base is self._base:
            return
        self._base = base = version.base
        truth = self.win.session.truth_path
        if not truth:
            return

        def job(progress, cancel):
            from ..io.read import read_header
            return [c for c in read_header(truth, "solution") if c != base.id_column]

        def done(names):
            if self._base is base:
                self.win.options_panel.set_group_columns(names)
        self.win.jobs.submit("group-columns", job, done, on_error=lambda e: None,
                             lane="background")
