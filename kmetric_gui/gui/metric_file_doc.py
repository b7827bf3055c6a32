"""The metric file's own documentation in the dock: its doctests run in its worker
(Check) and its docstring shown (Documentation). A mixin of MetricFileActions."""
from . import metric_file_jobs as jobs_
from . import metric_file_ui as ui

LANE = "background"            # never queues the data's own load and score behind it


class DocActions:
    def check(self):
        source = self.source
        if source is None:
            return
        self.panel.set_running(True, f"Running the doctests of {source.name}…")

        def done(r):
            attempted, failed, report = r
            text = (f"{source.name}: no doctests to run" if not attempted else
                    f"{source.name}: all {attempted} doctest examples passed" if not failed else
                    f"{source.name}: {failed} of {attempted} doctest examples failed")
            self.panel.set_running(False, text)
            if failed:
                self.panel.show_error(report[-2000:])
            self._say(text)
        python, mode = self.args_box.place()
        self.win.jobs.submit("metricfile-check",
                             lambda progress, cancel: jobs_.doctests(source, cancel, python, mode),
                             done, on_error=self._failed, lane=LANE)

    def show_doc(self):
        if self.source is not None:
            self.doc_dialog = ui.show_doc(self.win, self.source.name, (self.info or {}).get("doc", ""))
