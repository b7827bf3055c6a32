"""Pack a build folder into one archive that keeps execute bits and symbolic links.

    python build/pack.py dist            # dist/kmetric-gui-<version>-<os>-<arch>.tar.gz (.zip on Windows)
    python build/pack.py dist/onefile    # dist/kmetric-gui-<version>-<os>-<arch>-onefile.tar.gz

CI uploads this archive: artifact uploads drop permissions of loose files.
"""
import platform
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from kmetric_gui import __version__  # noqa: E402


def archive_name(onefile):
    system = {"win32": "windows", "darwin": "macos"}.get(sys.platform, sys.platform)
    kind = "-onefile" if onefile else ""
    return f"kmetric-gui-{__version__}-{system}-{platform.machine().lower()}{kind}"


def pack(folder):
    folder = Path(folder).resolve()
    onefile = folder.name == "onefile"
    # The bundle only: kmetric-gui (folder or executable), kmetric, kmetric-gui.app. Not
    # what else lies in dist/ (a wheel or sdist, earlier archives, the onefile folder).
    items = sorted(p for p in folder.iterdir() if p.name.split(".")[0] in ("kmetric-gui", "kmetric"))
    out_dir = folder.parent if onefile else folder           # always into dist/
    name = archive_name(onefile)
    if sys.platform == "win32":
        out = out_dir / f"{name}.zip"
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            for item in items:
                for f in [item] if item.is_file() else sorted(item.rglob("*")):
                    z.write(f, Path(name) / f.relative_to(folder))
    else:
        out = out_dir / f"{name}.tar.gz"
        with tarfile.open(out, "w:gz") as t:     # modes and symbolic links are stored as they are
            for item in items:
                t.add(item, arcname=f"{name}/{item.name}")
    print(out)
    return out


if __name__ == "__main__":
    pack(sys.argv[1] if len(sys.argv) > 1 else ROOT / "dist")
