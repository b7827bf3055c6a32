"""The window's menus: every action has a shortcut, shown in the menu."""
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence

from .project import add_menu_entries

DEMOS = {"qwk": "weighted kappa (APTOS-like)", "lwlrap": "LwLRAP (FSDKaggle2019-like)",
         "fbeta": "Jaccard F-beta (Coleridge-like)"}


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
    for n, (name, label) in enumerate(DEMOS.items(), start=1):
        _action(demo, label, lambda name=name: win.open_demo(name), f"Ctrl+Alt+{n}")
    win.recent_menu = m.addMenu("&Recent")
    m.addSeparator()
    acts["save"] = _action(m, "&Save submission as…", win.save_as, "Ctrl+Shift+S")
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
    return acts


def _final(win):
    from .views.select_view import open_final_dialog
    win.final_dialog = open_final_dialog(win)      # kept: a shown dialog needs an owner


def shortcut_rows(window):
    """(menu path, shortcut) of every action with a shortcut, for the Help list."""
    rows = []

    def walk(menu, path):
        for a in menu.actions():
            if a.menu():
                walk(a.menu(), path + [a.text().replace("&", "")])
            elif not a.isSeparator() and not a.shortcut().isEmpty():
                rows.append((" > ".join(path + [a.text().replace("&", "")]),
                             a.shortcut().toString(QKeySequence.NativeText)))
    for a in window.menuBar().actions():
        walk(a.menu(), [a.text().replace("&", "")])
    return rows
