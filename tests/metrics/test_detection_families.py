"""Detection on every family's demo pair: a layout that is clearly one metric's is
scored as it (the three seeds' too); shared layouts are listed, none picked."""
import json
from pathlib import Path

import pytest

from kmetric_gui.cli import main

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"


@pytest.mark.parametrize("name,expect", [
    ("qwk", "qwk"), ("lwlrap", "lwlrap"), ("fbeta", "fbeta"),
    ("mapk", "mapk"),                              # several space-separated items a row
    ("mcrmse", "mcrmse"),                          # several real-valued columns
    ("logloss", {"logloss", "auc", "lwlrap"}),     # one label a row, rows summing to 1
    ("accuracy", {"accuracy", "f1"}),              # text labels
    ("rmse", {"rmse", "rmsle", "mae"}),            # one real column
    ("auc", {"auc", "logloss"}),                   # 0/1 truth, scores in [0, 1]
])
def test_demo_pairs_detected_or_listed(capsys, name, expect):
    code = main(["score", str(DEMO / f"{name}_solution.csv"), str(DEMO / f"{name}_submission.csv"),
                 "--json"])
    out, err = capsys.readouterr()
    if isinstance(expect, str):
        assert code == 0, err
        assert json.loads(out)["metric"] == expect
    else:
        assert code == 2 and "several metrics fit these files" in err
        listed = set(err.split("--metric {")[1].split("}")[0].split(","))
        assert expect <= listed


def test_a_binary_label_pair_is_listed_not_taken_as_kappa(tmp_path, capsys):
    # 0/1 truth and 0/1 predictions: two ratings, or a binary label for accuracy or F1
    sol, sub = tmp_path / "sol.csv", tmp_path / "sub.csv"
    sol.write_text("id,target\n" + "".join(f"{i},{i % 2}\n" for i in range(40)))
    sub.write_text("id,target\n" + "".join(f"{i},{(i // 3) % 2}\n" for i in range(40)))
    assert main(["score", str(sol), str(sub)]) == 2
    err = capsys.readouterr().err
    listed = set(err.split("--metric {")[1].split("}")[0].split(","))
    assert {"qwk", "accuracy", "f1"} <= listed
    # with three ratings the layout stays kappa's (the seed's)
    sub.write_text("id,target\n" + "".join(f"{i},{i % 3}\n" for i in range(40)))
    sol.write_text("id,target\n" + "".join(f"{i},{(i // 2) % 3}\n" for i in range(40)))
    assert main(["score", str(sol), str(sub), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["metric"] == "qwk"
