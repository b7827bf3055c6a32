"""The app's settings file: the user's (QSettings' place for kmetric-gui), or the ini
file KMETRIC_SETTINGS names (tests, portable use)."""
import os

from PySide6.QtCore import QSettings


def settings():
    path = os.environ.get("KMETRIC_SETTINGS")
    if path:
        return QSettings(path, QSettings.IniFormat)
    return QSettings("kmetric_gui", "kmetric-gui")
