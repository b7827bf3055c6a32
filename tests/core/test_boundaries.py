"""Layer boundaries: core and the metrics' kernels import numpy only; no metric is
named outside kmetric_gui/metrics/ and the GUI's per-metric views."""
import re
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "kmetric_gui"
HEAVY = ("pandas", "PySide6", "pyqtgraph", "pyarrow")


def _fresh(code):
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_core_imports_no_pandas_or_qt():
    _fresh("import sys, kmetric_gui.core; "
           f"bad = [m for m in {HEAVY!r} if m in sys.modules]; "
           "print(bad); sys.exit(1 if bad else 0)")


def test_every_core_and_kernel_module_imports_numpy_only():
    # kmetric_gui.metrics' own __init__ loads the registry (pyarrow, io): stand in an
    # empty package for it, so only the kernels and what they import are loaded.
    code = f"""
import importlib, pkgutil, sys, types
import kmetric_gui, kmetric_gui.core
stub = types.ModuleType("kmetric_gui.metrics")
stub.__path__ = [{str(PACKAGE / "metrics")!r}]
sys.modules["kmetric_gui.metrics"] = stub
import kmetric_gui.metrics.kernels as kernels
names = [m.name for pkg in (kmetric_gui.core, kernels)
         for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")]
for name in names:
    importlib.import_module(name)
assert len(names) > 20, names
bad = [m for m in {HEAVY!r} if m in sys.modules]
print(bad); sys.exit(1 if bad else 0)
"""
    _fresh(code)


# The grep (issue 26): a metric is one module (+ an optional view); nothing
# else names it.
METRIC_NAMES = re.compile(r"kappa|qwk|lwlrap|fbeta|f-beta|\bauc\b|logloss|log loss|\baccuracy\b"
                          r"|\bf1\b|mapk|map@k|\brmse\b|rmsle|\bmae\b|mcrmse", re.IGNORECASE)
# A key shortcut is not a metric: "F1", "Shift+F1", "Ctrl+Shift+F1".
SHORTCUT = re.compile(r"([\"'])(?:(?:Ctrl|Shift|Alt|Meta)\+)*F1\1")
ALLOWED_DIRS = ("metrics/", "gui/views/")
def metric_name_hits(package=PACKAGE):
    """'file:line: text' of every metric name outside metrics/ and gui/views/."""
    hits = []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package).as_posix()
        if rel.startswith(ALLOWED_DIRS):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if METRIC_NAMES.search(SHORTCUT.sub("", line)):
                hits.append(f"kmetric_gui/{rel}:{n}: {line.strip()}")
    return hits


def test_no_metric_is_named_outside_its_module_and_view():
    hits = metric_name_hits()
    assert not hits, ("metric names outside kmetric_gui/metrics/ and gui/views/ (use the "
                      "metric's hooks, or describe the shape):\n" + "\n".join(hits))


def test_the_scan_finds_a_name_and_skips_shortcuts(tmp_path):
    (tmp_path / "core").mkdir()
    (tmp_path / "metrics").mkdir()
    (tmp_path / "core" / "a.py").write_text('x = 1\nkey = "Shift+F1"\n# the QWK of a pair\n')
    (tmp_path / "metrics" / "b.py").write_text("# weighted kappa lives here\n")
    assert metric_name_hits(tmp_path) == ["kmetric_gui/core/a.py:3: # the QWK of a pair"]
