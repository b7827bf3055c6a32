"""Memory the app gives back when big files are replaced (issue 39 item 7).

    .venv/bin/python bench/memory.py [--rows 1000000] [--pairs 2]

Fresh interpreters (tests/gui/memory_child.py, offscreen): one opens PAIRS big RMSE
pairs and then the RMSE demo, the other only the demo; prints the RSS after each
step and the ratio of the two windows showing the demo (the test wants <= 1.5).
"""
import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "gui"))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--pairs", type=int, default=2)
    args = p.parse_args(argv)
    from test_memory_returned import big_pair, opened
    from kmetric_gui.metrics import REGISTRY
    demo = REGISTRY["rmse"].demo_paths()
    with tempfile.TemporaryDirectory(prefix="kmetric-memory-") as d:
        big = [big_pair(Path(d), seed, args.rows) for seed in range(1, args.pairs + 1)]
        after = opened(*big, demo)
    fresh = opened(demo)
    steps = ", ".join(f"{v:.0f}" for v in after["after"])
    print(f"{args.pairs} x {args.rows:,} rows then the demo: RSS {steps} MB "
          f"(start {after['start']:.0f})")
    print(f"fresh window, demo only: {fresh['after'][-1]:.0f} MB (start {fresh['start']:.0f})")
    print(f"ratio: {after['after'][-1] / fresh['after'][-1]:.2f}")


if __name__ == "__main__":
    main()
