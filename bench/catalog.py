"""The competition catalog's cost: what it adds to `kmetric score` (issue 35: at most 20 ms).

    .venv/bin/python bench/catalog.py [--repeat 15] [--rows 200000]

Each `kmetric score` a fresh process (the catalog is read once per process), A and B
interleaved, medians of --repeat runs. "off" is the same command with the catalog's
part stubbed out (no header lookup, no file read), so the difference is the catalog's:
  * detect: no metric named; the score's note looks the two headers up in the catalog;
  * competition: `--competition SLUG` against the same metric, options, id and target
    given as flags (with the lookup stubbed: what the flags cost alone).
Then the parts in one process: reading and indexing the JSON, one slug, one header lookup.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHILD = """
import sys
import kmetric_gui.cli.score as s
if sys.argv[1] == "off":
    s.looks_like = lambda args: []
from kmetric_gui.cli import main
import io, contextlib
with contextlib.redirect_stdout(io.StringIO()):
    code = main(sys.argv[2:])
sys.exit(code)
"""


def write_pair(folder, rows):
    sol, sub = os.path.join(folder, "sol.csv"), os.path.join(folder, "sub.csv")
    with open(sol, "w") as f, open(sub, "w") as g:
        f.write("id_code,diagnosis,Usage\n")
        g.write("id_code,diagnosis\n")
        for i in range(rows):
            f.write(f"{i:012x},{i % 5},{'Public' if i % 2 else 'Private'}\n")
            g.write(f"{i:012x},{(i * 7 + 1) % 5}\n")
    return sol, sub


def timed(argv):
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", CHILD, *argv], capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(f"failed: {' '.join(argv)}: {r.stderr}")
    return time.perf_counter() - t0


def ab(a, b, repeat):
    ta, tb = [], []
    for _ in range(repeat):
        ta.append(timed(a))
        tb.append(timed(b))
    return statistics.median(ta), statistics.median(tb)


COLD = """
import sys, time
import kmetric_gui.cli                       # what `kmetric` has imported before the catalog
from kmetric_gui.cli import build_parser
from kmetric_gui.cli import options as o, score as s
from kmetric_gui.metrics import get_metric
mode, sol, sub, slug = sys.argv[1:5]
p = build_parser()
argv = ["score", sol, sub] + (sys.argv[5:] if mode == "flags" else
                              ["--competition", slug] if mode == "competition" else [])
a = p.parse_args(argv)
w, c = time.perf_counter(), time.process_time()
if mode == "detect":
    s.looks_like(a)              # import, read the JSON, two headers, one lookup
else:
    opts = o.options_from_args(a)
    if mode == "competition":    # resolve, merge, check the layout, the output's words
        o.check_competition_layout(a, sol, [sub])
        class Rep:
            options, definition = opts, get_metric(opts.metric)
        o.competition_lines(a, Rep)
        o.competition_json(a, Rep)
print(time.perf_counter() - w, time.process_time() - c)
"""


def cold(sol, sub, slug, flags, repeat):
    """{mode: (wall, cpu)} medians over fresh processes, the modes interleaved: the
    detect note; the settings as flags; the same by --competition."""
    got = {m: ([], []) for m in ("detect", "flags", "competition")}
    for _ in range(repeat):
        for mode, (walls, cpus) in got.items():
            r = subprocess.run([sys.executable, "-c", COLD, mode, sol, sub, slug, *flags],
                               capture_output=True, text=True, check=True)
            wall, cpu = map(float, r.stdout.split())
            walls.append(wall)
            cpus.append(cpu)
    return {m: (statistics.median(w), statistics.median(c)) for m, (w, c) in got.items()}


def parts():
    from kmetric_gui.analysis import competitions as c
    t0 = time.perf_counter()
    c.catalog()
    c._by_slug()
    c._by_header()
    load = time.perf_counter() - t0
    n = 2000
    t0 = time.perf_counter()
    for _ in range(n):
        c.resolve("aptos2019-blindness-detection")
    one = (time.perf_counter() - t0) / n
    t0 = time.perf_counter()
    for _ in range(n):
        c.matching(["id_code", "diagnosis", "Usage"], ["id_code", "diagnosis"])
    look = (time.perf_counter() - t0) / n
    return load, one, look, len(c.catalog())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--rows", type=int, default=200_000)
    args = ap.parse_args()
    slug = "aptos2019-blindness-detection"
    flags = ["--metric", "qwk", "--min-rating", "0", "--max-rating", "4",
             "--id-column", "id_code", "--target-column", "diagnosis"]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for n in (10, args.rows):
            sub = os.path.join(folder, str(n))
            os.mkdir(sub)
            sol, subm = write_pair(sub, n)
            base = ["score", sol, subm]
            off, on = ab(["off", *base], ["on", *base], args.repeat)
            rows.append((f"detect, {n:,} rows", off, on))
            off, on = ab(["off", *base, *flags], ["off", *base, "--competition", slug],
                         args.repeat)
            rows.append((f"--competition, {n:,} rows", off, on))
            if n == args.rows:
                got = cold(sol, subm, slug, flags, args.repeat)
    det = got["detect"]
    comp = tuple(x - y for x, y in zip(got["competition"], got["flags"]))
    print(f"The catalog's own work in a fresh `kmetric` process (cold: module import, JSON "
          f"read, headers), medians of {args.repeat}, ms:")
    print(f"  {'':44} {'wall':>7} {'cpu':>7}")
    print(f"  {'detect note (two headers + lookup)':44} {det[0] * 1e3:7.2f} {det[1] * 1e3:7.2f}")
    for m in ("flags", "competition"):
        w, c = got[m]
        print(f"  {'settings by ' + m:44} {w * 1e3:7.2f} {c * 1e3:7.2f}")
    print(f"  {'--competition beyond the same flags':44} {comp[0] * 1e3:7.2f} {comp[1] * 1e3:7.2f}")
    print(f"\nWhole commands, medians of {args.repeat} fresh `kmetric score` processes each, "
          "interleaved (the machine's noise is tens of ms):\n")
    head = f"{'case':<30} {'without (ms)':>13} {'with (ms)':>10} {'added (ms)':>11}"
    print(head)
    print("-" * len(head))
    worst = 0.0
    for case, off, on in rows:
        worst = max(worst, (on - off) * 1e3)
        print(f"{case:<30} {off * 1e3:>13.1f} {on * 1e3:>10.1f} {(on - off) * 1e3:>11.1f}")
    load, one, look, size = parts()
    print(f"\nin one process: reading and indexing {size} competitions {load * 1e3:.2f} ms; "
          f"a slug {one * 1e6:.1f} us; a header lookup {look * 1e6:.1f} us")
    own = max(det[0], comp[0]) * 1e3
    print(f"catalog's own work at most {own:.1f} ms: {'within' if own <= 20 else 'OVER'} the "
          f"20 ms budget; whole-command differences (largest {worst:.1f} ms) are within the "
          "noise of the runs above")


if __name__ == "__main__":
    main()
