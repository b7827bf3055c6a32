"""saving.py: atomic saves keep permissions and symlinks; exports are spreadsheet-safe."""
import csv
import errno
import io
import os
import stat
import tempfile

import pyarrow as pa
import pytest

from kmetric_gui.io.saving import SaveError, csv_text, formula_ids, save_atomic, spreadsheet_safe


def test_new_file_written_byte_exact(tmp_path):
    p = tmp_path / "sub.csv"
    text = "id,x\n=1+1,3\n+SUM(A1),4\n@cmd,5\nb\u00e9,6\n"
    save_atomic(p, text)
    assert p.read_bytes() == text.encode("utf-8")
    save_atomic(p, b"\x00\x01raw")
    assert p.read_bytes() == b"\x00\x01raw"
    assert [f.name for f in tmp_path.iterdir()] == ["sub.csv"]   # no temporary left


posix_modes = pytest.mark.skipif(os.name != "posix",
                                 reason="POSIX file modes (Windows keeps only a read-only bit)")


@posix_modes
def test_new_file_gets_umask_mode(tmp_path):
    old = os.umask(0o022)
    try:
        save_atomic(tmp_path / "a.csv", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a.csv").stat().st_mode) == 0o644


@posix_modes
def test_existing_permissions_kept(tmp_path):
    p = tmp_path / "a.csv"
    p.write_text("old")
    os.chmod(p, 0o640)
    save_atomic(p, "new")
    assert p.read_text() == "new"
    assert stat.S_IMODE(p.stat().st_mode) == 0o640
    os.chmod(p, 0o604)
    save_atomic(p, "newer")
    assert stat.S_IMODE(p.stat().st_mode) == 0o604


@pytest.mark.skipif(os.name == "nt", reason="symbolic links need a privilege on Windows")
def test_symlink_written_through(tmp_path):
    real = tmp_path / "data" / "real.csv"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    save_atomic(link, "new")
    assert link.is_symlink()
    assert os.readlink(link) == str(real)
    assert real.read_text() == "new"
    assert sorted(f.name for f in real.parent.iterdir()) == ["real.csv"]


@pytest.mark.skipif(os.name != "posix", reason="Windows cannot open a folder to fsync it (saving skips that)")
def test_folder_fsynced_after_replace(tmp_path, monkeypatch):
    calls = []
    real_replace, real_fsync = os.replace, os.fsync
    monkeypatch.setattr(os, "replace", lambda a, b: (calls.append("replace"), real_replace(a, b)))
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append(
        "dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file"), real_fsync(fd)))
    save_atomic(tmp_path / "a.csv", "x")
    assert calls == ["file", "replace", "dir"]


def test_read_only_folder_names_target(tmp_path, monkeypatch):
    folder = tmp_path / "ro"
    folder.mkdir()
    target = folder / "sub.csv"
    if os.name == "posix" and os.geteuid() != 0:
        os.chmod(folder, 0o555)
    else:   # root (and Windows) ignores the mode bits: fail the temporary file as a read-only folder does
        def refuse(*a, **k):
            raise PermissionError(errno.EACCES, "Permission denied", str(folder / ".sub.csv.x.tmp"))
        monkeypatch.setattr(tempfile, "mkstemp", refuse)
    try:
        with pytest.raises(SaveError) as e:
            save_atomic(target, "x")
    finally:
        os.chmod(folder, 0o755)
    msg = str(e.value)
    assert str(target) in msg and "read-only" in msg and ".tmp" not in msg
    assert isinstance(e.value, OSError)
    assert not target.exists()


def test_failure_after_temp_leaves_nothing(tmp_path, monkeypatch):
    def full(*a):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(SaveError, match="disk is full"):
        save_atomic(tmp_path / "a.csv", "x")
    assert list(tmp_path.iterdir()) == []


def test_missing_folder_and_folder_target(tmp_path):
    with pytest.raises(SaveError, match="folder does not exist"):
        save_atomic(tmp_path / "nope" / "a.csv", "x")
    with pytest.raises(SaveError, match="it is a folder"):
        save_atomic(tmp_path, "x")


@pytest.mark.parametrize("cell,out", [
    ("=1+1", "'=1+1"), ("+SUM(A1)", "'+SUM(A1)"), ("-2+3", "'-2+3"), ("@cmd", "'@cmd"),
    ("\tx", "'\tx"), ("\rx", "'\rx"), ("abc", "abc"), ("a=b", "a=b"), ("", ""),
    ("-0.5", "-0.5"), ("+3", "+3"), ("-1e5", "-1e5"), (-3, -3), (2.5, 2.5), (None, None)])
def test_spreadsheet_safe(cell, out):
    assert spreadsheet_safe(cell) == out


def test_csv_text_exports_escape_and_submissions_do_not():
    rows = [["id", "v"], ["=HYPERLINK(\"x\")", 1], ["@cmd", -2], ["plain, with comma", 0.5]]
    safe = csv_text(rows)
    back = list(csv.reader(io.StringIO(safe)))
    assert back == [["id", "v"], ["'=HYPERLINK(\"x\")", "1"], ["'@cmd", "-2"],
                    ["plain, with comma", "0.5"]]
    exact = list(csv.reader(io.StringIO(csv_text(rows, spreadsheet=False))))
    assert exact[1][0] == "=HYPERLINK(\"x\")" and exact[2][0] == "@cmd"
    assert safe.endswith("\n") and "\r\n" not in safe


@pytest.mark.parametrize("as_arrow", [False, True])
def test_formula_ids(as_arrow):
    ids = ["a", "=1+1", "-5", "+SUM(A1)", "@cmd", "-x", "\tt", "7", "", "b=c"]
    arg = pa.array(ids) if as_arrow else ids
    count, first = formula_ids(arg, show=3)
    assert count == 5
    assert first == ["=1+1", "+SUM(A1)", "@cmd"]
    assert formula_ids(pa.array(["a", "b"]) if as_arrow else ["a", "b"]) == (0, [])


def test_module_loads_no_qt():
    import subprocess
    import sys
    code = "import sys, kmetric_gui.io.saving; print(any(m.startswith('PySide') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
