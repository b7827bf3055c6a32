"""The metric file's recent list and its project entry (a part of MetricFileActions):
the file's path (relative to the project when it can be), content hash, arguments,
direction and where it runs (another Python, the sandbox mode)."""
import json
from pathlib import Path

MAX_RECENT = 8


class RecentAndProject:
    # -- recent files and projects ------------------------------------------------------
    def recent(self):
        try:
            return [str(p) for p in json.loads(self.win.settings.value("recent_metric_files", "[]"))]
        except (TypeError, ValueError):
            return []

    def _remember(self, path):
        path = str(Path(path).resolve())
        items = [path] + [p for p in self.recent() if p != path]
        self.win.settings.setValue("recent_metric_files", json.dumps(items[:MAX_RECENT]))
        self.fill_recent()

    def fill_recent(self):
        self.recent_menu.clear()
        for p in self.recent():
            self.recent_menu.addAction(Path(p).name, lambda p=p: self.open(p))
        self.recent_menu.setEnabled(bool(self.recent()))

    def project_entry(self, folder):
        """The project's "metric_file" object (None without one)."""
        if self.source is None:
            return None
        import os
        p = Path(self.source.path).resolve()
        try:
            rel = Path(os.path.relpath(p, Path(folder).resolve())).as_posix()
        except ValueError:
            rel = str(p)
        python, mode = self.args_box.place()
        entry = {"path": rel, "absolute": str(p), "sha256": self.source.sha256,
                 "args": {k: v for k, v in self.args_box.values.items() if v is not None},
                 "higher_is_better": self.args_box.higher_is_better()}
        if python:
            entry["python"] = python
        if mode != "auto":
            entry["sandbox"] = mode
        return entry

    def restore(self, entry, project_path):
        """Open a project's metric file: found beside the project, else where it was."""
        if not entry:
            return
        folder = Path(project_path).resolve().parent
        for cand in (folder / entry["path"], Path(entry.get("absolute") or "")):
            if str(cand) and cand.is_file():
                self.open(str(cand), entry.get("args"), entry.get("higher_is_better"),
                          entry.get("sha256"), python=entry.get("python"),
                          sandbox=entry.get("sandbox") or "auto")
                return
        self._show_problem(f"metric file {Path(entry['path']).name} of the project is not there any "
                           "more; open it with File > Open metric file…")
