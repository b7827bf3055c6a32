"""Where the shipped resources are: the repository, or a PyInstaller bundle."""
import sys
from pathlib import Path


def resources_dir():
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen) / "resources"
    return Path(__file__).resolve().parents[1] / "resources"
