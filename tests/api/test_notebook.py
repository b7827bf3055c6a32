"""docs/notebook.ipynb runs in a real Jupyter kernel (nbclient + ipykernel) and its
numbers are `kmetric`'s for the same files and flags."""
import json

import pytest

from helpers import ROOT, demo, kmetric, same

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")


def printed(nb, tag):
    """The JSON object a cell printed after ``tag``."""
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            for line in str(out.get("text", "")).splitlines():
                if line.startswith(tag):
                    return json.loads(line[len(tag):])
    raise AssertionError(f"no output line starts with {tag!r}")


def test_the_docs_notebook_runs_and_agrees_with_the_cli():
    nb = nbformat.read(ROOT / "docs" / "notebook.ipynb", as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(ROOT / "docs")}})
    client.execute()          # a cell that raises fails here (CellExecutionError)
    sol, a, b = demo("qwk")
    code, want, err = kmetric("score", sol, a, "--ci", "0.95", "--bootstrap", "1000", "--seed", "0")
    assert code == 0, err
    same(printed(nb, "score-json: "), want)
    code, want, err = kmetric("compare", sol, a, b, "--bootstrap", "500", "--permutations", "500",
                              "--splits", "500", "--seed", "0")
    assert code == 0, err
    same(printed(nb, "compare-json: "), want)
    shown = [o for c in nb.cells for o in c.get("outputs", []) if "text/html" in o.get("data", {})]
    assert any("<svg" in o["data"]["text/html"] and "Public" in o["data"]["text/html"]
               for o in shown)           # the result's summary and plot, inline
