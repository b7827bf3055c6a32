"""`kmetric score` does only what its output needs: no pandas on a binary-probability
pair, DeLong's interval only when the JSON (which shows it) is asked for."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kmetric_gui.cli import main
from kmetric_gui.metrics.kernels import ranking

ROOT = Path(__file__).resolve().parents[2]


def auc_pair(tmp_path, n=400, seed=3):
    g = np.random.default_rng(seed)
    ids = [f"{v:012x}" for v in g.choice(2 ** 48, n, replace=False)]
    y = g.random(n) < 0.3
    p = np.clip(g.normal(0.35 + 0.3 * y, 0.2), 0.001, 0.999)
    order = g.permutation(n)
    sol, sub = tmp_path / "sol.csv", tmp_path / "sub.csv"
    sol.write_text("id,target\n" + "".join(f"{i},{int(t)}\n" for i, t in zip(ids, y)))
    sub.write_text("id,target\n" + "".join(f"{ids[k]},{p[k]:.6f}\n" for k in order))
    return sol, sub, y, np.array([float(f"{v:.6f}") for v in p])   # as written


def test_score_of_a_probability_pair_imports_no_pandas(tmp_path):
    # pyarrow's np.asarray(chunk) imported pandas (0.4 s) in the float columns' check
    sol, sub, _, _ = auc_pair(tmp_path)
    out = tmp_path / "mods.txt"
    code = ("import sys; from kmetric_gui.cli import main; "
            f"code = main(['score', '--metric', 'auc', {str(sol)!r}, {str(sub)!r}]); "
            "open(sys.argv[1], 'w').write(repr((code, sorted(m for m in sys.modules "
            "if m.split('.')[0] in ('pandas', 'scipy', 'sklearn')))))")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", code, str(out)], cwd=ROOT, env=env,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert out.read_text() == "(0, [])"


def test_delong_only_for_the_json(tmp_path, monkeypatch, capsys):
    sol, sub, y, p = auc_pair(tmp_path)
    calls = []
    real = ranking.delong
    monkeypatch.setattr(ranking, "delong", lambda *a, **k: calls.append(1) or real(*a, **k))
    assert main(["score", "--metric", "auc", str(sol), str(sub)]) == 0
    text = capsys.readouterr().out
    assert calls == [] and "score:" in text
    assert main(["score", "--json", "--metric", "auc", str(sol), str(sub)]) == 0
    d = json.loads(capsys.readouterr().out)
    assert calls == [1]
    want = real(y, p)
    assert d["delong"]["se"] == pytest.approx(float(np.sqrt(want.covariance[0, 0])), rel=1e-12)
    assert d["delong"]["low"] < d["score"] < d["delong"]["high"]
    assert list(d)[:8] == ["metric", "score", "higher_is_better", "n_rows", "per_column",
                           "positives", "negatives", "delong"]
