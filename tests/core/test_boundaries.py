"""The core imports numpy only: no pandas, no Qt (checked in a fresh interpreter)."""
import subprocess
import sys


def test_core_imports_no_pandas_or_qt():
    code = ("import sys, kmetric_gui.core; "
            "bad = [m for m in ('pandas', 'PySide6', 'pyqtgraph', 'pyarrow') if m in sys.modules]; "
            "print(bad); sys.exit(1 if bad else 0)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
