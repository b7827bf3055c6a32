"""A bad flag is refused in one line naming the flag and the reason, with the way to the
flags' list, exit 2 (issue 39: 22 lines of usage came first, the line that mattered last)."""
import pytest

from kmetric_gui.cli import main


@pytest.mark.parametrize("argv,words", [
    (["score", "a.csv", "b.csv", "--beta", "x"], "--beta: expected a number"),
    (["score", "a.csv", "b.csv", "--ci", "high"], "--ci"),
    (["score", "a.csv"], "required: submission"),
    (["score", "a.csv", "b.csv", "--metric", "nope"], "--metric: invalid choice: 'nope'"),
    (["score", "a.csv", "b.csv", "--unknown"], "unrecognized arguments: --unknown"),
    (["compare", "a.csv", "b.csv", "c.csv", "--bootstrap", "many"], "--bootstrap"),
    (["report", "a.csv", "b.csv", "--seed"], "--seed: expected one argument"),
    (["select", "a.csv", "b.csv", "c.csv", "--seed", "1.5"], "--seed"),
    (["rank", "a.csv", "b.csv"], "required: --leaderboard"),
    (["check-metric"], "required: FILE"),
    (["frob"], "invalid choice: 'frob'"),
    ([], "required: command"),
])
def test_a_flag_error_is_one_line(capsys, argv, words):
    try:
        code = main(argv)
        parsed = True         # a value the command checks itself (its range named instead)
    except SystemExit as e:
        code, parsed = e.code, False
    assert code == 2
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert out == "" and len(lines) == 1, err
    assert lines[0].startswith("kmetric: ") and words in lines[0], lines[0]
    assert "usage:" not in err
    command = argv[0] if argv and argv[0] != "frob" else None
    if not parsed:
        assert f"'kmetric{' ' + command if command else ''} --help'" in lines[0], lines[0]


def test_help_and_version_still_print_in_full(capsys):
    for argv in (["score", "--help"], ["--version"]):
        with pytest.raises(SystemExit) as e:
            main(argv)
        assert e.value.code == 0
    assert "usage: kmetric score" in capsys.readouterr().out
