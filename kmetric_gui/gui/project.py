"""File > Save project / Open project (`.kmetric`) and the recent projects.

A project keeps the two files (relative paths, size, sha256), the options,
the view state and the edits; opening it reads and checks the file on the
worker (project_schema.py), asks before opening any file outside the
project's folder, loads the files, then reads the edits as typed edits are
read and applies them as one step of the history (one Undo takes them back).
A file that moved is asked for; a file whose hash changed is reported and its
edits offered, never applied silently. The ``ask_*`` methods are the only
dialogs (tests replace them).
"""
import json
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog, QMessageBox

from .project_file import (ROLES, SUFFIX, decode_changes, file_ref, locate,
                           project_json, read_project, write_project)
from .project_final import changes_said, dialog_state, final_refs, located, state_of

MAX_RECENT = 8
TABLES = "Tables (*.csv *.tsv *.gz *.zip *.parquet *.pq);;All files (*)"
FILTER = f"kmetric project (*{SUFFIX});;All files (*)"


class Projects(QObject):
    saved = Signal(str)
    opened = Signal(str)          # files loaded, edits applied (or declined), view restored
    failed = Signal(str)

    def __init__(self, win):
        super().__init__(win)
        self.win = win
        self.notes = []           # what the last open reported (changed files)
        self._pending = None
        self._connected = False
        self.recent_menu = None

    # -- dialogs (tests replace these) ---------------------------------------------------
    def ask_save_path(self):
        start = self.win.settings.value("last_folder", str(Path.home()))
        return QFileDialog.getSaveFileName(self.win, "Save project", str(Path(start) / f"analysis{SUFFIX}"),
                                           FILTER)[0]

    def ask_open_path(self):
        start = self.win.settings.value("last_folder", str(Path.home()))
        return QFileDialog.getOpenFileName(self.win, "Open project", start, FILTER)[0]

    def ask_for_file(self, role, ref):
        return QFileDialog.getOpenFileName(
            self.win, f"Where is the {role} file {Path(ref.path).name}? (it moved)",
            str(Path(ref.absolute).parent), TABLES)[0]

    def ask_apply_edits(self, text):
        return QMessageBox.question(self.win, "The files changed", text + "\n\nApply the saved edits anyway?",
                                    QMessageBox.Yes | QMessageBox.No, QMessageBox.No) == QMessageBox.Yes

    def ask_open_outside(self, name, paths):
        """Files a project names outside its own folder are opened only when the user says so."""
        box = QMessageBox(QMessageBox.Warning, "Open project",
                          f"The project {name} opens files outside its own folder:", parent=self.win)
        box.setInformativeText("\n".join(paths[:20]) + ("\n…" if len(paths) > 20 else "") +
                               "\n\nOpen these files?")
        box.setStandardButtons(QMessageBox.Open | QMessageBox.Cancel)
        box.setDefaultButton(QMessageBox.Cancel)
        return box.exec() == QMessageBox.Open

    def show_problem(self, text):
        self.failed.emit(text)
        self.win.statusBar().showMessage(text, 0)
        QMessageBox.warning(self.win, "Project", text)

    # -- saving ------------------------------------------------------------------------
    def save_dialog(self):
        path = self.ask_save_path()
        if path:
            if not path.endswith(SUFFIX):
                path += SUFFIX
            self.save(path)

    def save(self, path):
        s = self.win.session
        if not (s.truth_path and s.sub_path):
            self.show_problem("Nothing to save yet: open a truth and a submission file first")
            return False
        paths = {"truth": s.truth_path, "submission": s.sub_path}
        # a metric file in use is the project's metric_file entry (run again on open,
        # after its question), never a metric name the next session has not registered
        options = self.win.metric_file.session_metric.saved_options()
        changes, view = s.changes(), view_state(self.win)
        compared = [p for p in getattr(s, "compare_paths", ()) if Path(p).is_file()]
        folder = Path(path).resolve().parent
        group = self.win.options_panel.group_column.currentData()
        statistics = {"group_column": group} if group else None
        competition = self.win.options_panel.competition.slug()
        final = dialog_state(self.win)
        mf = getattr(self.win, "metric_file", None)
        metric_file = mf.project_entry(folder) if mf is not None else None

        def job(progress, cancel):
            progress(0.1, "hashing the files")
            refs = [file_ref(paths[r], r, folder, cancel) for r in ROLES]
            others = [file_ref(p, "compare", folder, cancel) for p in compared]
            data = project_json(refs, options, changes, view, others, statistics, metric_file,
                                competition)
            if final is not None and (kept := final_refs(final, folder, cancel)) is not None:
                data["final"] = kept
            write_project(path, data)
            return str(path)

        def done(p):
            self._remember(p)
            self.win.statusBar().showMessage(f"Project saved: {p} ({len(changes)} edit(s))", 8000)
            self.saved.emit(p)
        self.win.jobs.submit("project-save", job, done, on_error=lambda e: self.show_problem(str(e)),
                             cancellable=False)
        return True

    # -- opening -------------------------------------------------------------------------
    def open_dialog(self):
        path = self.ask_open_path()
        if path:
            self.open(path)

    def open(self, path):
        """Read and check the project on the worker, then find its files (asking before
        any outside the project's folder), hash them, load them, replay the edits."""
        self.notes = []
        self.win.jobs.submit("project-open", lambda progress, cancel: read_project(path),
                             self._read, on_error=lambda e: self.show_problem(str(e)))
        return True

    def _read(self, proj):
        path, name = proj.path, Path(proj.path).name
        found = {role: _resolved(locate(proj.files[role], path)) for role in ROLES}
        compared = [_resolved(p) for p in (locate(r, path) for r in proj.compare) if p]
        finals = [p for _, _, p in located(proj.final, path)] if proj.final else []
        outside = outside_folder(path, [p for p in [*found.values(), *compared, *finals] if p])
        if outside and not self.ask_open_outside(name, outside):
            self.show_problem(f"project {name}: not opened (it names files outside its folder: "
                              f"{', '.join(outside)})")
            return
        proj.compare_found = compared
        for role in ROLES:
            ref = proj.files[role]
            p = found[role] or self.ask_for_file(role, ref)
            if not p:
                self.show_problem(f"project {name}: field 'files.{role}.path': {ref.path} is not there "
                                  "any more and no other file was chosen; project not opened")
                return
            try:
                with open(p, "rb"):
                    pass
            except OSError as e:
                self.show_problem(f"project {name}: field 'files.{role}.path': cannot read {p}: "
                                  f"{(e.strerror or str(e)).lower()}")
                return
            found[role] = p

        def job(progress, cancel):
            from ..report.build import sha256_of
            progress(0.1, "checking the files")
            return {r: sha256_of(found[r], cancel) for r in ROLES}
        self.win.jobs.submit("project-open", job, lambda h: self._checked(proj, found, h),
                             on_error=lambda e: self.show_problem(str(e)))

    def _checked(self, proj, found, hashes):
        changed = [r for r in ROLES if hashes[r] != proj.files[r].sha256]
        apply = True
        if changed:
            names = " and ".join(f"the {r} file {Path(found[r]).name}" for r in changed)
            text = (f"{names} changed since the project was saved (its sha256 differs): "
                    f"{len(proj.edits)} saved edit(s) were made on the old content.")
            self.notes.append(text)
            apply = not proj.edits or self.ask_apply_edits(text)
            if not apply:
                self.notes.append("The saved edits were not applied.")

        def go():
            win = self.win
            self._pending = (proj, apply, win.session.options)
            win.options_panel.set_options(proj.options)
            win.session.set_options(proj.options)
            self._disconnect()                   # an earlier open still waiting
            win.scored.connect(self._loaded)     # once the views show it
            win.controller.failed.connect(self._load_failed)
            self._connected = True
            win.controller.open_files(found["truth"], found["submission"])
        # Unsaved edits: the window asks; Save opens the project once written, Cancel keeps all.
        self.win.request_discard(go)

    def _disconnect(self):
        if not self._connected:
            return
        self._connected = False
        for sig, slot in ((self.win.scored, self._loaded),
                          (self.win.controller.failed, self._load_failed)):
            try:
                sig.disconnect(slot)
            except (RuntimeError, TypeError):
                pass

    def _load_failed(self, text):
        self._disconnect()
        if self._pending is not None:        # the options in force before the project
            before = self._pending[2]
            self.win.options_panel.set_options(before)
            self.win.session.set_options(before)
        self._pending = None
        self.show_problem(f"Project not opened: {text}")

    def _loaded(self, report):
        s = self.win.session
        if self._pending is None or s.data is None or report.prepared is not s.data.base:
            return                           # an older score; the project's data comes next
        self._disconnect()
        proj, apply, _ = self._pending
        self._pending = None
        if not (apply and proj.edits):
            self._finish(proj)
            return
        data = s.data

        def decoded(changes):
            if s.data is not data:
                self._refused(proj, f"project {Path(proj.path).name}: the data changed before its "
                                    "edits were read")
            else:
                s.replay(changes)
            self._finish(proj)

        def refused(e):
            self._refused(proj, str(e))
            self._finish(proj)
        self.win.jobs.submit("project-edits", lambda progress, cancel: decode_changes(proj, data),
                             decoded, on_error=refused)

    def _refused(self, proj, text):
        self.notes.append(text)
        self.show_problem(f"{text}\nThe project's edits were not applied (none of them).")

    def _finish(self, proj):
        restore_view(self.win, proj.view)
        self.win.options_panel.set_group_column(proj.statistics.get("group_column"))
        self.win.options_panel.competition.show_slug(proj.competition)
        compared = getattr(proj, "compare_found", None)
        if compared is None:
            compared = [p for p in (locate(r, proj.path) for r in proj.compare) if p]
        if len(compared) < len(proj.compare):
            self.notes.append(f"{len(proj.compare) - len(compared)} compared submission(s) not found")
        if compared and hasattr(self.win.controller, "compare_jobs"):
            self.win.controller.compare_jobs.add(compared)
        if proj.metric_file and getattr(self.win, "metric_file", None) is not None:
            self.win.metric_file.restore(proj.metric_file, proj.path)
        if proj.final:
            self._restore_final(proj)
            return
        self._done(proj)

    def _done(self, proj):
        self._remember(proj.path)
        if self.notes:
            self.win.statusBar().showMessage(" ".join(self.notes), 0)
        self.opened.emit(proj.path)

    def _restore_final(self, proj):
        """The final-submissions dialog with the project's inputs, files hashed on the
        worker first: a file changed since the save is said; results run again."""
        found = located(proj.final, proj.path)

        def job(progress, cancel):
            from ..report.build import sha256_of
            return [sha256_of(p, cancel) if p else None for _, _, p in found]

        def done(hashes):
            from .views.select_view import open_final_dialog
            lines = changes_said(found, hashes)
            self.notes.extend(lines)
            self.win.final_dialog = open_final_dialog(self.win, state_of(proj.final, found), lines)
            self._done(proj)

        def failed(e):
            self.notes.append(f"Final submissions not restored: {e}")
            self._done(proj)
        self.win.jobs.submit("project-final", job, done, on_error=failed)

    # -- recent projects ------------------------------------------------------------------
    def recent(self):
        try:
            return [str(p) for p in json.loads(self.win.settings.value("recent_projects", "[]"))]
        except (TypeError, ValueError):
            return []

    def _remember(self, path):
        path = str(Path(path).resolve())
        items = [path] + [p for p in self.recent() if p != path]
        self.win.settings.setValue("recent_projects", json.dumps(items[:MAX_RECENT]))
        self.fill_recent()

    def fill_recent(self):
        m = self.recent_menu
        if m is None:
            return
        m.clear()
        for p in self.recent():
            m.addAction(Path(p).name, lambda p=p: self.open(p)).setToolTip(p)
        m.setEnabled(bool(self.recent()))


def _resolved(path):
    """The path as opened and as checked against the project's folder (no '..' left)."""
    return str(Path(path).resolve()) if path else path


def outside_folder(project_path, paths):
    """The files among ``paths`` that are not inside the project's folder (links resolved)."""
    folder = Path(project_path).resolve().parent
    out = []
    for p in paths:
        r = Path(p).resolve()
        if folder not in r.parents:
            out.append(str(r))
    return out


def view_state(win):
    """Current inner tab, the view's class names, splitter sizes and the selected table rows."""
    out = {"splitters": {"main": win.splitter.sizes(), "top": win.top_split.sizes()}}
    view = win.tabs.currentWidget()
    if view is not None:
        if hasattr(view, "tabs"):
            out["tab"] = view.tabs.currentIndex()
        if hasattr(view, "names"):
            out["class_names"] = view.names.text()
    t = win.table_panel
    rows = sorted({int(t.model.rows[i.row()]) for i in t.table.selectionModel().selectedRows()
                   if i.row() < len(t.model.rows)}) if t.kind == "joined" else []
    out["selected_rows"] = rows[:1000]
    return out


def restore_view(win, view):
    sp = view.get("splitters", {})
    for key, split in (("main", win.splitter), ("top", win.top_split)):
        sizes = sp.get(key)
        if isinstance(sizes, list) and all(isinstance(x, int) for x in sizes):
            split.setSizes(sizes)
    v = win.tabs.currentWidget()
    if v is not None:
        if isinstance(view.get("tab"), int) and hasattr(v, "tabs"):
            v.tabs.setCurrentIndex(view["tab"])
        if isinstance(view.get("class_names"), str) and hasattr(v, "names"):
            v.names.setText(view["class_names"])
            v.names.editingFinished.emit()
    rows = [r for r in view.get("selected_rows", []) if isinstance(r, int)]
    if rows:
        win.table_panel.select_source_row(rows[0])


def add_menu_entries(win, file_menu, view_menu, before=None):
    """File: Save / Open project, Recent projects, Export report…; View: Watch files."""
    from PySide6.QtGui import QAction, QKeySequence
    from PySide6.QtWidgets import QMenu

    from .report_export import ReportExporter
    from .watch import FileWatcher
    win.projects = Projects(win)
    win.reports = ReportExporter(win)
    win.watch = FileWatcher(win)

    def add(menu, text, slot, keys=None):
        a = QAction(text, menu)
        if keys:
            a.setShortcut(QKeySequence(keys))
        a.triggered.connect(lambda *_: slot())
        menu.insertAction(before, a) if menu is file_menu and before is not None else menu.addAction(a)
        return a
    acts = {"open_project": add(file_menu, "Open &project…", win.projects.open_dialog, "Ctrl+Alt+O"),
            "save_project": add(file_menu, "Save pro&ject as…", win.projects.save_dialog, "Ctrl+Shift+P")}
    recent = win.projects.recent_menu = QMenu("Recent pro&jects", file_menu)
    file_menu.insertMenu(before, recent) if before is not None else file_menu.addMenu(recent)
    acts["export_report"] = add(file_menu, "E&xport report…", win.reports.export_dialog, "Ctrl+E")
    if before is not None:
        file_menu.insertSeparator(before)
    watch = QAction("&Watch files (rescore when they change on disk)", view_menu, checkable=True)
    watch.setShortcut(QKeySequence("Ctrl+Shift+W"))
    watch.toggled.connect(win.watch.set_enabled)
    view_menu.addSeparator()
    view_menu.addAction(watch)
    acts["watch"] = watch
    on = str(win.settings.value("watch_files", "false")).lower() == "true"
    watch.setChecked(on)
    win.projects.fill_recent()
    return acts
