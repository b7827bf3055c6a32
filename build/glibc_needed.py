"""The newest glibc a Linux bundle needs, and which of its files need it.

    .venv/bin/python build/glibc_needed.py dist/kmetric-gui [--max 2.35]

Reads the versioned glibc symbols every ELF file of the bundle imports (`objdump -T`,
binutils). The bundle carries the build system's libstdc++, libexpat and the like, so it
needs the glibc of the system it was built on; with --max the exit status is 1 when a file
needs a newer one. Linux only.
"""
import argparse
import re
import subprocess
import sys
from pathlib import Path

VERSION = re.compile(r"\bGLIBC_(\d+)\.(\d+)(?:\.(\d+))?\b")


def is_elf(path):
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def needed(path):
    """The newest GLIBC_x.y version an ELF file imports, as a tuple (or None)."""
    out = subprocess.run(["objdump", "-T", str(path)], capture_output=True, text=True).stdout
    found = [tuple(int(g or 0) for g in m.groups())
             for line in out.splitlines() if "*UND*" in line for m in VERSION.finditer(line)]
    return max(found, default=None)


def show(version):
    return ".".join(map(str, version[:2] if version[2] == 0 else version))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("bundle", type=Path)
    p.add_argument("--max", help="fail when a file needs a newer glibc than this (e.g. 2.35)")
    a = p.parse_args(argv)
    files = sorted(f for f in a.bundle.rglob("*") if f.is_file() and not f.is_symlink() and is_elf(f))
    if not files:
        print(f"glibc_needed: no ELF files in {a.bundle}", file=sys.stderr)
        return 2
    versions = {f: v for f in files if (v := needed(f))}
    top = max(versions.values())
    print(f"{len(files)} ELF files; the newest glibc needed: {show(top)}")
    for f, v in sorted(versions.items(), key=lambda kv: kv[1], reverse=True)[:10]:
        print(f"  {show(v):8} {f.relative_to(a.bundle)}")
    if a.max:
        limit = tuple(int(x) for x in (a.max.split(".") + ["0", "0"])[:3])
        over = [f for f, v in versions.items() if v > limit]
        if over:
            print(f"{len(over)} files need a glibc newer than {a.max}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
