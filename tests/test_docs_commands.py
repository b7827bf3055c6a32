"""Every command block of README.md and docs/*.md, run as a reader runs it: through the
installed `kmetric` and `kmetric-gui` scripts of the environment the README's first command
made (.venv/bin; in CI the scripts beside the interpreter), with the output the docs show
checked. The conventions and the few steps not run are in tests/docs_commands.py.

A metric file through the installed `kmetric` script once crashed while `python -m
kmetric_gui.cli` worked; the README's own example was such a command.
"""
import shlex
import sys

import pytest

from docs_commands import ROOT, Runner, all_blocks, parse, scripts_dir

BLOCKS = all_blocks()


@pytest.mark.parametrize("block", BLOCKS, ids=[b.name for b in BLOCKS])
def test_docs_block_runs_through_the_installed_scripts(block, tmp_path):
    if block.linux_only and not sys.platform.startswith("linux"):
        pytest.skip("a freedesktop menu entry: Linux only")
    if not (scripts_dir() / ("kmetric.exe" if sys.platform == "win32" else "kmetric")).exists():
        pytest.skip(f"the kmetric script is not installed beside {sys.executable}")
    record = Runner(tmp_path).run(block)
    assert record


def test_the_docs_have_blocks_and_shown_output():
    """The parser finds what the docs hold (a renamed fence or marker would drop blocks)."""
    names = {b.name.split(":")[0] for b in BLOCKS}
    assert {"README.md", "docs/cli.md", "docs/metric-files.md", "docs/building.md"} <= names
    shown = [(b.name, n) for b in BLOCKS for n in b.outputs]
    assert len(shown) >= 4
    metric_file = [b for b in BLOCKS if b.name.startswith("docs/metric-files.md") and b.outputs]
    assert any("score:   0.131591" in line for b in metric_file for lines in b.outputs.values()
               for line in lines)


def test_placeholders_name_files_of_the_checkout():
    for b in BLOCKS:
        for name, path in b.subs.items():
            assert (ROOT / path).is_file(), f"{b.name}: {name}={path} is not a file"
            assert any(name in line.split() for line in b.commands), f"{b.name}: {name} unused"


def test_parser_conventions(tmp_path):
    """Markers, continuation lines, comments and the output fence, on a small page."""
    page = tmp_path / "page.md"
    page.write_text(
        "Text.\n\n<!-- docs-test: TRUTH=resources/demo/qwk_solution.csv -->\n```bash\n"
        "# a comment\nkmetric score TRUTH \\\n    SUB   # trailing\nkmetric --version\n```\n\n"
        "<!-- docs-test: output of command 2 -->\n```\nkmetric 1\n```\n\nProse.\n\n```\nnot output\n```\n"
        "```python\nx = 1\n```\n")
    (b,) = parse(page)
    assert [shlex.split(c, comments=True) for c in b.commands] == [
        ["kmetric", "score", "TRUTH", "SUB"], ["kmetric", "--version"]]
    assert b.subs == {"TRUTH": "resources/demo/qwk_solution.csv"}
    assert b.outputs == {2: ["kmetric 1"]}


def test_output_check_fails_on_other_numbers(tmp_path):
    from docs_commands import Block, check_output
    b = Block(ROOT / "x.md", 1, ["kmetric score"], outputs={1: ["score:   0.131591"]})
    check_output(b, 1, "metric: m\nscore:   0.131591\n")
    with pytest.raises(AssertionError, match="prints something else"):
        check_output(b, 1, "metric: m\nscore:   0.131592\n")
