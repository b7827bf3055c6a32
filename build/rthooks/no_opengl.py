"""PyInstaller runtime hook: stand-ins for PySide6.QtOpenGL and PySide6.QtOpenGLWidgets.

pyqtgraph imports both at start-up but uses them only when OpenGL drawing is
switched on, which this app never does, so the bundle leaves them out (about
10 MB). These empty modules satisfy the imports; any use fails with a clear error.
"""
import sys
import types


class _NoOpenGLWidget:
    """pyqtgraph subclasses QOpenGLWidget when it is imported; nothing creates one here."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("OpenGL widgets are not included in this build of kmetric-gui")


def _stand_in(name, **attrs):
    module = types.ModuleType(name, "left out of this build (see build/rthooks/no_opengl.py)")
    module.__dict__.update(attrs)

    def __getattr__(attr):
        raise AttributeError(f"{name}.{attr}: OpenGL is not included in this build of kmetric-gui")
    module.__getattr__ = __getattr__
    sys.modules.setdefault(name, module)


_stand_in("PySide6.QtOpenGL")
_stand_in("PySide6.QtOpenGLWidgets", QOpenGLWidget=_NoOpenGLWidget)
