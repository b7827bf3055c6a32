"""What the window shows stays true to the data shown, whatever job ended how.

After every job ends (``JobController.ended``) and after each change of the
data, this checks what is on screen: numbers of other data or options are
marked out of date once nothing is computing their replacement (Esc during a
rescore); an interval whose job ended without one stops saying "computing";
the drop zones name the files of the data shown once a load ended.
"""
from PySide6.QtCore import QObject, QTimer


class Freshness(QObject):
    def __init__(self, win):
        super().__init__(win)
        self.win = win
        s, c, jobs = win.session, win.controller, win.jobs
        jobs.ended.connect(self._ended)
        # Jobs of a generation the session left end at once (not when a worker notices).
        s.data_changed.connect(lambda _: jobs.sweep())
        s.options_changed.connect(lambda _: jobs.sweep())
        c.loading.connect(self._loading)
        c.unsay.connect(self._unsay)
        c.options_restored.connect(win.options_panel.set_options)
        # Checked once things settle: after a job ended, and after the rescore timer
        # (a check skipped while it ran would otherwise never come back).
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self.check)
        c._rescore_timer.timeout.connect(self._timer.start)
        s.results_changed.connect(self._new_results)
        self._fixes_of = None               # the results the Fix first list is of
        c.fixes_ready.connect(self._fixes_ready)
        win.score_panel.rescore_requested.connect(c.rescore)
        win.score_panel.stats_requested.connect(c.compute_stats)

    def _loading(self, truth, submission):
        self.win.truth_zone.set_path(truth)
        self.win.sub_zone.set_path(submission)
        s = self.win.session
        if s.problems and not s.problems_are_notes:   # the last files' problems
            self.win.problems.set_problems([], title="<b>Reading the new files…</b>")

    def _fixes_ready(self, _):
        self._fixes_of = self.win.session.results
        tabs = self.win.tabs
        if getattr(tabs, "fixes", None) is not None:
            tabs.setTabVisible(tabs.indexOf(tabs.fixes), True)

    def _analysis_stopped(self):
        """Fix first and Compare of older numbers, once nothing computes theirs: the list
        goes, the comparison says it was stopped."""
        s, jobs, tabs = self.win.session, self.win.jobs, self.win.tabs
        if getattr(tabs, "fixes", None) is not None and not jobs.running("fixes") \
                and self._fixes_of is not s.results:
            tabs.setTabVisible(tabs.indexOf(tabs.fixes), False)
        cmp = s.comparison
        if tabs.compare is not None and cmp is not None and not jobs.running("compare") \
                and not s.is_current(cmp.generation):
            s.comparison = None                  # said once
            tabs.compare.view.clear("Compare: stopped before the numbers shown were compared "
                                    "(a change of data or settings compares them again)")

    def _new_results(self, results):
        """New numbers shown: the shake-up and the comparison of the numbers before say
        so until theirs arrive (or check() says they were stopped). Before, a metric file
        adopted after a built-in showed the built-in's shake-up and comparison unmarked."""
        s, tabs = self.win.session, self.win.tabs
        if results is None:
            return
        if s.stats_settings is None:
            self.win.shakeup.clear("Shake-up: not computed (statistics off)")
        else:
            self.win.shakeup.mark_updating()
        cmp = s.comparison
        if tabs.compare is not None and cmp is not None and not s.is_current(cmp.generation):
            tabs.compare.view.mark_updating()

    def _unsay(self, text):
        bar = self.win.statusBar()
        if bar.currentMessage() == text:
            bar.clearMessage()

    def _ended(self, kind, outcome):
        if kind == "load" and not self.win.jobs.running("load"):
            self.win._files_changed()          # a stopped load: the names of the data shown
            s = self.win.session
            if outcome in ("cancelled", "superseded") and s.problems and \
                    not s.problems_are_notes:    # and the problems of the files shown
                self.win._problems_changed(s.problems)
        self._timer.start()

    def soon(self):
        """Check once the calls under way are done."""
        self._timer.start()

    def scoring(self):
        """Whether new numbers of the data shown are on their way."""
        jobs, c = self.win.jobs, self.win.controller
        return jobs.running("load") or jobs.running("score") or c._rescore_timer.isActive()

    def check(self):
        s, p, jobs = self.win.session, self.win.score_panel, self.win.jobs
        if p.report is None or self.scoring():
            return
        current = s.results is not None and s.is_current(s.results.generation) \
            and p.report is s.results.report
        if not current and s.data is not None:
            failed = self.win.controller.failed_edit    # the metric failed on the data shown
            p.mark_stale(failed[1] if failed and s.is_current(failed[0]) else
                         "the data or options changed since this score, which was stopped")
            self.win.table_panel.mark_unscored()
            self.win.tabs.setVisible(False)     # the anatomy of those numbers too
            self.win.shakeup.clear("Shake-up: out of date (the score was stopped)")
            return
        if current:
            self._analysis_stopped()
        if current and s.stats is None and not jobs.running("stats") and p.computing:
            refused = getattr(self.win.controller, "_no_interval", None)   # why (e.g. one group)
            p.stats_stopped(refused.split(": ", 1)[-1] if refused else
                            "stopped" if s.stats_settings is not None else "statistics off")
            self.win.shakeup.clear("Shake-up: not computed (stopped)")
