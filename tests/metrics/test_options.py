"""Options declared once in a metric module: CLI flags, JSON, project files and checks are
made from the declarations; a metric's JSON shows only its own options."""
import json
import re
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
    assert code == 2 and "Traceback" not in out.err
    if ok:   # read by the schema, then refused: the detected metric (kappa) has no such option
        assert "--toy-k: not an option of Weighted kappa (qwk)" in out.err
    else:
        assert "--toy-k" in out.err and "expected a whole number" in out.err


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
    assert o is None and "field 'options.toy_k' must be at most 100, got 1000" in said
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
        assert run(["score", str(sol), str(sub), "--toy-mode", "c", "--json"]) == 2
        assert "--toy-mode: not an option of Weighted kappa" in capsys.readouterr().err
    finally:
        metrics.unregister("toyk2")


@pytest.mark.parametrize("raw,said", [
    ({"beta": 50}, None),                                   # the CLI and the panel take it too
    ({"eps": float("nan")}, "field 'options.eps' must be a finite number, got nan"),
    ({"k": 1e400}, "field 'options.k' must be a finite number, got inf"),
    ({"k": 2 ** 60}, "field 'options.k' must be a whole number below 2^53"),
    ({"min_rating": 1.5}, "field 'options.min_rating' must be a whole number"),
    ({"weights": "cubic"}, "field 'options.weights' must be one of quadratic, linear, none"),
    ({"target_column": "x" * 5000}, "field 'options.target_column' must be text of 1 to 1000"),
    ({"metric": "nope"}, "field 'options.metric' must be empty (from the layout) or one of"),
    ({"metric": "rmse", "beta": 2}, "field 'options.beta' is not an option of RMSE (rmse)"),
    ({"cuts": [0.5, float("inf")]}, "field 'options.cuts' must be a list of finite numbers"),
])
def test_project_options_are_checked_by_the_declarations(raw, said):
    """A project's options go through the same declarations as flags and the panel: what
    the CLI takes a project takes (beta 50 was refused by a hand-written check), and
    overflowing, non-finite or foreign values are refused naming the field."""
    from kmetric_gui.gui.project_schema import Problems, check_options
    problems = Problems()
    kw = check_options(raw, problems)
    if said is None:
        assert kw is not None and not problems
        assert Options(**kw).beta == 50
        assert run(["score", str(DEMO / "fbeta_solution.csv"), str(DEMO / "fbeta_submission.csv"),
                    "--beta", "50"]) == 0
    else:
        assert kw is None and said in " ".join(problems)


def test_register_refuses_an_option_with_another_meaning():
    """An option name another metric uses must mean the same there (type and default):
    a clash would silently score with the other metric's value."""
    class Clash(Metric):
        name, label = "toyclash", "Clash"
        options = (Option("beta", int, 3, help="not F-beta's beta"),)

    class Reserved(Metric):
        name, label = "toyreserved", "Reserved"
        options = (Option("seed", int, 1),)

    class NoDirection(Metric):
        name, label = "toynodir", "No direction"
        higher_is_better = None

    for cls, said in ((Clash, "option 'beta' of toyclash (int, default 3) means something else "
                              "in fbeta (float, default 0.5)"),
                      (Reserved, "option 'seed' of toyreserved has the name of a common setting"),
                      (NoDirection, "must say its direction")):
        with pytest.raises(ValueError, match=re.escape(said)):
            metrics.register(cls())
        assert cls.name not in metrics.REGISTRY


def test_reserved_names_are_the_commands_flags():
    """The names a metric option may not take are exactly the commands' own flags (so the
    list cannot drift from the parsers)."""
    import argparse

    from kmetric_gui.cli import build_parser
    from kmetric_gui.metrics.schema import RESERVED
    from kmetric_gui.analysis.options import COMMON_NAMES
    p = build_parser()
    sub = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))
    declared = {o.name for m in metrics.REGISTRY.values() for o in m.options}
    flags = set()
    for parser in sub.choices.values():
        for a in parser._actions:
            flags.update(s[2:].replace("-", "_") for s in a.option_strings if s.startswith("--"))
    flags -= declared
    # a boolean on by default has only its off switch, --no-<name>
    flags -= {"no_" + o.name for m in metrics.REGISTRY.values() for o in m.options
              if o.type is bool and o.default is True}
    assert flags <= RESERVED, sorted(flags - RESERVED)
    assert set(COMMON_NAMES) <= RESERVED
