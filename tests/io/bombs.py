"""Compressed bombs built in a blink: one compressed block of repeated rows, repeated.

A deflate stream flushed with Z_SYNC_FLUSH ends on a byte boundary with no
final block and refers only to its own bytes, so copies of it concatenate
into one valid stream: 64 copies of 64 MiB of text make 4 GiB from ~4 MB.
"""
import gzip
import struct
import zlib

ROW = b"a,1\n"
PIECE = 64 << 20


def _raw(data):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush(zlib.Z_SYNC_FLUSH)


def gzip_bomb(path, header=b"id,target\n", copies=64):
    """Multi-member gzip: the header, then ``copies`` members of 64 MiB of rows."""
    member = gzip.compress(ROW * (PIECE // len(ROW)), 9)
    with open(path, "wb") as f:
        f.write(gzip.compress(header))
        for _ in range(copies):
            f.write(member)
    return len(header) + copies * PIECE


def zip_bomb(path, header=b"id,target\n", copies=64, name=b"bomb.csv"):
    """A ZIP64 archive of one deflated member inflating to header + copies x 64 MiB."""
    piece = _raw(ROW * (PIECE // len(ROW)))
    end = zlib.compressobj(9, zlib.DEFLATED, -15).flush(zlib.Z_FINISH)
    stream = _raw(header) + piece * copies + end
    size = len(header) + copies * PIECE
    crc = 0                                  # never reached: the reader stops long before
    extra = struct.pack("<HHQQ", 1, 16, size, len(stream))
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0, 8, 0, 0x21, crc, 0xFFFFFFFF,
                        0xFFFFFFFF, len(name), len(extra)) + name + extra
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 45, 0, 8, 0, 0x21, crc,
                          0xFFFFFFFF, 0xFFFFFFFF, len(name), len(extra), 0, 0, 0, 0, 0) + name + extra
    offset = len(local) + len(stream)
    eocd = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central), offset, 0)
    with open(path, "wb") as f:
        f.write(local)
        f.write(stream)
        f.write(central)
        f.write(eocd)
    return size
