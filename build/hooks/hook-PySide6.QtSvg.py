"""PyInstaller's hook for PySide6.QtSvg (the app exports SVG), minus the Qt plugins the app
never loads (qt_plugins.py)."""
import os
import sys

from PyInstaller.utils.hooks.qt import add_qt6_dependencies

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qt_plugins import filtered  # noqa: E402

hiddenimports, binaries, datas = add_qt6_dependencies(__file__)
binaries = filtered(binaries)
