"""PyInstaller hook for PySide6.QtGui: PyInstaller's own, minus the Qt plugins the app never loads.

Leaving them out here, before PyInstaller follows their library dependencies, keeps
those dependencies out too (the GTK theme plugin alone brings GTK, cairo and pango).
"""
from pathlib import Path

from PyInstaller.utils.hooks.qt import add_qt6_dependencies

# Plugin folders left out whole; the one that Qt falls back from cleanly when absent.
DROP_TYPES = {"platformthemes", "egldeviceintegrations", "generic", "imageformats", "iconengines",
              "wayland-decoration-client", "wayland-graphics-integration-client",
              "wayland-shell-integration"}
# Folders where only these plugins are kept (names without "lib" and extension).
KEEP_ONLY = {"platforms": {"qoffscreen", "qxcb", "qwindows", "qcocoa"},
             "platforminputcontexts": {"composeplatforminputcontextplugin"}}


def keep(src):
    path = Path(src)
    kind, name = path.parent.name, path.name.split(".")[0]
    name = name[3:] if name.startswith("lib") else name
    if kind in DROP_TYPES:
        return False
    return kind not in KEEP_ONLY or name in KEEP_ONLY[kind]


hiddenimports, binaries, datas = add_qt6_dependencies(__file__.replace("\\", "/"))
binaries = [(src, dest) for src, dest in binaries if "/plugins" not in dest.replace("\\", "/")
            or keep(src)]
