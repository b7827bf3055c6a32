"""What-if editing latency: one confusion-matrix cell edited -> every view updated.

    .venv/bin/python bench/whatif.py

Times set-cell -> kappa_from_confusion -> six heatmaps, class balance and
distance cost redrawn and painted (grab), median of repeated edits per K.
Target: under 50 ms for K <= 20.
"""
import os
import statistics
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402


def main():
    app = QApplication.instance() or QApplication([])
    from kmetric_gui.gui.views.kappa_view import KappaView
    view = KappaView()
    view.resize(1200, 700)
    view.show()
    view.source.setCurrentIndex(view.source.findData("whatif-empty"))
    rng = np.random.default_rng(0)
    print(f"{'K':>4} {'median edit -> painted (ms)':>30} {'max (ms)':>10}")
    for k in (5, 10, 20, 30, 40):
        view.k_spin.setValue(k)
        for i in range(k):
            view.set_whatif_cell(i, i, 50)
        app.processEvents()
        times = []
        for _ in range(15):
            i, j = rng.integers(0, k, 2)
            t0 = time.perf_counter()
            view.set_whatif_cell(int(i), int(j), int(rng.integers(0, 100)))
            view.grab()                       # forces layout and paint of every plot
            times.append((time.perf_counter() - t0) * 1000)
        print(f"{k:>4} {statistics.median(times):>30.1f} {max(times):>10.1f}")
    view.close()


if __name__ == "__main__":
    main()
