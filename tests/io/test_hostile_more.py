"""Hostile inputs, second round (issue 25): wide headers, many Parquet row groups,
huge F-beta documents. Each is refused in words before it can run for minutes."""
import gzip

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from kmetric_gui.metrics.kernels import jaccard_fbeta
from kmetric_gui.metrics.kernels.fbeta.match import MAX_DOCUMENT_PAIRS, DocumentTooLarge
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
    from kmetric_gui.io.saving import csv_text
    rows = [["id", "v"], ["b\rx", 1], ["c\nd", 2], ["e", 3]]
    text = csv_text(rows, spreadsheet=False, end=end)
    assert text == f'id,v{end}"b\rx",1{end}"c\nd",2{end}e,3{end}'
    assert _parsed(text) == [[str(c) for c in r] for r in rows]


def test_export_cannot_start_a_row_with_a_formula():
    from kmetric_gui.io.saving import csv_text, is_formula, spreadsheet_safe
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

    from kmetric_gui.io.saving import csv_text, save_atomic
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


# -- E: smaller faults -------------------------------------------------------------------

def test_file_rewritten_during_the_read_refused(tmp_path, monkeypatch):
    import kmetric_gui.io.read as read_mod
    p = tmp_path / "sub.csv"
    p.write_text("id,v\na,1\nb,2\n")
    real = read_mod._checked

    def rewrite(table, label, path):       # another program writes while Arrow parses
        with open(p, "a") as f:
            f.write("c,3\n")
        return real(table, label, path)
    monkeypatch.setattr(read_mod, "_checked", rewrite)
    with pytest.raises(InputError, match=r"^submission sub.csv: changed while it was read"):
        read_table(p, "submission")
    monkeypatch.setattr(read_mod, "_checked", real)
    assert read_table(p, "submission").num_rows == 3          # settled: read as it stands


def test_lean_reader_leaves_a_changing_file_to_the_full_read(tmp_path, monkeypatch):
    import kmetric_gui.io.pieces as pieces
    p = tmp_path / "s.csv"
    p.write_text("id,v\na,1\n")
    real = pieces._texts

    def texts(path, *a, **k):
        for view in real(path, *a, **k):
            yield view
        with open(path, "a") as f:
            f.write("b,2\n")
    monkeypatch.setattr(pieces, "_texts", texts)
    with pytest.raises(pieces.Off):
        list(pieces.tables(str(p), ",", ["id", "v"], pieces.convert({})))


@pytest.mark.parametrize("make", ["fifo", "dev"])
def test_devices_and_pipes_are_not_regular_files(tmp_path, make):
    """A named pipe and the null device (/dev/null, Windows' NUL) are refused by type."""
    import os
    if make == "fifo" and not hasattr(os, "mkfifo"):
        pytest.skip("named pipes in the file system (mkfifo) are POSIX's; Windows has none")
    path = os.devnull if make == "dev" else str(tmp_path / "pipe.csv")
    if make == "fifo":
        os.mkfifo(path)
    with pytest.raises(InputError) as e:
        read_table(path, "submission")
    assert str(e.value) == (f"submission {os.path.basename(path)}: not a regular file (a device, "
                            "a pipe or a socket); save the table to a file first")


def test_huge_and_tiny_beta_give_the_limits_not_nan():
    from kmetric_gui.metrics.kernels.fbeta import fbeta_from_counts
    # tp 1, fp 1, fn 3: precision 1/2, recall 1/4.
    for beta, want in ((1e200, 0.25), (1e300, 0.25), (1e-200, 0.5), (1e-300, 0.5)):
        score, p, r, why = fbeta_from_counts(1, 1, 3, beta)
        assert why is None and score == pytest.approx(want, rel=1e-12), beta
    for beta in (0.5, 1.0, 2.0, 3.7):          # the usual betas: the textbook formula
        b2 = beta * beta
        want = (1 + b2) * 0.5 * 0.25 / (b2 * 0.5 + 0.25)
        assert fbeta_from_counts(1, 1, 3, beta)[0] == pytest.approx(want, rel=1e-14)


def test_span_fault_blames_the_file_holding_the_outlier(tmp_path):
    from kmetric_gui.errors import InputError as IE
    from kmetric_gui.analysis.scoring import Options, score_files
    sol = tmp_path / "sol.csv"
    sol.write_text("id,rating\na,1\nb,5\nc,3\n")
    sub = tmp_path / "sub.csv"
    sub.write_text("id,rating\na,1\nb,1000000000\nc,3\n")
    with pytest.raises(IE) as e:
        score_files(sol, sub, Options(metric="qwk"))
    assert e.value.problems[0].startswith("submission sub.csv: column 'rating': ratings span "
                                          "1..1000000000")
    assert not any(p.startswith("solution") for p in e.value.problems)
    far = tmp_path / "far.csv"              # each file fine alone, apart together: both named
    far.write_text("id,rating\na,5000\nb,5001\nc,5002\n")
    with pytest.raises(IE) as e:
        score_files(sol, far, Options(metric="qwk"))
    assert [p.split(":")[0] for p in e.value.problems] == ["solution sol.csv", "submission far.csv"]


def test_visible_shows_controls_and_direction_marks():
    from kmetric_gui.errors import visible
    assert visible("a\x1b[31mb\x07\r\u202ec\u2066d\x9be") == "a\\x1b[31mb\\x07\\x0d\\u202ec\\u2066d\\x9be"
    assert visible("plain é 日本\tand\nlines") == "plain é 日本\tand\nlines"


@pytest.mark.parametrize("text,whole", [("5", True), ("2.000", True), ("1.5e1", True), ("5.", True),
                                        (" -0 ", True), ("1e3", True), ("4.9999999999999999", False),
                                        ("1.55e1", False), ("2.0000000000000001", False),
                                        ("123456789012345.99999999", False)])
def test_rating_is_whole_as_written(text, whole):
    from decimal import Decimal

    from kmetric_gui.numbers import column_numbers, exact_whole, parse_rating
    d = Decimal(text.strip())
    assert (d == d.to_integral_value()) == whole          # the reference: exact decimals
    assert exact_whole(text) == whole
    if whole:
        assert parse_rating(text) == int(d)
    else:
        with pytest.raises(ValueError, match="not a whole number"):
            parse_rating(text)
    cv = column_numbers(pa.array(["1", text, "x"]), integer=True)
    assert cv.bad.tolist() == [2]
    assert cv.fraction.tolist() == ([] if whole else [1])


def test_rating_rounded_by_the_csv_reader_refused(tmp_path):
    from kmetric_gui.analysis.scoring import Options, score_files
    sol = tmp_path / "sol.csv"
    sol.write_text("id,rating\na,1\nb,5\nc,3\n")
    sub = tmp_path / "sub.csv"
    sub.write_text("id,rating\na,1\nb,4.9999999999999999\nc,3\n")
    with pytest.raises(InputError) as e:
        score_files(sol, sub, Options(metric="qwk"))
    assert e.value.problems == ["submission sub.csv: column 'rating': 1 non-integer rating(s): "
                                "row 2 (id 'b'): '4.9999999999999999'; continuous predictions "
                                "need cut points (round them, or use the threshold optimizer in "
                                "the app)"]
    ok = tmp_path / "ok.csv"                # whole floats as written stay ratings
    ok.write_text("id,rating\na,1.0\nb,5.0\nc,3.000\n")
    assert score_files(sol, ok, Options(metric="qwk")).score == pytest.approx(1.0)
    t = read_table(ok, "submission")
    assert pa.types.is_floating(t.schema.field("rating").type)   # no second read needed


def test_header_width_fuzz(tmp_path):
    # Random widths around the limit, names with quotes, delimiters and line breaks inside
    # quotes, tabs, a BOM, CRLF: the count agrees with the csv module, and the reader
    # refuses exactly the headers wider than the limit.
    import csv
    import io
    import random
    rng = random.Random(25)
    limit = 40
    pieces = ["a", "b c", '"q,1"', '"line\nbreak"', '"say ""hi"""', '"tab\tin"', "é", '"cr\rx"']
    for k in range(60):
        n = rng.choice([1, 2, limit - 1, limit, limit + 1, rng.randint(1, 3 * limit)])
        names = []
        for j in range(n):
            piece = rng.choice(pieces)
            names.append(f"{piece[:-1]}{j}\"" if piece.startswith('"') else f"{piece}{j}")
        if k % 5 == 0:
            names[-1] = 'stray"quote'        # mid-field quotes are text, not quoting
        delim = rng.choice([",", "\t"])
        line = delim.join(names)
        raw = ("\ufeff" if k % 7 == 0 else "") + line + ("\r\n" if k % 3 == 0 else "\n") + "x\n"
        p = tmp_path / f"f{k}.csv"
        p.write_bytes(raw.encode())
        want = len(next(csv.reader(io.StringIO(raw.lstrip("\ufeff"), newline=""), delimiter=delim)))
        assert header_columns(str(p), delim, limit=10 ** 6) == want == n, (k, raw[:80])
        assert header_columns(str(p), delim, limit=limit) == min(n, limit + 1)


def test_wide_header_with_quotes_still_refused(tmp_path):
    p = tmp_path / "q.csv"
    p.write_text('a"b,' + ",".join(f'"c{i}"' for i in range(MAX_COLUMNS + 5)) + "\n1\n")
    with pytest.raises(InputError, match=f"the header has more than {MAX_COLUMNS:,} columns"):
        read_table(p, "solution")
