"""setuptools hook: the wheel carries resources/ as package data (kmetric_gui/resources),
the example metric files (resources/metrics/*.py) included, and the docs the app opens
(Help: docs/metrics.md, as kmetric_gui/resources/docs/metrics.md).

Everything else is declared in pyproject.toml. The top-level resources/ and docs/ folders
stay the one source: a checkout (editable install) reads them directly, see
kmetric_gui/paths.py and gui/dialogs.py.
"""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
HELP_DOCS = ["metrics.md"]          # what Help (gui/dialogs.py) shows


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
        target = Path(self.build_lib) / "kmetric_gui" / "resources"
        files = [(src, target / src.relative_to(ROOT / "resources"))
                 for src in sorted((ROOT / "resources").rglob("*"))
                 if src.is_file() and src.suffix != ".pyc" and "__pycache__" not in src.parts]
        files += [(ROOT / "docs" / name, target / "docs" / name) for name in HELP_DOCS]
        for src, dest in files:
            dest.parent.mkdir(parents=True, exist_ok=True)
            self.copy_file(str(src), str(dest))


setup(cmdclass={"build_py": BuildWithResources})
