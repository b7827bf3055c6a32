"""A saved submission keeps the line endings of the plain-text file opened; a
compressed or Parquet file's bytes are no lines (found in review)."""
import gzip

from kmetric_gui.gui.save_text import _line_end


def test_line_end_of_text_files_only(tmp_path):
    crlf = tmp_path / "s.csv"
    crlf.write_bytes(b"id,y\r\na,1\r\n")
    lf = tmp_path / "s.tsv"
    lf.write_bytes(b"id\ty\na\t1\n")
    assert _line_end(crlf) == "\r\n" and _line_end(lf) == "\n"
    gz = tmp_path / "s.csv.gz"
    gz.write_bytes(b"\x1f\x8b\r\n" + gzip.compress(b"id,y\r\na,1\r\n"))   # '\r\n' in the raw bytes
    assert _line_end(gz) == "\n"
    assert _line_end(tmp_path / "missing.csv") == "\n"
