"""setuptools hook: the wheel carries resources/ as package data (kmetric_gui/resources).

Everything else is declared in pyproject.toml. The top-level resources/ folder stays
the one source: a checkout (editable install) reads it directly, see kmetric_gui/paths.py.
"""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


class BuildWithResources(build_py):
    def run(self):
        editable = getattr(self, "editable_mode", False)
        # An in-tree build (pip wheel ., pip install .) reuses build/lib: a module deleted from
        # the sources would stay there and ship in the wheel. Start each build empty.
        stale = Path(self.build_lib) / "kmetric_gui"
        if not editable and stale.is_dir():
            shutil.rmtree(stale)
        super().run()
        if editable:
            return
        source = ROOT / "resources"
        target = Path(self.build_lib) / "kmetric_gui" / "resources"
        for src in sorted(source.rglob("*")):
            if src.is_file() and src.suffix not in (".py", ".pyc") and "__pycache__" not in src.parts:
                dest = target / src.relative_to(source)
                dest.parent.mkdir(parents=True, exist_ok=True)
                self.copy_file(str(src), str(dest))


setup(cmdclass={"build_py": BuildWithResources})
