"""Every competition of the catalog, scored through `kmetric score --competition SLUG
--json` on a synthetic pair shaped as its files, equals the competition's number from an
independent reference (tests/catalog/shapes.py)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shapes import make_pair

from kmetric_gui.cli import main

DATA = Path(__file__).resolve().parents[2] / "kmetric_gui" / "analysis" / "competitions.json"
CATALOG = json.loads(DATA.read_text(encoding="utf-8"))["competitions"]
SCORED = [c for c in CATALOG if c["metric"]]
UNSCORED = [c for c in CATALOG if not c["metric"]]


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_catalog_holds_at_least_100_competitions_with_known_metrics():
    from kmetric_gui.metrics import REGISTRY
    slugs = [c["slug"] for c in CATALOG]
    assert len(slugs) == len(set(slugs)) and len(SCORED) >= 100
    for c in CATALOG:
        assert c["metric"] is None or c["metric"] in REGISTRY, c["slug"]
        assert c["metric"] or c.get("metric_file_needed"), c["slug"]
        declared = {o.name for o in REGISTRY[c["metric"]].options} if c["metric"] else set()
        assert set(c["options"]) <= declared, c["slug"]


@pytest.mark.parametrize("c", SCORED, ids=[c["slug"] for c in SCORED])
def test_each_competition_scores_as_its_reference(c, tmp_path, capsys):
    sol, sub, want = make_pair(c, tmp_path)
    code, out, err = run(capsys, "score", sol, sub, "--competition", c["slug"], "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["metric"] == c["metric"]
    assert d["score"] == pytest.approx(want, rel=1e-9, abs=1e-12)
    comp = d["competition"]
    assert comp["slug"] == c["slug"] and comp["metric"] == c["metric"]
    for k, v in c["options"].items():
        assert comp["options"][k] == v
    assert ("metric_file_needed" in comp) == bool(c.get("metric_file_needed"))


@pytest.mark.parametrize("c", UNSCORED, ids=[c["slug"] for c in UNSCORED])
def test_a_competition_no_builtin_scores_points_to_its_metric_file(c, tmp_path, capsys):
    (tmp_path / "s.csv").write_text("id,y\na,1\n")
    code, out, err = run(capsys, "score", tmp_path / "s.csv", tmp_path / "s.csv",
                         "--competition", c["slug"])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "--metric-file" in err and c["metric_file_needed"] in err


def test_explicit_options_win_over_the_catalogs(tmp_path, capsys):
    from sklearn.metrics import cohen_kappa_score
    c = next(c for c in CATALOG if c["slug"] == "aptos2019-blindness-detection")
    sol, sub, _ = make_pair(c, tmp_path)
    code, out, err = run(capsys, "score", sol, sub, "--competition", c["slug"],
                         "--weights", "linear", "--json")
    assert code == 0, err
    d = json.loads(out)
    import pandas as pd
    m = pd.read_csv(sol).merge(pd.read_csv(sub), on="id_code")
    assert d["score"] == pytest.approx(cohen_kappa_score(
        m.diagnosis_x, m.diagnosis_y, weights="linear", labels=range(5)))
    assert d["competition"]["options"]["weights"] == "linear"


def test_unknown_name_lists_the_closest(tmp_path, capsys):
    (tmp_path / "s.csv").write_text("id,y\na,1\n")
    code, out, err = run(capsys, "score", tmp_path / "s.csv", tmp_path / "s.csv",
                         "--competition", "aptos-blindness")
    assert code == 2 and err.count("\n") == 1
    assert "closest: aptos2019-blindness-detection" in err


def test_layout_of_another_competition_names_the_columns_that_differ(tmp_path, capsys):
    c = next(c for c in CATALOG if c["slug"] == "titanic")
    sol, sub, _ = make_pair(c, tmp_path)
    sub.write_text(sub.read_text().replace("Survived", "Transported"))
    code, out, err = run(capsys, "score", sol, sub, "--competition", "titanic")
    assert code == 2 and err.count("\n") == 1
    assert "lacks 'Survived'" in err and "'Transported'" in err


def test_score_notes_the_one_competition_whose_layout_matches(tmp_path, capsys):
    c = next(c for c in CATALOG if c["slug"] == "hms-harmful-brain-activity-classification")
    sol, sub, _ = make_pair(c, tmp_path)
    code, out, err = run(capsys, "score", sol, sub)
    assert code == 0, err
    assert f"looks like competition {c['slug']}" in out
    # id,target is the layout of many competitions: none is proposed; a unique one is
    code, out, err = run(capsys, "score", sol, sub, "--metric", "kl_divergence")
    assert code == 0 and f"looks like competition {c['slug']}" in out
    t = next(c for c in CATALOG if c["slug"] == "cat-in-the-dat")
    sol, sub, _ = make_pair(t, tmp_path)
    code, out, err = run(capsys, "score", sol, sub, "--metric", "auc")
    assert code == 0, err
    assert "looks like competition" not in out


def test_competitions_lists_and_searches(capsys):
    code, out, err = run(capsys, "competitions", "--json")
    d = json.loads(out)
    assert code == 0 and d["count"] == len(CATALOG)
    code, out, err = run(capsys, "competitions", "blindness")
    assert code == 0 and out.splitlines()[0].startswith("aptos2019-blindness-detection")
    assert out.splitlines()[-1].startswith("1 of ")
    code, out, err = run(capsys, "competitions", "no such thing at all")
    assert code == 2 and err.count("\n") == 1


def test_the_installed_script(tmp_path):
    c = next(c for c in CATALOG if c["slug"] == "icecube-neutrinos-in-deep-ice")
    sol, sub, want = make_pair(c, tmp_path)
    script = Path(sys.executable).with_name("kmetric")
    env = {k: v for k, v in os.environ.items() if k != "KMETRIC_DEBUG"}
    r = subprocess.run([str(script), "score", str(sol), str(sub), "--competition", c["slug"],
                        "--json"], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["score"] == pytest.approx(want, rel=1e-9)
    r = subprocess.run([str(script), "competitions", "icecube"], capture_output=True, text=True,
                       env=env)
    assert r.returncode == 0 and c["slug"] in r.stdout


def test_python_api_takes_the_competition(tmp_path, capsys):
    import kmetric_gui as km
    c = next(c for c in CATALOG if c["slug"] == "osic-pulmonary-fibrosis-progression")
    sol, sub, want = make_pair(c, tmp_path)
    r = km.score(sol, sub, competition=c["slug"])
    assert r.score == pytest.approx(want, rel=1e-9)
    assert r.to_dict()["competition"]["options"] == c["options"]
    r = km.score(sol, sub, competition=c["slug"], sigma_min=100.0)      # the call's wins
    assert r.to_dict()["competition"]["options"]["sigma_min"] == 100.0 and r.score != want
    with pytest.raises(km.InvalidInput, match="closest: osic-pulmonary-fibrosis-progression"):
        km.score(sol, sub, competition="osic-pulmonary")
    with pytest.raises(km.InvalidInput, match="lacks 'PassengerId', 'Survived'"):
        km.score(sol, sub, competition="titanic")


def test_compare_and_select_take_the_competition(tmp_path, capsys):
    c = next(c for c in CATALOG if c["slug"] == "playground-series-s3e13")
    sol, sub, want = make_pair(c, tmp_path)
    code, out, err = run(capsys, "compare", sol, sub, sub, "--competition", c["slug"],
                         "--bootstrap", "20", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["competition"]["options"] == {"k": 3}
    assert [s["score"] for s in d["submissions"]] == pytest.approx([want, want], rel=1e-9)
    code, out, err = run(capsys, "select", sol, sub, sub, "--pick", "1", "--competition", "titanic")
    assert code == 2 and err.count("\n") == 1 and "lacks 'PassengerId'" in err


def test_detect_names_the_competition_whose_headers_match(tmp_path):
    import kmetric_gui as km
    c = next(c for c in CATALOG if c["slug"] == "icecube-neutrinos-in-deep-ice")
    sol, sub, _ = make_pair(c, tmp_path)
    assert km.detect(sol, sub).competition == c["slug"]
    sub.write_text(sub.read_text().replace("azimuth", "Azimuth"))      # not its header
    sol.write_text(sol.read_text().replace("azimuth", "Azimuth"))
    assert km.detect(sol, sub).competition is None


def test_a_metric_file_gets_the_competitions_id_column(tmp_path):
    """House Prices needs its own metric (RMSE of log prices): the file is given the
    catalog's id column, and the built-in beside it (rmsle, log(1+x)) differs slightly."""
    import numpy as np
    import pandas as pd
    c = next(c for c in CATALOG if c["slug"] == "house-prices-advanced-regression-techniques")
    sol, sub, _ = make_pair(c, tmp_path)
    mf = tmp_path / "house_metric.py"
    mf.write_text(
        "import numpy as np\n\n\n"
        "def score(solution, submission, row_id_column_name):\n"
        "    s = solution.set_index(row_id_column_name)['SalePrice']\n"
        "    p = submission.set_index(row_id_column_name)['SalePrice'].loc[s.index]\n"
        "    return float(np.sqrt(np.mean((np.log(p.values) - np.log(s.values)) ** 2)))\n")
    script = Path(sys.executable).with_name("kmetric")
    r = subprocess.run([str(script), "score", str(sol), str(sub), "--competition", c["slug"],
                        "--metric-file", str(mf), "--lower-is-better", "--json"],
                       capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    m = pd.read_csv(sol).merge(pd.read_csv(sub), on="Id")
    want = np.sqrt(np.mean((np.log(m.SalePrice_y) - np.log(m.SalePrice_x)) ** 2))
    assert d["score"] == pytest.approx(want, rel=1e-9)
    assert d["parity"]["metric"] == "rmsle" and d["parity"]["difference"] != 0


def test_a_competition_no_built_in_scores_is_not_proposed_for_competition(tmp_path, capsys):
    """Files shaped as a competition only its metric file scores: the note named
    `--competition SLUG`, which then refused it."""
    c = next(c for c in UNSCORED if c["slug"] == "mercedes-benz-greener-manufacturing")
    head = ",".join(c["id"] + c["targets"])
    (tmp_path / "sol.csv").write_text(head + "\n1,90.5\n2,101.25\n3,88.0\n")
    (tmp_path / "sub.csv").write_text(head + "\n1,91.0\n2,100.0\n3,90.0\n")
    code, out, err = run(capsys, "score", tmp_path / "sol.csv", tmp_path / "sub.csv",
                         "--metric", "rmse")
    assert code == 0, err
    assert f"looks like competition {c['slug']}" in out and "--metric-file" in out
    assert f"--competition {c['slug']}" not in out
    code, _, err = run(capsys, "score", tmp_path / "sol.csv", tmp_path / "sub.csv",
                       "--competition", c["slug"])
    assert code == 2 and "metric file" in err           # what the note no longer proposes
