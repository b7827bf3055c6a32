"""Opening files: dialogs, drops on the window and on the zones, demos, reload.

Every way in goes through ``request_discard`` first: unsaved edits are saved
or discarded, never lost.
"""
import os
from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from ..paths import in_app_files as _ours, resources_dir
from .widgets.drop_zone import dropped_paths

FILE_FILTER = "Tables (*.csv *.tsv *.gz *.zip *.parquet *.pq);;All files (*)"


def demo_paths(name=None):
    """(solution, submission) of a metric's demo (None: the first registered metric's)."""
    from ..metrics import REGISTRY, get_metric
    metric = get_metric(name) if name else next(iter(REGISTRY.values()))
    found = metric.demo_paths()
    if found is None:
        folder = resources_dir() / "demo"
        return str(folder / f"{metric.name}_solution.csv"), str(folder / f"{metric.name}_submission.csv")
    return found


def guess_roles(paths):
    """(truth, submission) from two dropped paths, by their names."""
    a, b = paths

    def is_sub(p):
        return "sub" in Path(p).name.lower() or "pred" in Path(p).name.lower()
    if is_sub(a) and not is_sub(b):
        return b, a
    return a, b


def save_start(sub_path, last_folder):
    """Where the Save dialog starts: beside the submission, unless that folder is the
    app's own or not writable; then the last folder used, else the home folder."""
    name = Path(sub_path or "submission.csv").stem + "_edited.csv"
    folder = Path(sub_path).parent if sub_path else None
    if folder is None or _ours(folder) or not os.access(folder, os.W_OK):
        folder = Path(last_folder) if last_folder and Path(last_folder).is_dir() and \
            not _ours(last_folder) else Path.home()
    return str(folder / name)


class FileActions:
    def remember_folder(self, path):
        if not _ours(Path(path).parent):
            self.settings.setValue("last_folder", str(Path(path).parent))

    def browse(self, role):
        start = self.settings.value("last_folder", str(Path.home()))
        path, _ = QFileDialog.getOpenFileName(self, f"Open {role} file", start, FILE_FILTER)
        if path:
            self.set_file(role, path)

    def browse_compare(self):
        start = self.settings.value("last_folder", str(Path.home()))
        paths, _ = QFileDialog.getOpenFileNames(self, "Submissions to compare", start, FILE_FILTER)
        if paths:
            self.controller.compare_jobs.add(paths)

    def set_file(self, role, path):
        def go():
            self._release_demo_metric(None)
            self.remember_folder(path)
            self.controller.open_files(**{"truth" if role == "truth" else "submission": path})
            self._hint_next()
        self.request_discard(go)

    def open_files(self, truth, submission, demo=None):
        """Open both files at once (command line, demo, recent, two dropped files)."""
        def go():
            self._release_demo_metric(demo)
            self.remember_folder(submission)
            self.controller.open_files(str(truth), str(submission))
        return self.request_discard(go)

    def open_demo(self, name):
        """A metric's demo, scored with that metric: chosen for it when another is chosen
        or when detection would not find it (``Metric.demo_detected``). Chosen for the demo
        only: the next files opened are read with the metric the user had."""
        from ..metrics import get_metric
        s = self.session

        def choose():
            if s.options.metric not in (None, name) or not get_metric(name).demo_detected:
                if s.demo_metric is None:
                    s.demo_metric = (name, s.options.metric, s.options.target_column)
                s.set_options(s.options.with_(metric=name, target_column=None))
        return self.open_files(*demo_paths(name), demo=choose)

    def _release_demo_metric(self, demo):
        """Before files open: a demo chooses its metric; other files give back the metric
        (and target column) the user had before the demo chose one."""
        s = self.session
        if demo is not None:
            demo()
        elif s.demo_metric is not None:
            name, metric, target = s.demo_metric
            s.demo_metric = None
            if s.options.metric == name:
                s.set_options(s.options.with_(metric=metric, target_column=target))

    def reload_files(self):
        self.request_discard(self.controller.reload)

    def _hint_next(self):
        s = self.session
        if not (s.truth_path and s.sub_path):
            self.score_panel.clear(f"Now open the {'truth' if not s.truth_path else 'submission'} file")

    def dragEnterEvent(self, event):
        if len(dropped_paths(event.mimeData())) in (1, 2):
            event.acceptProposedAction()

    def dropEvent(self, event):
        paths = dropped_paths(event.mimeData())
        from .metric_file_actions import is_metric_file
        if len(paths) == 1 and is_metric_file(paths[0]):     # a competition's own metric
            event.acceptProposedAction()
            self.metric_file.open(paths[0])
            return
        if len(paths) == 2:
            event.acceptProposedAction()
            self.open_files(*guess_roles(paths))
        elif len(paths) == 1:
            event.acceptProposedAction()
            self.set_file("submission" if self.session.truth_path else "truth", paths[0])

