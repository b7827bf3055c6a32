"""The analysis of the results shown, after each score: intervals and shake-up,
what to fix first, the held-out check of an optimiser (the controller's part)."""
from dataclasses import dataclass

from ..metrics import Metric
from ..state import StatsResults

ANALYSIS = ("stats", "fixes", "compare")     # computed after each score, when statistics are on


@dataclass(frozen=True)
class Fixes:
    metric: str
    top: object                  # fixes.TopFixes
    gains: object                # the metric's gains object (Metric.gains)
    has_optimiser: bool


class AnalysisJobs:
    """Mixed into AppController: needs session, jobs, compare_jobs and the signals
    message, unsay, fixes_ready and honest_ready."""

    def compute_stats(self):
        """Intervals, shake-up and comparison of the results shown, after the score."""
        s = self.session
        if not self._current() or s.stats_settings is None:
            self._stop_analysis(ANALYSIS)        # e.g. statistics switched off, or not scored
            return
        self.compare_jobs.run()
        self.compute_fixes()
        from ..analysis.stats import analyze
        from .stats_controls import group_kw
        report, gen, settings = s.results.report, s.results.generation, s.stats_settings
        truth = s.truth_path
        if getattr(self, "_no_interval", None):      # a refusal of other data or settings
            self.unsay.emit(self._no_interval)
            self._no_interval = None

        def job(progress, cancel):
            kw = group_kw(report, truth, settings)      # whole groups resampled, when chosen
            progress(0.2, "bootstrap interval and shake-up")
            return StatsResults(gen, settings, analyze(report, settings[0], settings[1], cancel,
                                                       **kw))

        def failed(exc):
            self._no_interval = f"No interval: {exc}"
            self.message.emit(self._no_interval, 0)

        def done(stats):
            if s.accept_stats(stats) and getattr(self, "_no_interval", None):
                self.unsay.emit(self._no_interval)
                self._no_interval = None
        self.jobs.submit("stats", job, done, on_error=failed, generation=gen,
                         lane="background")

    def compute_fixes(self):
        """What to fix first, and the metric's single-fix gains, of the results shown."""
        s = self.session
        report, gen = s.results.report, s.results.generation

        def job(progress, cancel):
            from ..analysis.fixes import gains, top_fixes
            progress(0.5, "what to fix first")
            has_optimiser = type(report.definition).honest is not Metric.honest
            return Fixes(report.metric, top_fixes(report, 1000, cancel), gains(report),
                         has_optimiser)
        self.jobs.submit("fixes", job, self.fixes_ready.emit, on_error=self._quiet,
                         generation=gen, lane="background")

    def check_honest(self):
        """The metric's optimiser fitted on one part and scored on the other (on request)."""
        s = self.session
        if not self._current():                  # its result would be dropped at once
            self.message.emit("Not checked: the data shown is not scored yet", 0)
            return
        report, gen, settings, truth = s.results.report, s.results.generation, \
            s.stats_settings, s.truth_path

        def job(progress, cancel):
            from ..analysis.fixes import scored_rows
            from .stats_controls import group_kw
            kw = group_kw(report, truth, settings)      # halves, folds, draws of whole groups
            progress(0.3, "fitting on one part, scoring the other")
            return report.definition.honest(report, scored_rows(report.prepared), cancel=cancel,
                                            **kw)
        self.jobs.submit("honest", job, self.honest_ready.emit, on_error=self._quiet,
                         generation=gen, lane="background")

    def _current(self):
        """Whether the results shown are of the data and options shown."""
        s = self.session
        return s.results is not None and s.is_current(s.results.generation)

    def _stop_analysis(self, kinds):
        """Cancel background jobs of results no longer wanted: a job is otherwise only
        stopped by a newer one of its kind or by a change of the data or options."""
        for kind in kinds:
            self.jobs.cancel(kind)

    def _quiet(self, exc):
        self.message.emit(f"Not computed: {exc}", 0)
