"""How the metric-file actions say what went wrong: the dock, the Validation panel and the
status bar (a mixin of MetricFileActions, which has ``win``, ``panel``, ``dock``,
``source`` and the ``failed`` signal)."""
from ..errors import InputError
from ..metricfile.metric import ScoreFailed
from ..metricfile.runner import MetricFailed
from . import metric_file_ui as ui


class Problems:
    # -- what went wrong ---------------------------------------------------------------
    def show_details(self, text):
        name = self.source.name if self.source is not None else "metric file"
        self.details_dialog = ui.show_details(self.win, name, text)

    def _failed(self, exc):
        output = getattr(exc, "output", None)
        if isinstance(exc, ScoreFailed):       # the metric's own code failed (not the data)
            self._show_problem(str(exc), details=getattr(exc, "details", None), output=output)
        elif isinstance(exc, InputError):
            lines = [str(x) for x in (getattr(exc, "problems", None) or [str(exc)])]
            self._show_problem(lines[0], lines, validation=True)
        elif isinstance(exc, MetricFailed):
            self._show_problem(str(exc), details=exc.details, output=output)
        else:
            self._show_problem(f"metric file: {type(exc).__name__}: {exc}",
                               details=getattr(exc, "details", None))

    def _show_problem(self, text, lines=None, validation=False, details=None, output=None):
        from .widgets.metric_file_panel import cut
        self.panel.set_running(False, ui.output_words(output).strip())
        self.panel.show_error(text, details)
        lines = [cut(line) for line in (lines or [text])]
        text = lines[0]
        title = "<b>Metric file: the submission is not valid</b>" if validation else \
            "<b>Metric file failed (the data is unchanged)</b>"
        self.win.problems.set_problems(lines, title=title)
        self.win.problems_dock.show()
        self.dock.show()
        self.dock.raise_()
        self._say(text)
        self.failed.emit(text)

    def _say(self, text):
        self.win.statusBar().showMessage(text, 10000)
