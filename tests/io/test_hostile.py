"""Hostile and odd files: every fault an InputError naming the file, in words."""
import gzip
import io
import json
import os
import subprocess
import sys
import zipfile

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from kmetric_gui.errors import InputError
from kmetric_gui.io import memory as memory_mod
from kmetric_gui.io.read import read_header, read_pair, read_table

HERE = os.path.dirname(__file__)
ROOT = os.path.dirname(os.path.dirname(HERE))

sys.path.insert(0, HERE)
import bombs  # noqa: E402

# The child's own peak memory. On Linux ru_maxrss carries the parent's peak across
# fork/exec (a full test run past 1 GB made every bomb "use" 1.06 GB), so read VmHWM, the
# peak of the child's own address space; getrusage on macOS (bytes); none on Windows.
BOMB_RUN = """
import json, sys, time
def peak():
    try:
        with open("/proc/self/status") as f:
            return next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmHWM:"))
    except (OSError, StopIteration):
        pass
    try:
        import resource
    except ImportError:
        return None
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * (1 if sys.platform == "darwin" else 1024)
from kmetric_gui.errors import InputError
from kmetric_gui.io.read import read_table
size = int(sys.argv[2])
t0 = time.perf_counter()
try:
    read_table(sys.argv[1], "submission", string_columns=["id"])
    msg = None
except InputError as e:
    msg = str(e)
print(json.dumps(dict(size=size, msg=msg, seconds=time.perf_counter() - t0,
                      peak=peak())))
"""


@pytest.mark.parametrize("kind,name", [("gzip_bomb", "bomb.csv.gz"), ("zip_bomb", "bomb.zip")])
def test_bomb_refused_fast_and_small(tmp_path, kind, name):
    path = tmp_path / name
    size = getattr(bombs, kind)(path)        # made here: the child's peak memory is the read alone
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", BOMB_RUN, str(path), str(size)],
                         capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    r = json.loads(out.stdout)
    assert r["size"] == 10 + 4 * 2 ** 30                 # a 4 GiB bomb...
    assert path.stat().st_size < 5e6                     # ...from a few MB
    assert r["msg"].startswith(f"submission {name}: inflates past")
    assert "a compressed bomb?" in r["msg"] and "--max-inflated-gb" in r["msg"]
    if r["peak"] is not None:                            # Windows has no getrusage
        assert r["peak"] < 1e9, r                         # refused under 1 GB of memory
    assert r["seconds"] < 30, r                           # and within seconds (generous)


def _csv_gz(tmp_path, rows):
    p = tmp_path / "sub.csv.gz"
    text = "id,target\n" + "".join(f"{i:06d},{i % 5}\n" for i in range(rows))
    p.write_bytes(gzip.compress(text.encode()))
    return p, len(text)


def test_user_cap_refuses_and_raising_it_reads(tmp_path):
    p, size = _csv_gz(tmp_path, 20_000)
    with pytest.raises(InputError, match=r"submission sub.csv.gz: inflates past 0.1 MB"):
        read_table(p, "submission", max_inflated=100_000)
    assert read_table(p, "submission", max_inflated=size).num_rows == 20_000


def test_highly_compressible_small_file_is_not_a_bomb(tmp_path):
    p = tmp_path / "zeros.csv.gz"
    p.write_bytes(gzip.compress(b"id,target\n" + b"a,0\n" * 2_000_000, 9))   # ratio ~ 1000
    assert read_table(p, "submission", string_columns=["id"]).num_rows == 2_000_000


def test_multi_member_gzip_and_zip_read_whole(tmp_path):
    g = tmp_path / "m.csv.gz"
    g.write_bytes(gzip.compress(b"id,v\na,1\n") + gzip.compress(b"b,2\n"))
    assert read_table(g, "solution", string_columns=["id"]).column("id").to_pylist() == ["a", "b"]
    z = tmp_path / "t.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("t.csv", "id,v\na,1\n")
    assert read_table(z, "solution").num_rows == 1


def _zip(tmp_path, name="t.zip", method=zipfile.ZIP_DEFLATED, text=b"id,v\n" + b"a,1\n" * 1000):
    p = tmp_path / name
    with zipfile.ZipFile(p, "w", method) as zf:
        zf.writestr("t.csv", text)
    return p


def _patch(p, find, offset, value):
    """Overwrite a 2-byte field of the local (find=PK34) and central (PK12) headers."""
    raw = bytearray(p.read_bytes())
    for sig, off in ((b"PK\x03\x04", offset[0]), (b"PK\x01\x02", offset[1])):
        i = raw.index(sig)
        raw[i + off:i + off + 2] = value.to_bytes(2, "little")
    p.write_bytes(bytes(raw))


def test_encrypted_zip(tmp_path):
    p = _zip(tmp_path)
    _patch(p, None, (6, 8), 1)            # general purpose flag bit 0: encrypted
    with pytest.raises(InputError, match=r"^solution t.zip: .*encrypted \(password-protected\)"):
        read_table(p, "solution")


def test_unsupported_zip_method(tmp_path):
    p = _zip(tmp_path, method=zipfile.ZIP_STORED)
    _patch(p, None, (8, 10), 9)           # method 9: Deflate64
    with pytest.raises(InputError, match=r"^submission t.zip: .*Deflate64.*cannot be read"):
        read_table(p, "submission")


def test_corrupt_deflate_zip_and_gzip(tmp_path):
    p = _zip(tmp_path, text=os.urandom(3000).hex().encode() + b"\n" + b"x,1\n" * 5000)
    raw = bytearray(p.read_bytes())
    start = raw.index(b"t.csv") + 5
    for i in range(start + 20, start + 200):
        raw[i] ^= 0x5A
    p.write_bytes(bytes(raw))
    with pytest.raises(InputError, match=r"^solution t.zip: .*(corrupt|damaged)"):
        read_table(p, "solution")
    g = tmp_path / "c.csv.gz"
    data = bytearray(gzip.compress(b"id,v\n" + os.urandom(20000).hex().encode() + b",1\n"))
    for i in range(40, 400):
        data[i] ^= 0x33
    g.write_bytes(bytes(data))
    with pytest.raises(InputError, match=r"^solution c.csv.gz: the compressed data is corrupt"):
        read_table(g, "solution")
    t = tmp_path / "t.csv.gz"
    t.write_bytes(gzip.compress(b"id,v\n" + os.urandom(5000).hex().encode() + b",1\n")[:-100])
    with pytest.raises(InputError, match=r"^solution t.csv.gz: the compressed data ends early"):
        read_table(t, "solution")


def test_unreadable_zip_member(tmp_path):
    p = _zip(tmp_path)
    raw = bytearray(p.read_bytes())
    raw[0:4] = b"XXXX"                   # the member's local header is damaged
    p.write_bytes(bytes(raw))
    with pytest.raises(InputError, match=r"^submission t.zip: .*unreadable"):
        read_table(p, "submission")


def test_not_a_zip_and_two_members(tmp_path):
    p = tmp_path / "x.zip"
    p.write_bytes(b"id,v\na,1\n")
    with pytest.raises(InputError, match=r"not a valid zip archive"):
        read_table(p, "solution")
    with zipfile.ZipFile(p, "w") as zf:
        zf.writestr("a.csv", "id\n1\n")
        zf.writestr("b.csv", "id\n1\n")
    with pytest.raises(InputError, match=r"zip holds 2 files \(a.csv, b.csv\)"):
        read_table(p, "solution")


def test_folder_without_permission(tmp_path, monkeypatch):
    folder = tmp_path / "locked"
    folder.mkdir()
    f = folder / "sol.csv"
    f.write_text("id,v\na,1\n")
    if os.name == "posix" and os.geteuid() != 0:
        os.chmod(folder, 0)
    else:         # root (and Windows, which has no such mode) reads anything: refuse as the kernel would
        real = os.stat

        def stat(path, *a, **k):
            if str(path).startswith(str(folder)):
                raise PermissionError(13, "Permission denied", str(path))
            return real(path, *a, **k)
        monkeypatch.setattr(os, "stat", stat)
    try:
        with pytest.raises(InputError, match=r"^solution sol.csv: permission denied$"):
            read_table(f, "solution")
    finally:
        os.chmod(folder, 0o755)


def test_parquet_list_id_and_timestamps(tmp_path):
    p = tmp_path / "l.parquet"
    pq.write_table(pa.table({"id": [[1, 2], [3]], "v": [1, 2]}), p)
    with pytest.raises(InputError, match=r"^submission l.parquet: id column 'id' holds lists of values"):
        read_table(p, "submission", string_columns=["id"])
    t = tmp_path / "t.parquet"
    pq.write_table(pa.table({"id": pa.array([0, 1], pa.timestamp("ms")), "v": [1, 2]}), t)
    with pytest.raises(InputError, match=r"id column 'id' holds dates or times"):
        read_table(t, "submission", string_columns=["id"])
    ok = tmp_path / "ok.parquet"
    pq.write_table(pa.table({"id": [7, 8], "v": [1, 2]}), ok)
    assert read_table(ok, "solution", string_columns=["id"]).column("id").to_pylist() == ["7", "8"]
    assert read_header(ok, "solution") == ["id", "v"]
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"PAR1" + b"\x00" * 100)
    with pytest.raises(InputError, match=r"^solution bad.parquet: not a readable Parquet file"):
        read_table(bad, "solution")


def test_header_over_64k_and_field_over_1mb(tmp_path):
    classes = [f"class_{j:05d}" for j in range(12_000)]
    p = tmp_path / "wide.csv"
    p.write_text("fname," + ",".join(classes) + "\n" + "a.wav," + ",".join(["0"] * 12_000) + "\n")
    assert p.stat().st_size > 64 * 1024 * 2
    assert read_header(p, "solution") == ["fname"] + classes
    assert read_table(p, "solution").num_columns == 12_001
    q = tmp_path / "long.csv"
    big = "x" * 3_000_000
    q.write_text(f"id,labels\na,{big}\nb,short\n")
    t = read_table(q, "solution", string_columns=["id"])
    assert t.column("labels").to_pylist() == [big, "short"]
    gz = tmp_path / "long.csv.gz"
    gz.write_bytes(gzip.compress(q.read_bytes()))
    assert read_table(gz, "solution").num_rows == 2


def test_empty_text_stays_text(tmp_path):
    p = tmp_path / "e.csv"
    p.write_text('id,v,w\n,NA,true\n"",nan,1\nx,,2\n')
    t = read_table(p, "submission", string_columns=["id"])
    assert t.column("id").to_pylist() == ["", "", "x"]
    assert t.column("id").null_count == 0
    assert t.column("v").to_pylist() == ["NA", "nan", ""]   # numbers.py judges these
    assert t.column("w").to_pylist() == ["true", "1", "2"]


def test_parse_errors_in_words(tmp_path):
    p = tmp_path / "bad.csv"
    p.write_bytes(b"id,v\na,1\nb,2,3\n")
    with pytest.raises(InputError) as e:
        read_table(p, "submission")
    assert str(e.value) == ("submission bad.csv: cannot parse as CSV: row 2 has 3 fields where "
                            "the header has 2: 'b,2,3'")
    # The row found again past the first read of the file (1 MB chunks), with CRLF lines.
    r = tmp_path / "far.csv"
    r.write_bytes(b"id,v\r\n" + b"".join(b"%08x,1\r\n" % k for k in range(200_000)) + b"x;1\r\n")
    with pytest.raises(InputError) as e:
        read_table(r, "submission")
    assert "row 200,001 has 1 fields where the header has 2: 'x;1'" in str(e.value)
    q = tmp_path / "latin.csv"
    q.write_bytes(b"id,v\n" + b"a,1\n" * 30000 + b"caf\xe9,2\n")
    with pytest.raises(InputError, match=r"^submission latin.csv: cannot parse as CSV: not UTF-8"):
        read_table(q, "submission", string_columns=["id"])


def test_read_pair_reports_both_files(tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"")
    with pytest.raises(InputError) as e:
        read_pair(tmp_path / "nope.csv", empty)
    assert e.value.problems == ["solution nope.csv: file not found", "submission empty.csv: file is empty"]
    good = tmp_path / "good.csv"
    good.write_text("id,v\na,1\n")
    bad = tmp_path / "bad.csv"
    bad.write_text("\n\n")
    with pytest.raises(InputError) as e:
        read_pair(bad, bad)
    assert [x.split(":")[0] for x in e.value.problems] == ["solution bad.csv", "submission bad.csv"]
    sol, sub = read_pair(good, good)
    assert sol.column("id").type == pa.string() and sub.num_rows == 1


def test_memory_estimate_refuses_before_reading(tmp_path, monkeypatch):
    p = tmp_path / "s.csv"
    p.write_text("id,v\n" + "a,1\n" * 1000)
    monkeypatch.setattr(memory_mod, "available_memory", lambda: 5000)
    with pytest.raises(InputError) as e:
        read_pair(p, p)
    need = 2 * p.stat().st_size * memory_mod.NEED_PER_BYTE
    assert str(e.value) == (f"these files: not enough memory: needs about {need / 1e6:.1f} MB, "
                            "0.0 MB available")


def test_utf16_and_binary_named(tmp_path):
    p = tmp_path / "u.csv"
    p.write_bytes("id,v\na,1\n".encode("utf-16"))
    with pytest.raises(InputError, match=r"^solution u.csv: UTF-16"):
        read_table(p, "solution")
    b = tmp_path / "b.csv"
    b.write_bytes(io.BytesIO(b"\x00\x01\x02").read())
    with pytest.raises(InputError, match=r"^solution b.csv: binary data"):
        read_table(b, "solution")


@pytest.mark.parametrize("raw,name", [(b"\xef\xbb\xbfid,a b,c\r\n1,2,3\r\n", "x.csv"),
                                      (b"id\ta\tb\n1\t2\t3\n", "x.tsv"), (b'"id","v,w"\n1,2\n', "q.csv"),
                                      (b"id,v\n", "h.csv")])
def test_header_fast_path_matches_the_parser(tmp_path, raw, name):
    p = tmp_path / name
    p.write_bytes(raw)
    assert read_header(p, "submission") == read_table(p, "submission").column_names
