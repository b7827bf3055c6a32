"""View > Watch files: rescore when the truth or the submission changes on disk.

QFileSystemWatcher reports every write; a change counts once the file's
size and modification time have stayed the same for ``quiet_ms`` (the
writer has finished). Editors and notebooks that write a new file and
rename it over the old one make the watcher drop the path: it is added
again once the new file is there. Unsaved edits are never thrown away
without asking (``ask_reload_over_edits``; tests replace it).
"""
import os
import time
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal
from PySide6.QtWidgets import QMessageBox

GONE_S = 60.0          # a watched file missing this long is no longer waited for


class FileWatcher(QObject):
    reloading = Signal(object)        # the paths whose completed change starts a reload
    rescored = Signal(object, float)  # previous score (or None), new score
    declined = Signal(object)         # paths changed, not reloaded (unsaved edits kept)

    def __init__(self, win, quiet_ms=400, poll_ms=100):
        super().__init__(win)
        self.win, self.quiet = win, quiet_ms / 1000.0
        self.enabled = False
        self.watcher = QFileSystemWatcher(self)
        self.watcher.fileChanged.connect(self._changed)
        self.timer = QTimer(self, interval=poll_ms)
        self.timer.timeout.connect(self._poll)
        self._pending = {}            # path -> (size, mtime) last seen, time it was first seen
        self._previous = None
        self._waiting = False
        win.session.files_changed.connect(self._files_changed)
        # The change line wraps rather than losing its last digit in a narrow score panel
        # ("+0.0070" showed "+0.007"); set here to leave the panel's own file alone.
        change = getattr(getattr(win, "score_panel", None), "change", None)
        if change is not None:
            change.setWordWrap(True)

    # -- dialogs (tests replace this) -----------------------------------------------------
    def ask_reload_over_edits(self, names):
        return QMessageBox.question(
            self.win, "Files changed on disk",
            f"{names} changed on disk. Reload and score it? Your unsaved edits would be lost.",
            QMessageBox.Yes | QMessageBox.No, QMessageBox.No) == QMessageBox.Yes

    # -- on / off ----------------------------------------------------------------------
    def set_enabled(self, on):
        self.enabled = bool(on)
        self.win.settings.setValue("watch_files", self.enabled)
        self._rewatch()

    def paths(self):
        s = self.win.session
        return [p for p in (s.truth_path, s.sub_path) if p]

    def _rewatch(self):
        if self.watcher.files():
            self.watcher.removePaths(self.watcher.files())
        self._pending.clear()
        self.timer.stop()
        if self.enabled:
            for p in self.paths():
                if os.path.exists(p):
                    self.watcher.addPath(p)

    def _files_changed(self):
        self.win.score_panel.show_change(None, None)     # other files: no "previous" any more
        self._rewatch()

    # -- changes -----------------------------------------------------------------------
    def _changed(self, path):
        if self.enabled and path in self.paths():
            self._pending[path] = (None, time.monotonic())
            self.timer.start()

    def _poll(self):
        now, ready = time.monotonic(), []
        for path, (seen, since) in list(self._pending.items()):
            try:
                st = os.stat(path)
            except OSError:                               # replaced: the new file is not there yet
                if now - since > GONE_S:
                    del self._pending[path]               # deleted for good: stop looking
                    self.win.statusBar().showMessage(f"{Path(path).name} is gone from disk", 0)
                continue
            key = (st.st_size, st.st_mtime_ns)
            if key != seen:
                self._pending[path] = (key, now)          # still being written
            elif now - since >= self.quiet:
                del self._pending[path]
                ready.append(path)
            if path not in self.watcher.files():
                self.watcher.addPath(path)                # renamed over: watch the new file
        if not self._pending:
            self.timer.stop()
        if ready:
            self._reload(ready)

    def _reload(self, paths):
        s = self.win.session
        names = " and ".join(Path(p).name for p in paths)
        if s.dirty and not self.ask_reload_over_edits(names):
            self.win.statusBar().showMessage(f"{names} changed on disk; not reloaded (your edits "
                                             "are kept; File > Reload when you are ready)", 0)
            self.declined.emit(paths)
            return
        self._previous = s.results.report.score if s.results is not None else None
        if not self._waiting:
            self._waiting = True
            self.win.controller.scored.connect(self._scored)
            self.win.controller.failed.connect(self._failed)
        self.reloading.emit(paths)
        self.win.controller.reload()

    def _stop_waiting(self):
        self._waiting = False
        for sig, slot in ((self.win.controller.scored, self._scored),
                          (self.win.controller.failed, self._failed)):
            try:
                sig.disconnect(slot)
            except (RuntimeError, TypeError):
                pass

    def _scored(self, report):
        self._stop_waiting()
        self.win.score_panel.show_change(self._previous, report.score)
        self.rescored.emit(self._previous, float(report.score))

    def _failed(self, text):
        self._stop_waiting()
