"""Copy and paste in the main table (Ctrl+C, Ctrl+V), as spreadsheets do.

Copy puts the selected rows on the clipboard as tab-separated text, header
first, cells as shown (text cells that a spreadsheet would run as formulas
get a leading quote). Paste reads a tab-separated block into the editable
cells from the current cell right and down (a single value fills the current
column of every selected row); the whole block is one edit, one undo step,
and a refused value refuses the block: nothing is half-pasted.
"""
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence

from ..io.saving import spreadsheet_safe

# Cells are read and parsed one by one on the UI thread (15 us a cell): beyond this
# many rows the table's Export (on a worker) is the way, said in the status bar.
MAX_ROWS = 10_000


def install(panel):
    for name, keys, slot in (("Copy rows", QKeySequence.Copy, lambda: copy_rows(panel)),
                             ("Paste", QKeySequence.Paste, lambda: paste(panel))):
        act = QAction(name, panel.table)
        act.setShortcut(keys)
        act.setShortcutContext(Qt.WidgetWithChildrenShortcut)
        act.triggered.connect(slot)
        panel.table.addAction(act)


def _visual_columns(panel):
    hh = panel.table.horizontalHeader()
    return [hh.logicalIndex(v) for v in range(hh.count()) if not hh.isSectionHidden(hh.logicalIndex(v))]


def _selected_rows(table):
    """View rows of the selection, from its ranges (no Python object per cell)."""
    sel = table.selectionModel()
    if sel is None:
        return []
    rows = set()
    for rng in sel.selection():
        rows.update(range(rng.top(), rng.bottom() + 1))
    return sorted(rows)


def copy_rows(panel):
    """The selected rows (all shown columns, in the order shown) as TSV text."""
    m = panel.model
    rows = _selected_rows(panel.table)
    if not rows:
        return None
    if len(rows) > MAX_ROWS:
        panel.controller.message.emit(
            f"Copy takes at most {MAX_ROWS:,} rows at a time ({len(rows):,} selected): "
            "Export writes the whole table", 0)
        return None
    cols = _visual_columns(panel)
    lines = ["\t".join(spreadsheet_safe(str(m.headerData(c, Qt.Horizontal))) for c in cols)]
    for r in rows:
        lines.append("\t".join(spreadsheet_safe(str(m.data(m.index(r, c)) or "")) for c in cols))
    text = "\n".join(lines) + "\n"
    QGuiApplication.clipboard().setText(text)
    panel.controller.message.emit(f"Copied {len(rows)} row(s)", 4000)
    return text


def _block(text):
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.split("\t") for line in lines]


def paste(panel, text=None):
    """Paste ``text`` (default: the clipboard) at the current cell; the refusal in
    words, or None when pasted."""
    m, table = panel.model, panel.table
    text = QGuiApplication.clipboard().text() if text is None else text
    block = _block(text)
    cur = table.currentIndex()
    if m.edit_handler is None:
        return _refuse(panel, "this table is a file as read (it failed validation): "
                       "nothing in it is edited")
    if not block or not cur.isValid():
        return _refuse(panel, "select a cell of the table first" if block else "the clipboard is empty")
    cols = _visual_columns(panel)
    start = cols.index(cur.column())
    if len(block) > MAX_ROWS:
        return _refuse(panel, f"at most {MAX_ROWS:,} rows at a time ({len(block):,} given)")
    if len(block) == 1 and len(block[0]) == 1:            # one value: every selected row
        rows = sorted(set(_selected_rows(table)) | {cur.row()})
        if len(rows) > MAX_ROWS:
            return _refuse(panel, f"at most {MAX_ROWS:,} rows at a time ({len(rows):,} selected)")
        targets = [(r, cur.column(), block[0][0]) for r in rows]
    else:
        if cur.row() + len(block) > m.rowCount() or start + max(map(len, block)) > len(cols):
            return _refuse(panel, f"a block of {len(block)} row(s) x {max(map(len, block))} "
                           "column(s) runs past the table's edge")
        targets = [(cur.row() + i, cols[start + j], v) for i, line in enumerate(block)
                   for j, v in enumerate(line)]
    cells, names = [], {}
    for r, c, v in targets:
        col = m.columns[c]
        if not col.editable:
            return _refuse(panel, f"column '{col.name}' is not editable")
        cells.append((col.spec, int(m.rows[r]), v))
        names[col.spec] = col.name
    return panel.controller.paste(cells, names)


def _refuse(panel, why):
    panel.controller.message.emit(f"Paste refused, nothing changed — {why}", 0)
    return why
