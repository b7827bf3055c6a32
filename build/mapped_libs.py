"""Which of a bundle's shared libraries a running app really maps, and which it never does.

    .venv/bin/python build/mapped_libs.py dist/kmetric-gui                 # offscreen demos + CLI
    .venv/bin/python build/mapped_libs.py dist/kmetric-gui --platform xcb  # the GUI on X (DISPLAY)

Runs the three GUI demos (screenshot mode), `kmetric score` on the three demos as CSV
and as Parquet, and `kmetric report` (plots and PDF drawn with Qt). Polls
/proc/PID/maps of each process (and its children: onefile unpacks into a child)
every few milliseconds and prints the union of the bundle's files that were mapped,
then the bundle's libraries that no run mapped (largest first).
Linux only.
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "resources" / "demo"
METRICS = ("qwk", "lwlrap", "fbeta")


def _children(pid):
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    return [int(k) for k in kids]


def _maps(pid):
    try:
        lines = Path(f"/proc/{pid}/maps").read_text().splitlines()
    except OSError:
        return set()
    return {ln.split(None, 5)[5] for ln in lines if len(ln.split(None, 5)) == 6}


def mapped_files(cmd, env=None, timeout=120.0):
    """Run cmd; return (exit code, every file any of its processes mapped)."""
    seen = set()
    proc = subprocess.Popen(cmd, env={**os.environ, **(env or {})},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    end = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < end:
        todo = [proc.pid]
        while todo:
            pid = todo.pop()
            seen |= _maps(pid)
            todo += _children(pid)
        time.sleep(0.005)
    if proc.poll() is None:
        proc.kill()
    err = proc.communicate()[1].decode(errors="replace")
    if proc.returncode:
        print(f"  exit {proc.returncode}: {err.strip()[-300:]}", file=sys.stderr)
    return proc.returncode, {p for p in seen if p.startswith("/")}


def to_parquet(csv_path, out):
    """The CSV as Parquet with every column a string (as read by the app), without pandas."""
    import pyarrow as pa
    import pyarrow.csv as pcsv
    import pyarrow.parquet as pq
    with open(csv_path, newline="", encoding="utf-8-sig") as f:
        names = next(csv.reader(f))
    opts = pcsv.ConvertOptions(column_types={n: pa.string() for n in names}, strings_can_be_null=False)
    pq.write_table(pcsv.read_csv(csv_path, convert_options=opts), out)


def runs(bundle, tmp, platform):
    gui, cli = str(bundle / "kmetric-gui"), str(bundle / "kmetric")
    env = {"QT_QPA_PLATFORM": platform, "KMETRIC_SETTINGS": str(tmp / "s.ini")}
    for m in METRICS:
        yield f"gui --demo {m}", [gui, "--demo", m, "--screenshot", str(tmp / f"{m}.png")], env
    for m in METRICS:
        truth, sub = DEMO / f"{m}_solution.csv", DEMO / f"{m}_submission.csv"
        yield f"cli score {m} csv", [cli, "score", str(truth), str(sub), "--json"], {}
        pq = []
        for f in (truth, sub):
            pq.append(tmp / (f.stem + ".parquet"))
            to_parquet(f, pq[-1])
        yield f"cli score {m} parquet", [cli, "score", *map(str, pq), "--json"], {}
    truth, sub = DEMO / "qwk_solution.csv", DEMO / "qwk_submission.csv"
    yield "cli report qwk", [cli, "report", str(truth), str(sub), "--out", str(tmp / "report")], env


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("bundle", type=Path, help="onedir folder holding kmetric-gui and kmetric")
    p.add_argument("--platform", default="offscreen", help="QT_QPA_PLATFORM for the GUI runs")
    a = p.parse_args(argv)
    bundle = a.bundle.resolve()
    union, failed = set(), 0
    with tempfile.TemporaryDirectory() as tmp:
        for label, cmd, env in runs(bundle, Path(tmp), a.platform):
            code, files = mapped_files(cmd, env)
            failed += bool(code)
            inside = {os.path.realpath(f) for f in files if f.startswith(str(bundle))}
            print(f"{label:28} exit {code}  {len(inside):3} bundle files mapped")
            union |= inside
    libs = {os.path.realpath(f) for f in bundle.rglob("*") if f.is_file()
            and (".so" in f.name or f.suffix in (".dll", ".pyd", ".dylib"))}
    print(f"\nmapped ({len(union & libs)} of {len(libs)} libraries):")
    for f in sorted(union & libs):
        print(f"  {os.path.getsize(f) / 1e6:7.2f} MB  {os.path.relpath(f, bundle)}")
    unused = sorted(libs - union, key=os.path.getsize, reverse=True)
    print(f"\nnever mapped ({len(unused)} libraries, {sum(map(os.path.getsize, unused)) / 1e6:.1f} MB):")
    for f in unused:
        print(f"  {os.path.getsize(f) / 1e6:7.2f} MB  {os.path.relpath(f, bundle)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
