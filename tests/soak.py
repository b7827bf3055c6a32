"""The long run of the randomized window test (tests/gui/random_driver.py).

    python tests/soak.py --seeds 100 --steps 200          # seeds 1..100, a tally
    python tests/soak.py --seed 17 --steps 200 -v         # replay one seed, every action
    python tests/soak.py --seed 17 --steps 200 --shrink   # the fewest actions that still fail

Runs offscreen; exit 1 when anything was found.
"""
import argparse
import collections
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "gui"))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=20, help="run seeds FIRST..FIRST+SEEDS-1")
    p.add_argument("--first", type=int, default=1)
    p.add_argument("--seed", type=int, help="replay this seed only")
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--shrink", action="store_true", help="shrink a failing seed's actions")
    p.add_argument("-v", "--verbose", action="store_true")
    args = p.parse_args(argv)
    from PySide6.QtWidgets import QApplication
    app = QApplication.instance() or QApplication([])
    from pyqtgraph.util.garbage_collector import GarbageCollector
    app.garbage_collector = GarbageCollector(interval=1.0)   # as the app: main thread only
    from random_driver import make_plan, run
    seeds = [args.seed] if args.seed is not None else range(args.first, args.first + args.seeds)
    tally, failed, t0, actions = collections.Counter(), [], time.monotonic(), 0
    for seed in seeds:
        lines = []
        log = print if args.verbose else lines.append
        plan = make_plan(seed, args.steps)
        with tempfile.TemporaryDirectory(prefix="kmetric-soak-") as d:
            findings = run(seed, args.steps, Path(d), log=log, plan=plan)
        actions += (findings[0].step + 1) if findings else len(plan)
        for f in findings:
            tally[f.kind] += 1
            print(f"seed {seed}: {f}", flush=True)
        if findings:
            failed.append(seed)
            if args.shrink:
                shrink(seed, plan, findings[0].kind)
        elif not args.verbose:
            print(f"seed {seed}: ok ({len(plan)} actions)", flush=True)
    print(f"\n{len(seeds)} seed(s) x {args.steps} steps: {actions} actions in "
          f"{time.monotonic() - t0:.0f} s; {sum(tally.values())} finding(s) in {len(failed)} "
          f"seed(s){': ' + dict(tally).__repr__() if tally else ''}"
          f"{' — replay: --seed ' + str(failed[0]) + ' -v' if failed else ''}")
    return 1 if failed else 0


def shrink(seed, plan, kind):
    """Drop chunks of actions while the same kind of finding still shows."""
    from random_driver import run

    def fails(p):
        with tempfile.TemporaryDirectory(prefix="kmetric-shrink-") as d:
            return any(f.kind == kind for f in run(seed, len(p), Path(d), plan=p))
    first = next(i for i, (n, _) in enumerate(plan) if n == "open_pair")
    plan = plan[:len(plan)]
    chunk = max(1, len(plan) // 2)
    while chunk >= 1:
        i = first + 1
        while i < len(plan):
            trial = plan[:i] + plan[i + chunk:]
            if fails(trial):
                plan = trial
            else:
                i += chunk
        chunk //= 2
    print(f"seed {seed}: shrunk to {len(plan)} action(s):")
    for n, s in plan:
        print(f"    ({n!r}, {s}),")


if __name__ == "__main__":
    sys.exit(main())
