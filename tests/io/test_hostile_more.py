"""Hostile inputs, second round (issue 25): wide headers, many Parquet row groups,
huge F-beta documents. Each is refused in words before it can run for minutes."""
import gzip

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from kmetric_gui.core import jaccard_fbeta
from kmetric_gui.core.fbeta.match import MAX_DOCUMENT_PAIRS, DocumentTooLarge
from kmetric_gui.errors import InputError
from kmetric_gui.io.read import MAX_ROW_GROUPS, read_header, read_table
from kmetric_gui.io.width import MAX_COLUMNS, header_columns


def _wide(path, n, quoted=False):
    names = [f'"c,{i}"' if quoted else f"c{i}" for i in range(n)]
    path.write_text(",".join(names) + "\n" + ",".join(["1"] * n) + "\n")
    return path


@pytest.mark.parametrize("n", [MAX_COLUMNS + 1, 100_000])
def test_header_wider_than_the_limit_refused(tmp_path, n):
    p = _wide(tmp_path / "wide.csv", n)
    msg = f"^submission wide.csv: the header has more than {MAX_COLUMNS:,} columns"
    with pytest.raises(InputError, match=msg):
        read_header(p, "submission")
    with pytest.raises(InputError, match=msg):
        read_table(p, "submission")
    g = tmp_path / "wide.csv.gz"
    g.write_bytes(gzip.compress(p.read_bytes()))
    with pytest.raises(InputError, match=msg.replace("wide.csv", "wide.csv.gz")):
        read_table(g, "submission")


def test_header_at_the_limit_read_and_duplicates_found(tmp_path):
    p = _wide(tmp_path / "edge.csv", MAX_COLUMNS)
    assert len(read_header(p, "solution")) == MAX_COLUMNS
    assert read_table(p, "solution").num_columns == MAX_COLUMNS
    names = [f"c{i}" for i in range(MAX_COLUMNS - 2)] + ["c7", "c9"]
    q = tmp_path / "dup.csv"
    q.write_text(",".join(names) + "\n" + ",".join(["1"] * len(names)) + "\n")
    with pytest.raises(InputError, match=r"^solution dup.csv: duplicate column name\(s\): c7, c9$"):
        read_table(q, "solution")


def test_width_count_follows_quotes(tmp_path):
    # Quoted delimiters and line breaks are not columns (the csv module agrees).
    import csv
    p = tmp_path / "q.csv"
    p.write_text('a,"b,c","d\ne",f\n1,2,3,4\n')
    assert header_columns(str(p), ",") == 4 == len(next(csv.reader(open(p, newline=""))))
    assert header_columns(str(p), ",", limit=2) == 3          # stops past the limit
    q = _wide(tmp_path / "qq.csv", 30, quoted=True)
    assert header_columns(str(q), ",") == 30


def test_many_parquet_row_groups_refused(tmp_path):
    n = MAX_ROW_GROUPS + 1
    p = tmp_path / "groups.parquet"
    pq.write_table(pa.table({"id": pa.array(np.arange(n).astype(str)),
                             "target": pa.array(np.arange(n) % 5)}), p, row_group_size=1)
    with pytest.raises(InputError, match=rf"^solution groups.parquet: {n:,} row groups; files of "
                       rf"up to {MAX_ROW_GROUPS:,} are read"):
        read_table(p, "solution")
    ok = tmp_path / "ok.parquet"
    pq.write_table(pa.table({"id": ["a", "b", "c"], "target": [1, 2, 3]}), ok, row_group_size=1)
    t = read_table(ok, "solution", string_columns=["id"])
    assert t.column("id").to_pylist() == ["a", "b", "c"]
    assert t.column("target").to_pylist() == [1, 2, 3]


def test_fbeta_document_too_large_refused_others_scored():
    big = MAX_DOCUMENT_PAIRS // 100 + 1
    truths = [["a b"], [f"t {i}" for i in range(100)]]
    preds = [["a b"], [f"t {i}" for i in range(big)]]
    with pytest.raises(DocumentTooLarge) as e:
        jaccard_fbeta(truths, preds)
    assert e.value.document == 1
    assert str(e.value) == (f"document 2 (in solution order) has 100 truths and {big:,} predictions: "
                            f"{100 * big:,} pairs to compare; documents of up to "
                            f"{MAX_DOCUMENT_PAIRS:,} pairs are scored")
    # At the limit it is scored, and as a plain loop would: each truth matches itself.
    r = jaccard_fbeta([truths[1]], [[f"t {i}" for i in range(MAX_DOCUMENT_PAIRS // 100)]])
    assert (r.tp, r.fn, r.fp) == (100, 0, MAX_DOCUMENT_PAIRS // 100 - 100)


def test_fbeta_huge_document_cli_exit_2(tmp_path):
    import subprocess
    import sys
    sol = tmp_path / "sol.csv"
    cell = "|".join(f"survey data {i}" for i in range(3000))
    sol.write_text(f"Id,PredictionString\nd1,{cell}\nd2,a b\n")
    out = subprocess.run([sys.executable, "-m", "kmetric_gui.cli", "score", str(sol), str(sol),
                          "--metric", "fbeta"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2, out.stderr
    assert "3,000 truths and 3,000 predictions" in out.stderr
    assert "Traceback" not in out.stderr


# -- B: a bare carriage return in a field ------------------------------------------------

def _parsed(text):
    import csv
    import io
    return list(csv.reader(io.StringIO(text, newline="")))


@pytest.mark.parametrize("end", ["\n", "\r\n"])
def test_csv_text_quotes_a_bare_carriage_return(end):
    from kmetric_gui.saving import csv_text
    rows = [["id", "v"], ["b\rx", 1], ["c\nd", 2], ["e", 3]]
    text = csv_text(rows, spreadsheet=False, end=end)
    assert text == f'id,v{end}"b\rx",1{end}"c\nd",2{end}e,3{end}'
    assert _parsed(text) == [[str(c) for c in r] for r in rows]


def test_export_cannot_start_a_row_with_a_formula():
    from kmetric_gui.saving import csv_text, is_formula, spreadsheet_safe
    rows = [["id", "v"], ["\r=CR", 1], ["ok\r=cmd|' /C calc'!A0", 2], ["a\n+1", 3],
            ["x\r\n@y", 4], ["-0.5", 5]]
    back = _parsed(csv_text(rows))
    assert len(back) == len(rows)                               # no extra row
    assert [r[0] for r in back[1:]] == ["'\r'=CR", "ok\r'=cmd|' /C calc'!A0", "a\n'+1",
                                        "x\r\n'@y", "-0.5"]
    # A reader that splits at every line break sees no line starting like a formula.
    for cell in (r[0] for r in back[1:]):
        assert not any(line.startswith(("=", "+", "-", "@")) and line != "-0.5"
                       for line in cell.replace("\r", "\n").split("\n"))
    assert is_formula("ok\r=x") and not is_formula("ok\rx") and spreadsheet_safe("a\rb") == "a\rb"


def test_report_tables_quote_carriage_returns(tmp_path):
    from kmetric_gui.report.write import write_tables
    (tmp_path / "tables").mkdir()

    class Data:
        tables = {"t.csv": [["class", "n"], ["\r=CR", 1]]}
    write_tables(Data, tmp_path)
    text = (tmp_path / "tables" / "t.csv").read_bytes().decode()
    assert _parsed(text) == [["class", "n"], ["'\r'=CR", "1"]]


def test_quoted_carriage_return_read_and_saved_submission_round_trips(tmp_path):
    import subprocess
    import sys

    from kmetric_gui.saving import csv_text, save_atomic
    p = tmp_path / "cr.csv"
    p.write_bytes(b'id,v\n"b\rx",1\n"c\nd",2\ne,3\n')
    t = read_table(p, "submission", string_columns=["id"])
    assert t.column("id").to_pylist() == ["b\rx", "c\nd", "e"]
    assert t.column("v").to_pylist() == [1, 2, 3]
    sol = tmp_path / "sol.csv"
    save_atomic(sol, csv_text([["id", "rating"], ["b\rx", 1], ["a", 2], ["q", 3]],
                              spreadsheet=False))
    sub = tmp_path / "sub.csv"
    save_atomic(sub, csv_text([["id", "rating"], ["q", 3], ["b\rx", 1], ["a", 2]],
                              spreadsheet=False))
    out = subprocess.run([sys.executable, "-m", "kmetric_gui.cli", "score", str(sol), str(sub),
                          "--metric", "qwk"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "score:   1.000000" in out.stdout
