"""End-to-end file scoring: `kmetric score` against pyarrow's read and DuckDB.

    .venv/bin/python bench/files.py [--rows 5000000 30000000 60000000] [--repeat R]
    .venv/bin/python bench/files.py --hand        # also the pandas + sklearn rows

Every run is a fresh subprocess (imports included) timed and measured with
GNU time (wall seconds, peak RSS), on the same files, side by side in one
run (the machine is shared: compare within a run, not across runs):

- kappa pairs with 12-hex ids, rows shuffled between the files: `kmetric
  score` vs pyarrow reading both files alone (ids as text) vs DuckDB doing
  the validated join (full outer join, duplicate, missing, extra and value
  checks, then the confusion counts; `pip install .[bench]`). Bytes/row is
  peak RSS above `python -c "import numpy, pyarrow"`, divided by the rows.
- "same, parsed by Arrow": every piece through Arrow's CSV parser, as for
  lines of varying width (the bench files' lines all have one width, so
  `kmetric score` cuts them without a parser).
- "same, after F-beta": the kappa pair loaded and scored through the Python API in a
  process that first scored a 10-row F-beta pair (as the app does when files change).
- LwLRAP and F-beta pairs (F-beta at two sizes: --fb-rows, --fb-big): peak
  RSS against the two files' size on disk, above that baseline and above
  the peak of the same command on a 10-row pair of the same kind (what the
  code loaded for that metric costs whatever the data: pyarrow.compute alone
  is about 9 MB).

CPU seconds (user + system) are printed beside the wall time: under load
from other processes they show the work itself. The package is byte-compiled
first, as an installed one is (pip compiles it): otherwise, with
PYTHONDONTWRITEBYTECODE set, every run would compile it again.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

READ_ALONE = """
import sys, pyarrow as pa, pyarrow.csv as c
for p in sys.argv[1:3]:
    t = c.read_csv(p, convert_options=c.ConvertOptions(column_types={"id_code": pa.string()}))
print(t.num_rows)
"""

DUCK = """
import sys, duckdb
con = duckdb.connect()
con.execute("SET threads TO 2")
con.execute("SET enable_progress_bar = false")
q = lambda p: f"read_csv('{p}', header=true, columns={{'id_code': 'VARCHAR', 'diagnosis': 'VARCHAR'}})"
for name, path in (("s", sys.argv[1]), ("u", sys.argv[2])):
    con.execute(f"CREATE TEMP TABLE {name} AS SELECT id_code, diagnosis, "
                f"TRY_CAST(diagnosis AS BIGINT) AS v FROM {q(path)}")
checks = con.execute('''
  SELECT (SELECT count(*) - count(DISTINCT id_code) FROM s),
         (SELECT count(*) - count(DISTINCT id_code) FROM u),
         (SELECT count(*) FROM s WHERE v IS NULL OR id_code = ''),
         (SELECT count(*) FROM u WHERE v IS NULL OR id_code = '')''').fetchone()
rows = con.execute('''
  SELECT s.v AS t, u.v AS p, (s.id_code IS NULL) AS extra, (u.id_code IS NULL) AS missing, count(*)
  FROM s FULL OUTER JOIN u ON s.id_code = u.id_code GROUP BY ALL''').fetchall()
bad = [r for r in rows if r[2] or r[3]]
assert not any(checks) and not bad, (checks, bad[:3])
lo = min(min(r[0], r[1]) for r in rows); hi = max(max(r[0], r[1]) for r in rows); k = hi - lo + 1
import numpy as np
o = np.zeros((k, k))
for t, p, _, _, n in rows:
    o[t - lo, p - lo] += n
w = (np.arange(k)[:, None] - np.arange(k)[None, :]) ** 2 / (k - 1) ** 2
e = np.outer(o.sum(1), o.sum(0)) / o.sum()
print(1 - (w * o).sum() / (w * e).sum())
"""

HAND = """
import sys, pandas as pd
from sklearn.metrics import cohen_kappa_score
sol = pd.read_csv(sys.argv[1], dtype={"id_code": str}); sub = pd.read_csv(sys.argv[2], dtype={"id_code": str})
m = sol.merge(sub, on="id_code", suffixes=("_t", "_p"))
print(cohen_kappa_score(m.diagnosis_t, m.diagnosis_p, weights="quadratic"))
"""

# Every piece through Arrow's parser, as for lines of varying width (the entry point is
# imported first: it chooses numpy's sort kernels before numpy is imported).
PARSED = """
import sys
from kmetric_gui.cli import main
from kmetric_gui.metrics import kappa_reader as lean_kappa
lean_kappa.layout = lambda *a: None
sys.exit(main(["score", sys.argv[1], sys.argv[2], "--json"]))
"""

# The app loads many pairs in one process: a kappa pair read after an F-beta pair must
# not keep F-beta's allocator (every 4 MB piece mapped afresh: 1.6x slower before).
AFTER_FBETA = """
import sys
from kmetric_gui.cpu import prefer_avx2_sort
prefer_avx2_sort()          # as the app's entry point does, before numpy is imported
from kmetric_gui.analysis.scoring import load, score_prepared
score_prepared(load(sys.argv[3], sys.argv[4]))
print(score_prepared(load(sys.argv[1], sys.argv[2])).result.score)
"""

BASELINE = "import numpy, pyarrow"
TINY = 10           # rows of the pair whose peak is the code's fixed cost
_HEX = np.frombuffer(b"0123456789abcdef", np.uint8)


def _lines(ids, vals):
    """(n, 15) bytes: 12 hex digits, a comma, one digit, a newline."""
    n = ids.size
    m = np.empty((n, 15), np.uint8)
    for j in range(12):
        m[:, 11 - j] = _HEX[(ids >> np.uint64(4 * j)) & np.uint64(15)]
    m[:, 12] = ord(",")
    m[:, 13] = ord("0") + vals
    m[:, 14] = ord("\n")
    return m


def make_kappa(folder, n, seed=0):
    sol, sub = os.path.join(folder, f"k_sol_{n}.csv"), os.path.join(folder, f"k_sub_{n}.csv")
    if os.path.exists(sub):
        return sol, sub
    rng = np.random.default_rng(seed)
    ids = np.unique(rng.integers(0, 2 ** 48, int(n * 1.01), dtype=np.uint64))
    ids = ids[rng.permutation(ids.size)[:n]]
    t = rng.integers(0, 5, n).astype(np.uint8)
    p = np.clip(t.astype(np.int16) + rng.integers(-1, 2, n), 0, 4).astype(np.uint8)
    order = rng.permutation(n)
    step = 5_000_000
    for path, o in ((sol, None), (sub, order)):
        with open(path + ".tmp", "wb") as f:
            f.write(b"id_code,diagnosis\n")
            for a in range(0, n, step):
                sel = slice(a, a + step) if o is None else o[a:a + step]
                f.write(_lines(ids[sel], (t if o is None else p)[sel]).tobytes())
        os.replace(path + ".tmp", path)
    return sol, sub


def make_lwlrap(folder, n, c, seed=1):
    sol, sub = os.path.join(folder, f"l_sol_{n}.csv"), os.path.join(folder, f"l_sub_{n}.csv")
    if not os.path.exists(sub):
        rng = np.random.default_rng(seed)
        names = [f"{x:08x}.wav" for x in np.unique(rng.integers(0, 2 ** 32, int(n * 1.02)))[:n]]
        cls = [f"class_{j:02d}" for j in range(c)]
        truth = (rng.random((n, c)) < 1.3 / c).astype(int)
        scores = np.round(rng.random((n, c)), 4)
        with open(sol, "w") as f:
            f.write("fname," + ",".join(cls) + "\n")
            for i in range(n):
                f.write(names[i] + "," + ",".join(map(str, truth[i])) + "\n")
        with open(sub, "w") as f:
            f.write("fname," + ",".join(cls) + "\n")
            for i in rng.permutation(n):
                f.write(names[i] + "," + ",".join(map(str, scores[i])) + "\n")
    return sol, sub


def make_fbeta(folder, n, seed=2):
    sol, sub = os.path.join(folder, f"f_sol_{n}.csv"), os.path.join(folder, f"f_sub_{n}.csv")
    if not os.path.exists(sub):
        rng = np.random.default_rng(seed)
        words = [f"w{i}" for i in range(500)]
        with open(sol, "w") as f, open(sub, "w") as g:
            f.write("Id,PredictionString\n")
            g.write("Id,PredictionString\n")
            for i in range(n):
                k = rng.integers(0, 4)
                items = ["".join(" ".join(rng.choice(words, 3))) for _ in range(k)]
                f.write(f"doc{i:07d},{'|'.join(items)}\n")
                pred = items[:1] + [" ".join(rng.choice(words, 3)) for _ in range(rng.integers(0, 3))]
                g.write(f"doc{i:07d},{'|'.join(pred)}\n")
    return sol, sub


def measured(cmd, env=None):
    """(seconds, peak RSS bytes, stdout, CPU seconds) of one fresh process (GNU time)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        r = subprocess.run(["/usr/bin/time", "-f", "%e %M %U %S", "-o", tf.name, *cmd],
                           capture_output=True, text=True, env=env)
        if r.returncode != 0:
            raise SystemExit(f"failed: {' '.join(cmd[:4])}\n{r.stderr[-2000:]}")
        secs, kb, user, system = tf.read().split()[-4:]
    return float(secs), int(kb) * 1024, r.stdout, float(user) + float(system)


def median_run(cmd, repeat, env=None):
    runs = [measured(cmd, env) for _ in range(repeat)]
    runs.sort(key=lambda r: r[0])
    mid = runs[len(runs) // 2]
    return mid[0], max(r[1] for r in runs), runs[0][2], mid[3]


def have_duckdb():
    return subprocess.run([sys.executable, "-c", "import duckdb"], capture_output=True).returncode == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, nargs="+", default=[5_000_000])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--big-repeat", type=int, default=1, help="runs at 30M rows and more")
    ap.add_argument("--lw-rows", type=int, default=100_000)
    ap.add_argument("--fb-rows", type=int, default=200_000)
    ap.add_argument("--fb-big", type=int, default=1_000_000,
                    help="documents of a second F-beta pair (0: none)")
    ap.add_argument("--hand", action="store_true", help="also pandas merge + sklearn")
    ap.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "kmetric_bench"))
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    py = sys.executable
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    kmetric = [py, "-m", "kmetric_gui.cli", "score"]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    subprocess.run([py, "-m", "compileall", "-q", os.path.join(root, "kmetric_gui")], check=True)
    base = median_run([py, "-c", BASELINE], 3)[1]
    duck = have_duckdb()
    print(f"baseline peak RSS (python -c '{BASELINE}'): {base / 1e6:.0f} MB; "
          f"duckdb {'present' if duck else 'missing: pip install .[bench]'}")
    head = (f"{'case':<26} {'tool':<22} {'time (s)':>9} {'CPU (s)':>8} {'peak MB':>8} {'B/row':>6} "
            f"{'t / read':>8} {'mem / read':>10}")
    print(head)
    print("-" * len(head))
    for n in args.rows:
        sol, sub = make_kappa(args.dir, n)
        rep = args.repeat if n < 30_000_000 else args.big_repeat
        rows = []
        read = median_run([py, "-c", READ_ALONE, sol, sub], rep)
        rows.append(("pyarrow read alone", read))
        ours = median_run(kmetric + [sol, sub, "--json"], rep, env)
        score = json.loads(ours[2])["score"]
        rows.append(("kmetric score", ours))
        if n < 30_000_000:
            p = median_run([py, "-c", PARSED, sol, sub], rep, env)
            assert json.loads(p[2])["score"] == score
            rows.append(("same, parsed by Arrow", p))
            a = median_run([py, "-c", AFTER_FBETA, sol, sub, *make_fbeta(args.dir, TINY)], rep, env)
            assert abs(float(a[2].split()[-1]) - score) < 1e-12
            rows.append(("same, after F-beta", a))
        if duck:
            d = median_run([py, "-c", DUCK, sol, sub], rep)
            assert abs(float(d[2].split()[-1]) - score) < 1e-9, (d[2][-200:], score)
            rows.append(("duckdb validated join", d))
        if args.hand and n <= 10_000_000:
            h = median_run([py, "-c", HAND, sol, sub], rep)
            assert abs(float(h[2]) - score) < 1e-9
            rows.append(("pandas merge + sklearn", h))
        for tool, (secs, peak, _, cpu) in rows:
            mem = (peak - base) / (read[1] - base)
            print(f"{f'kappa {n:,} rows':<26} {tool:<22} {secs:>9.2f} {cpu:>8.1f} {peak / 1e6:>8.0f} "
                  f"{(peak - base) / n:>6.1f} {secs / read[0]:>7.2f}x {mem:>9.2f}x")
    pairs = [(f"lwlrap {args.lw_rows:,} x 80", make_lwlrap(args.dir, args.lw_rows, 80),
              make_lwlrap(args.dir, TINY, 80))]
    pairs += [(f"fbeta {n:,} docs", make_fbeta(args.dir, n), make_fbeta(args.dir, TINY))
              for n in dict.fromkeys((args.fb_rows, args.fb_big)) if n]
    fixed = {}
    for label, (sol, sub), tiny in pairs:
        kind = label.split()[0]
        if kind not in fixed:     # the code a pair of this kind loads: peak on a 10-row pair
            fixed[kind] = median_run(kmetric + [*tiny, "--json"], args.repeat, env)[1]
            print(f"{kind + f' {TINY} rows':<26} {'kmetric score':<22} {'':>9} {'':>8} "
                  f"{fixed[kind] / 1e6:>8.0f}   (code loaded: {(fixed[kind] - base) / 1e6:.0f} MB "
                  "above the baseline)")
        size = os.path.getsize(sol) + os.path.getsize(sub)
        secs, peak, _, cpu = median_run(kmetric + [sol, sub, "--json"], args.repeat, env)
        print(f"{label:<26} {'kmetric score':<22} {secs:>9.2f} {cpu:>8.1f} {peak / 1e6:>8.0f} {'':>6} "
              f"{'':>8} {'':>10}   files {size / 1e6:.1f} MB; peak above the baseline "
              f"{(peak - base) / size:.2f}x the files, above the {TINY}-row pair "
              f"{(peak - fixed[kind]) / size:.2f}x")


if __name__ == "__main__":
    main()
