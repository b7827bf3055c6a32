"""Saves under hostile conditions (issue 25): every column kept, read-only and special
files refused, links kept, the umask never touched, killed saves cleaned up."""
import pyarrow as pa
import pyarrow.parquet as pq
import pytest


def _parsed(text):
    import csv
    import io
    return list(csv.reader(io.StringIO(text, newline="")))


# -- C: what a save keeps and refuses ----------------------------------------------------

def test_saved_submission_keeps_every_column_in_order(tmp_path):
    from kmetric_gui.io.keep import with_all_columns
    from kmetric_gui.metrics import get_metric
    from kmetric_gui.io.saving import csv_text
    from kmetric_gui.analysis.scoring import Options, load
    sol = tmp_path / "sol.csv"
    sol.write_text("id,rating\na,1\nb,2\nc,3\n")
    sub = tmp_path / "sub.csv"
    sub.write_text('id,rating,notes,confidence\nc,3,"x, y",0.10\na,1,,007\nb,2,=1+1,1e3\n')
    prep = load(sol, sub, Options(metric="qwk", target_column="rating"))
    header, rows = get_metric("qwk").submission_rows(prep)
    assert list(header) == ["id", "rating"]                       # what the metric writes
    header, rows = with_all_columns(sub, header, rows)
    out = _parsed(csv_text([header, *rows], spreadsheet=False))
    assert out == [["id", "rating", "notes", "confidence"], ["a", "1", "", "007"],
                   ["b", "2", "=1+1", "1e3"], ["c", "3", "x, y", "0.10"]]


def test_saved_parquet_submission_keeps_its_columns(tmp_path):
    from kmetric_gui.io.keep import with_all_columns
    p = tmp_path / "sub.parquet"
    pq.write_table(pa.table({"note": ["n1", "n2"], "id": ["a", "b"], "rating": [1, 2],
                             "conf": [0.5, 0.25]}), p)
    header, rows = with_all_columns(p, ["id", "rating"], [("b", 3), ("a", 1)])
    assert header == ["note", "id", "rating", "conf"]
    assert list(rows) == [["n2", "b", 3, "0.25"], ["n1", "a", 1, "0.5"]]


def _umask():
    import os
    m = os.umask(0)
    os.umask(m)
    return m


def test_save_refuses_read_only_and_special_files(tmp_path, monkeypatch):
    """A read-only file, a named pipe, the null device, a socket and a folder are refused,
    each in words, and left as they were; the kinds a platform lacks (named pipes and Unix
    sockets on Windows) are left out there."""
    import os
    import socket
    import stat

    from kmetric_gui.io.saving import SaveError, save_atomic
    ro = tmp_path / "ro.csv"
    ro.write_text("old")
    os.chmod(ro, 0o444)          # in a writable folder; root too is refused (mode bits)
    with pytest.raises(SaveError, match=r"ro.csv: the file is read-only$"):
        save_atomic(ro, "new")
    assert ro.read_text() == "old" and not stat.S_IMODE(ro.stat().st_mode) & 0o222
    made = ["ro.csv"]
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "pipe"
        os.mkfifo(fifo)
        with pytest.raises(SaveError, match=r"pipe: it is a pipe \(FIFO\), not a regular file$"):
            save_atomic(fifo, "x")
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
        made.append("pipe")
    with pytest.raises(SaveError, match=r"it is a device, not a regular file$"):
        save_atomic(os.devnull, "x")
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    if hasattr(socket, "AF_UNIX"):
        # A relative name: macOS caps a socket's path at 104 bytes, and its temporary
        # folders are longer than that.
        monkeypatch.chdir(tmp_path)
        sock = socket.socket(socket.AF_UNIX)
        try:
            sock.bind("s.sock")
            with pytest.raises(SaveError, match=r"it is a socket, not a regular file$"):
                save_atomic(tmp_path / "s.sock", "x")
        finally:
            sock.close()
        made.append("s.sock")
    with pytest.raises(SaveError, match=r"it is a folder$"):
        save_atomic(tmp_path, "x")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(made)


def test_save_needs_no_user_ids(tmp_path, monkeypatch):
    """Windows has no os.geteuid: the read-only check must not ask for it (every save there
    would fail)."""
    import os

    from kmetric_gui.io.saving import save_atomic
    monkeypatch.delattr(os, "geteuid", raising=False)
    target = tmp_path / "t.csv"
    target.write_text("old")
    save_atomic(target, "new")
    assert target.read_text() == "new"


def test_save_refuses_to_split_hard_links_and_writes_through_symlinks(tmp_path):
    import os

    from kmetric_gui.io.saving import SaveError, save_atomic
    a = tmp_path / "a.csv"
    a.write_text("old")
    os.link(a, tmp_path / "b.csv")
    with pytest.raises(SaveError, match=r"a.csv: the file has 1 other hard link\(s\)"):
        save_atomic(a, "new")
    assert (tmp_path / "b.csv").read_text() == "old" and os.stat(a).st_nlink == 2
    link = tmp_path / "l.csv"
    real = tmp_path / "real.csv"
    real.write_text("old")
    link.symlink_to(real)
    save_atomic(link, "new")
    assert link.is_symlink() and real.read_text() == "new"


def test_new_file_mode_from_the_umask_without_touching_it(tmp_path, monkeypatch):
    import os
    import stat

    import kmetric_gui.io.saving as saving
    calls = []
    real = os.umask
    monkeypatch.setattr(os, "umask", lambda m: (calls.append(m), real(m))[1])
    saving.save_atomic(tmp_path / "n.csv", "x")
    assert calls == []                         # no set-and-restore another thread could see
    assert stat.S_IMODE((tmp_path / "n.csv").stat().st_mode) == 0o666 & ~_umask()
    assert saving.current_umask() == _umask()


def test_stale_temps_of_killed_saves_removed(tmp_path):
    import os
    import subprocess
    import sys
    import time

    from kmetric_gui.io.saving import save_atomic
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    orphan = tmp_path / f".sub.csv.kmsave-{dead}-abcd1234.tmp"      # its process is gone
    orphan.write_bytes(b"x" * 1000)
    mine = tmp_path / f".other.csv.kmsave-{os.getpid()}-zzzz9999.tmp"   # alive, recent: kept
    mine.write_bytes(b"y")
    old = tmp_path / f".old.csv.kmsave-{os.getpid()}-oooo0000.tmp"      # alive, two hours old
    old.write_bytes(b"z")
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    user = tmp_path / ".notes.abcd1234.tmp"                          # not ours: never touched
    user.write_bytes(b"u")
    os.utime(user, (time.time() - 7200, time.time() - 7200))
    save_atomic(tmp_path / "sub.csv", "id,v\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([mine.name, user.name, "sub.csv"])


def test_a_value_not_edited_keeps_the_files_text(tmp_path):
    """'0.18240' and '1.0' stay as written; only an edited value is written anew."""
    from kmetric_gui.io.keep import with_all_columns
    p = tmp_path / "sub.csv"
    p.write_text("id,cat,dog\na,0.18240,1.0\nb,1e-1,0.90\n")
    header, rows = with_all_columns(p, ["id", "cat", "dog"], [("a", 0.1824, 1.0), ("b", 0.25, 0.9)])
    assert header == ["id", "cat", "dog"]
    assert list(rows) == [["a", "0.18240", "1.0"], ["b", 0.25, "0.90"]]
