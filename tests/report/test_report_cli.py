"""`kmetric report`: the folder's files, links, JSON, tables and PDF, checked
against `kmetric score --json`, hashlib, pandas and scikit-learn."""
import csv
import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from report_helpers import parse_page, pdf_pages, pdf_text

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo"
FLAGS = ["--ci", "0.9", "--bootstrap", "300", "--shakeup", "--splits", "300", "--top-fixes", "7"]


def run(*args):
    env = dict(os.environ)
    env.pop("KMETRIC_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "kmetric_gui.cli", *map(str, args)],
                          capture_output=True, text=True, env=env, cwd=ROOT)


def demo(metric):
    return DEMO / f"{metric}_solution.csv", DEMO / f"{metric}_submission.csv"


@pytest.fixture(scope="module", params=["qwk", "lwlrap", "fbeta"])
def made(request, tmp_path_factory):
    metric = request.param
    out = tmp_path_factory.mktemp(f"report_{metric}") / "rep"
    truth, sub = demo(metric)
    r = run("report", truth, sub, "--out", out, *FLAGS)
    assert r.returncode == 0, r.stderr
    s = run("score", truth, sub, "--json", *FLAGS)
    assert s.returncode == 0, s.stderr
    return metric, out, json.loads((out / "report.json").read_text()), json.loads(s.stdout)


def test_json_is_the_score_json_and_more(made):
    metric, out, rep, score = made
    assert set(score) <= set(rep)
    for k, v in score.items():
        assert rep[k] == v, k
    assert rep["metric"] == metric
    assert {"files", "validation", "tables", "plots", "pdf"} <= set(rep)
    assert rep["validation"]["status"] == "passed"


def test_html_parses_and_every_reference_exists(made):
    _, out, rep, _ = made
    page = parse_page(out / "index.html")
    assert "script" not in page.tags and "link" not in page.tags
    assert page.refs, "the page links nothing"
    for ref in page.refs:
        assert not ref.startswith(("http:", "https:", "//", "/")), ref
        assert (out / ref).is_file(), ref
    # every plot is on the page as PNG and linked as SVG; every table as CSV
    for p in rep["plots"]:
        assert p in page.refs
    for t in rep["tables"]:
        assert t in page.refs
    assert "report.pdf" in page.refs and "report.json" in page.refs


def test_files_are_described_exactly(made):
    metric, out, rep, _ = made
    truth, sub = demo(metric)
    for f, path in zip(rep["files"], (truth, sub)):
        assert f["name"] == path.name
        assert f["size"] == path.stat().st_size
        assert f["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
        assert f["rows"] == len(pd.read_csv(path))


def test_plots_are_2x_png_and_svg(made):
    _, out, rep, _ = made
    pngs = [p for p in rep["plots"] if p.endswith(".png")]
    assert len(pngs) >= 4
    for p in pngs:
        data = (out / p).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        w, h = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert (w, h) == (1280, 960)
        svg = (out / p).with_suffix(".svg").read_text()
        assert "<svg" in svg and "</svg>" in svg


def test_pdf_pages_and_text(made):
    _, out, rep, score = made
    pdf = out / "report.pdf"
    assert pdf.read_bytes()[:5] == b"%PDF-"
    # the pages Qt laid out, all printed; the summary and the tables, then a page per plot
    n_plots = len(rep["plots"]) // 2
    assert pdf_pages(pdf) == rep["pdf_pages"] >= 2 + n_plots
    text = pdf_text(pdf)
    if text is not None:
        pages = text.split("\f")[:rep["pdf_pages"]]
        assert pages[0].lstrip().startswith("kmetric report")
        html = (out / "index.html").read_text()
        titles = re.findall(r"<figcaption>([^<·]+)", html)
        assert len(titles) == n_plots
        for title, page in zip(titles, pages[-n_plots:]):
            assert page.lstrip().startswith(title.strip()[:20]), (title, page[:80])
        assert "kmetric report" in text
        assert f"{score['score']:.6f}" in text
        assert rep["files"][0]["sha256"][:16] in text.replace("\n", "")


def read_csv_rows(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def test_tables_match_independent_references(made):
    metric, out, rep, _ = made
    truth, sub = demo(metric)
    if metric == "qwk":
        from sklearn.metrics import confusion_matrix
        sol, s = pd.read_csv(truth), pd.read_csv(sub)
        m = sol.merge(s, on="id_code", suffixes=("_t", "_p"))
        rows = read_csv_rows(out / "tables" / "observed.csv")
        got = np.array([[float(v) for v in r[1:]] for r in rows[1:]])
        assert np.array_equal(got, confusion_matrix(m.diagnosis_t, m.diagnosis_p, labels=range(5)))
    elif metric == "lwlrap":
        rows = read_csv_rows(out / "tables" / "per_class.csv")
        for name, v, *_ in rows[1:]:
            ref = rep["per_class"][name]
            assert (v == "" and ref is None) or float(v) == pytest.approx(ref)
    else:
        rows = read_csv_rows(out / "tables" / "counts.csv")
        assert [int(x) for x in rows[1][:3]] == [rep["tp"], rep["fp"], rep["fn"]]
    fixes = read_csv_rows(out / "tables" / "top_fixes.csv")
    assert [r[1] for r in fixes[1:]] == [str(f["id"]) for f in rep["top_fixes"]]


def test_several_submissions(tmp_path):
    truth, sub = demo("qwk")
    other = tmp_path / "other.csv"
    df = pd.read_csv(sub)
    df["diagnosis"] = df["diagnosis"].iloc[::-1].to_numpy()
    df.to_csv(other, index=False)
    r = run("report", truth, sub, other, "--out", tmp_path / "rep")
    assert r.returncode == 0, r.stderr
    rep = json.loads((tmp_path / "rep" / "report.json").read_text())
    assert [s["name"] for s in rep["submissions"]] == [sub.name, "other.csv"]
    for s, path in zip(rep["submissions"], (sub, other)):
        ref = json.loads(run("score", truth, path, "--json").stdout)
        assert s["score"] == ref["score"] and s["public"] == ref["public"]
    assert len(rep["files"]) == 3
    ref = json.loads(run("compare", truth, sub, other, "--json").stdout)
    assert rep["comparison"] == ref                     # the `kmetric compare --json` object
    rows = read_csv_rows(tmp_path / "rep" / "tables" / "comparison_pairs.csv")
    assert float(rows[1][2]) == pytest.approx(ref["pairs"][0]["delta"])


def test_non_empty_folder_needs_force(tmp_path):
    truth, sub = demo("qwk")
    out = tmp_path / "rep"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    r = run("report", truth, sub, "--out", out)
    assert r.returncode == 2
    assert str(out) in r.stderr and "--force" in r.stderr and "Traceback" not in r.stderr
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    r = run("report", truth, sub, "--out", out, "--force")
    assert r.returncode == 0, r.stderr
    assert (out / "notes.txt").read_text() == "mine" and (out / "index.html").is_file()


def test_unwritable_folder(tmp_path):
    truth, sub = demo("qwk")
    blocker = tmp_path / "a_file"
    blocker.write_text("x")
    r = run("report", truth, sub, "--out", blocker / "rep")
    assert r.returncode == 2 and str(blocker / "rep") in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    if os.access("/proc", os.W_OK):      # root: /proc refuses new files all the same
        r = run("report", truth, sub, "--out", "/proc", "--force")
        assert r.returncode == 2 and "/proc" in r.stderr and "not writable" in r.stderr


def test_invalid_input_writes_nothing_but_the_folder(tmp_path):
    truth, _ = demo("qwk")
    bad = tmp_path / "bad.csv"
    bad.write_text("id_code,diagnosis\nnope,1\n")
    r = run("report", truth, bad, "--out", tmp_path / "rep")
    assert r.returncode == 2 and "bad.csv" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "rep" / "index.html").exists()
