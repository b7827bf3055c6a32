"""Which Qt plugins the bundle keeps (used by the PySide6 hooks in this folder).

Plugins are left out in the hooks, before PyInstaller follows their library
dependencies, so those dependencies stay out too (the GTK theme plugin alone
brings GTK, cairo and pango).
"""
from pathlib import Path

# Plugin folders left out whole: Qt falls back cleanly when they are absent.
DROP_TYPES = {"platformthemes", "egldeviceintegrations", "generic", "imageformats", "iconengines",
              "networkinformation", "tls", "wayland-decoration-client",
              "wayland-graphics-integration-client", "wayland-shell-integration"}
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


def filtered(binaries):
    """The hook's (src, dest) binaries without the plugins the app never loads."""
    return [(src, dest) for src, dest in binaries
            if "/plugins" not in dest.replace("\\", "/") or keep(src)]
