"""Options declared once in a metric module: CLI flags, JSON, project files and checks are
made from the declarations; a metric's JSON shows only its own options."""
import json
from pathlib import Path

import pytest

from kmetric_gui import metrics
from kmetric_gui.cli import main
from kmetric_gui.metrics.base import Metric
from kmetric_gui.metrics.schema import Option
from kmetric_gui.analysis.scoring import Options, score_files

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"


def run(argv):
    """The CLI's exit code (argparse's refusals exit 2 by SystemExit)."""
    try:
        return main(argv)
    except SystemExit as e:
        return e.code


class WithK(Metric):
    name, label = "toyk", "Toy at K"
    options = (Option("toy_k", int, 5, help="cut-off", minimum=1, maximum=100),
               Option("toy_mode", str, "a", ("a", "b"), "a mode"))


@pytest.fixture
def toyk():
    m = metrics.register(WithK())
    yield m
    metrics.unregister(m.name)


@pytest.mark.parametrize("name,own,foreign", [("qwk", {"weights"}, {"beta", "ties"}),
                                              ("lwlrap", {"ties"}, {"weights", "beta"}),
                                              ("fbeta", {"beta", "threshold", "matching", "clean"},
                                               {"weights", "ties"})])
def test_json_options_are_the_metrics_own(name, own, foreign):
    rep = score_files(DEMO / f"{name}_solution.csv", DEMO / f"{name}_submission.csv")
    opts = rep.to_json()["options"]
    assert own <= set(opts) and not foreign & set(opts)


def test_declared_options_read_as_attributes(toyk):
    o = Options()
    assert o.toy_k == 5 and o.toy_mode == "a" and o.weights == "quadratic"
    o2 = o.with_(toy_k=7, weights="linear")
    assert (o2.toy_k, o2.weights, o.toy_k) == (7, "linear", 5)
    assert Options.from_dict(o2.to_dict()) == o2
    assert o2.metric_options(toyk) == {"toy_k": 7, "toy_mode": "a"}
    with pytest.raises(ValueError, match="toy_k must be at least 1"):
        Options.from_dict({"toy_k": 0})
    with pytest.raises(ValueError, match="toy_mode must be one of a, b"):
        Options.from_dict({"toy_mode": "c"})
    with pytest.raises(AttributeError):
        Options().no_such_option


@pytest.mark.parametrize("value,ok", [("7", True), ("+7", True), ("0x7", False), ("7.5", False),
                                      ("0", False), ("1_0", False)])
def test_cli_flags_come_from_the_schema(toyk, capsys, value, ok):
    sol, sub = DEMO / "qwk_solution.csv", DEMO / "qwk_submission.csv"
    code = run(["score", str(sol), str(sub), "--toy-k", value, "--json"])
    out = capsys.readouterr()
    assert code == (0 if ok else 2)
    if not ok:
        assert "--toy-k" in out.err and "Traceback" not in out.err


def test_cli_choices_from_the_schema(toyk, capsys):
    sol, sub = DEMO / "qwk_solution.csv", DEMO / "qwk_submission.csv"
    assert run(["score", str(sol), str(sub), "--toy-mode", "c"]) == 2
    assert "invalid choice" in capsys.readouterr().err
    assert main(["score", str(sol), str(sub), "--weights", "linear", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["options"]["weights"] == "linear"


def test_project_file_options_checked_by_the_schema(toyk):
    from kmetric_gui.gui.project_schema import Problems, check_options

    def check(raw):
        problems = Problems()
        kw = check_options(raw, problems)
        return (None if kw is None else Options().with_(**kw)), " ".join(problems)
    o, said = check({"toy_k": 9, "weights": "linear", "id_column": "id"})
    assert (o.toy_k, o.weights, o.id_column) == (9, "linear", "id") and not said
    o, said = check({"toy_k": 1000})
    assert o is None and "options.toy_k" in said and "toy_k must be at most 100" in said
    o, said = check({"nope": 1})
    assert o is None and "options.nope" in said and "is not an option" in said


def test_a_shared_option_takes_every_choice(toyk, capsys):
    class Other(Metric):
        name, label = "toyk2", "Other toy"
        options = (Option("toy_mode", str, "a", ("a", "c"), "a mode"),)
    metrics.register(Other())
    try:
        from kmetric_gui.analysis.scoring import declared_options
        assert declared_options()["toy_mode"].choices == ("a", "b", "c")
        sol, sub = DEMO / "qwk_solution.csv", DEMO / "qwk_submission.csv"
        assert run(["score", str(sol), str(sub), "--toy-mode", "c", "--json"]) == 0
    finally:
        metrics.unregister("toyk2")
