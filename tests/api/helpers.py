"""The CLI's JSON for the API's tests: `kmetric` run in this process (cli.main), as its
own script runs it, output captured."""
import contextlib
import io
import json
import math
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo"


def kmetric(*args):
    """(exit code, JSON object or None, stderr lines) of `kmetric ARGS --json`."""
    from kmetric_gui.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args] + ["--json"])
    text = out.getvalue().strip()
    return code, (json.loads(text) if text else None), err.getvalue().splitlines()


def problems_of(stderr_lines):
    return [line[len("kmetric: "):] for line in stderr_lines if line.startswith("kmetric: ")]


def same(a, b, path="$"):
    """a == b with nan equal to nan (and None to None); AssertionError naming the key."""
    if isinstance(a, dict) and isinstance(b, dict):
        assert set(a) == set(b), f"{path}: keys {sorted(set(a) ^ set(b))} differ"
        for k in a:
            same(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        assert len(a) == len(b), f"{path}: lengths {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{path}[{i}]")
    elif isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        pass
    else:
        assert a == b, f"{path}: {a!r} != {b!r}"


def demo(metric):
    """The metric's demo (solution, submission, the second submission), as it names them
    (error rate's demo is accuracy's files)."""
    from pathlib import Path
    from kmetric_gui.metrics import get_metric
    sol, sub = map(Path, get_metric(metric).demo_paths())
    return sol, sub, sub.with_name(sub.stem + "_b.csv")


def json_round(d):
    """A dict as the CLI prints it and reads back (tuples as lists, NaN kept)."""
    return json.loads(json.dumps(d))
