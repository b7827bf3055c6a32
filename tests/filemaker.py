"""Helpers that write small Kaggle-style files for the io and CLI tests."""
import gzip
import io
import zipfile

import pandas as pd


def write(path, text, *, compress=None, bom=False):
    data = (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")
    if compress == "gz":
        path = path.with_name(path.name + ".gz")
        path.write_bytes(gzip.compress(data))
    elif compress == "zip":
        inner = path.name
        path = path.with_name(path.name + ".zip")
        with zipfile.ZipFile(path, "w") as z:
            z.writestr(inner, data)
    else:
        path.write_bytes(data)
    return path


def write_parquet(path, text):
    pd.read_csv(io.StringIO(text), dtype=str).to_parquet(path)
    return path


def csv(rows):
    return "\n".join(",".join(map(str, r)) for r in rows) + "\n"
