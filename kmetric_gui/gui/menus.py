"""The window's menus: every action has a shortcut, shown in the menu."""
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLineEdit

from .project import add_menu_entries
from .crash import guarded



def _action(menu, text, slot, shortcut=None):
    a = QAction(text, menu)
    if shortcut:
        keys = shortcut if isinstance(shortcut, list) else [shortcut]
        a.setShortcuts([QKeySequence(k) for k in keys])
    a.triggered.connect(lambda *_: slot())
    menu.addAction(a)
    return a


def build_menus(win):
    """Menus of the main window; returns the actions the window enables or renames."""
    acts = {}
    bar = win.menuBar()
    m = bar.addMenu("&File")
    acts["open_truth"] = _action(m, "Open &truth…", lambda: win.browse("truth"), "Ctrl+T")
    acts["open_sub"] = _action(m, "&Open submission…", lambda: win.browse("submission"), "Ctrl+O")
    acts["compare"] = _action(m, "&Add submission to compare…", win.browse_compare, "Ctrl+Shift+O")
    _action(m, "C&lear compared submissions", win.controller.compare_jobs.clear, "Ctrl+Shift+L")
    demo = m.addMenu("Open &demo")
    from .views import demos
    for n, (name, label) in enumerate(demos(), start=1):
        _action(demo, label, lambda name=name: win.open_demo(name),
                f"Ctrl+Alt+{n}" if n <= 9 else None)
    win.recent_menu = m.addMenu("&Recent")
    m.addSeparator()
    acts["save_plain"] = _action(m, "&Save submission", lambda: save_submission(win), "Ctrl+S")
    acts["save"] = _action(m, "Save submission &as…", win.save_as, "Ctrl+Shift+S")
    m.addSeparator()
    acts["reload"] = _action(m, "Re&load files from disk", win.reload_files, "Ctrl+R")
    m.addSeparator()
    _action(m, "&Quit", win.close, "Ctrl+Q")
    e = bar.addMenu("&Edit")
    acts["undo"] = _action(e, "&Undo", win.session.undo, "Ctrl+Z")
    acts["redo"] = _action(e, "&Redo", win.session.redo, ["Ctrl+Shift+Z", "Ctrl+Y"])
    e.addSeparator()
    from . import table_clipboard
    for text, fn, keys in (("&Copy selected rows", table_clipboard.copy_rows, "Ctrl+C"),
                           ("&Paste into the table", table_clipboard.paste, "Ctrl+V")):
        a = _action(e, text, lambda fn=fn: fn(win.table_panel), keys)
        # The keys act in the table (its own actions): shown here, not window-wide,
        # so Ctrl+C / Ctrl+V elsewhere (the filter box, a chart) keep their meaning.
        a.setShortcutContext(Qt.WidgetShortcut)
    _action(e, "&Filter rows", lambda: win.table_panel.filter.setFocus(), "Ctrl+F")
    _action(e, "Show &all rows", win.table_panel.clear_filters, "Ctrl+Shift+A")
    s = bar.addMenu("&Score")
    acts["rescore"] = _action(s, "&Rescore (current data, edits kept)", win.controller.rescore, "F5")
    acts["cancel"] = _action(s, "&Cancel running work", win.controller.cancel, "Esc")
    _action(s, "&Final submissions and medal odds…", lambda: _final(win), "Ctrl+Shift+F")
    v = bar.addMenu("&View")
    for dock in win.docks:
        a = dock.toggleViewAction()
        v.addAction(a)
    v.addSeparator()
    _action(v, "Reset &layout", win.reset_layout, "Ctrl+Shift+R")
    acts.update(add_menu_entries(win, m, v, before=acts["save"]))
    h = bar.addMenu("&Help")
    _action(h, "&Metrics explained", win.show_help, "F1")
    _action(h, "&Keyboard shortcuts", win.show_shortcuts, "Ctrl+/")
    _action(h, "&About kmetric", win.show_about, "Ctrl+Shift+F1")
    for n, dock in enumerate(win.docks, start=1):
        dock.toggleViewAction().setShortcut(QKeySequence(f"Ctrl+{n}"))
    win.window_keys = WindowKeysFirst(win)
    for box in win.findChildren(QLineEdit):
        box.installEventFilter(win.window_keys)
    return acts


def save_submission(win):
    """Ctrl+S: write the submission over the file it came from (Save as… without one)."""
    s = win.session
    if s.data is None:
        return
    from pathlib import Path

    from ..paths import in_app_files
    if s.sub_path and not in_app_files(Path(s.sub_path).parent):
        win.save_to(s.sub_path)
    else:                       # no file yet, or a demo of the app's own: never written over
        win.save_as()


class WindowKeysFirst(QObject):
    """On X11 a line edit takes Ctrl+E (end of line, emacs style) before the window
    sees it: in the filter box Ctrl+E did nothing. Such keys go to the window's action
    when one has them; every standard editing key (copy, undo, ...) stays with the box."""

    STOLEN = ("Ctrl+E",)

    def __init__(self, win):
        super().__init__(win)
        self.keys = {QKeySequence(k) for k in self.STOLEN}

    @guarded
    def eventFilter(self, obj, event):
        if event.type() == QEvent.ShortcutOverride:
            seq = QKeySequence(event.keyCombination())
            if seq in self.keys:
                event.ignore()          # not overridden: the window's shortcut runs
                return True
        return False


def _final(win):
    from .views.select_view import open_final_dialog
    win.final_dialog = open_final_dialog(win)      # kept: a shown dialog needs an owner
