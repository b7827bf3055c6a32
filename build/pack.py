"""Pack a build folder into one archive that keeps execute bits and symbolic links.

    python build/pack.py dist            # dist/kmetric-gui-<version>-<os>-<arch>.tar.gz (.zip on Windows)
    python build/pack.py dist/onefile    # dist/kmetric-gui-<version>-<os>-<arch>-onefile.tar.gz
    python build/pack.py --expected      # the archives a release uploads (names, one a line)
    python build/pack.py --unpack ARCHIVE DEST   # unpack as a user would (the smoke test runs that)
    python build/pack.py --check-upload dist     # exactly the expected archives are there (exit 1 if not)

CI uploads these archives: artifact uploads drop permissions of loose files.
"""
import platform
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from kmetric_gui import __version__  # noqa: E402

# What an archive holds of its build folder: the bundle (kmetric-gui folder or executable,
# kmetric, kmetric-gui.app) and its licences. Not what else lies in dist/ (a wheel or
# sdist, earlier archives, the onefile folder).
SHIPPED = ("kmetric-gui", "kmetric", "LICENSE", "licenses")


def archive_name(onefile):
    system = {"win32": "windows", "darwin": "macos"}.get(sys.platform, sys.platform)
    kind = "-onefile" if onefile else ""
    return f"kmetric-gui-{__version__}-{system}-{platform.machine().lower()}{kind}"


def suffix():
    return ".zip" if sys.platform == "win32" else ".tar.gz"


def expected():
    """The archives a release uploads from dist/: the onedir one and the onefile one."""
    return [archive_name(False) + suffix(), archive_name(True) + suffix()]


def pack(folder):
    folder = Path(folder).resolve()
    onefile = folder.name == "onefile"
    items = sorted(p for p in folder.iterdir() if p.name.split(".")[0] in SHIPPED)
    out_dir = folder.parent if onefile else folder           # always into dist/
    name = archive_name(onefile)
    out = out_dir / (name + suffix())
    if sys.platform == "win32":
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            for item in items:
                for f in [item] if item.is_file() else sorted(item.rglob("*")):
                    z.write(f, Path(name) / f.relative_to(folder))
    else:
        with tarfile.open(out, "w:gz") as t:     # modes and symbolic links are stored as they are
            for item in items:
                t.add(item, arcname=f"{name}/{item.name}")
    print(out)
    return out


def check_upload(dist):
    """The archives in dist/ (what the workflow uploads: *.tar.gz, *.zip) are exactly the
    expected ones; prints them with their sizes. False, saying what differs, otherwise."""
    dist = Path(dist)
    found = sorted(p.name for p in dist.iterdir() if p.name.endswith((".tar.gz", ".zip")))
    if found != sorted(expected()):
        print(f"pack: dist/ holds {found}, a release uploads {expected()}", file=sys.stderr)
        return False
    for name in expected():
        print(f"  {dist / name}  {(dist / name).stat().st_size / 1e6:.0f} MB")
    return True


def unpack(archive, dest):
    """Unpack an archive into dest (its one top folder inside): the folder returned."""
    archive, dest = Path(archive), Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    if archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as z:
            z.extractall(dest)
            top = {n.replace("\\", "/").split("/")[0] for n in z.namelist()}
    else:
        with tarfile.open(archive) as t:
            # "tar": modes and links inside the folder kept, nothing written outside it.
            extra = {"filter": "tar"} if hasattr(tarfile, "tar_filter") else {}
            t.extractall(dest, **extra)
            top = {n.split("/")[0] for n in t.getnames()}
    (folder,) = top
    return dest / folder


if __name__ == "__main__":
    if sys.argv[1:2] == ["--expected"]:
        print("\n".join(expected()))
    elif sys.argv[1:2] == ["--check-upload"]:
        sys.exit(0 if check_upload(sys.argv[2]) else 1)
    elif sys.argv[1:2] == ["--unpack"]:
        print(unpack(sys.argv[2], sys.argv[3]).as_posix())
    else:
        pack(sys.argv[1] if len(sys.argv) > 1 else ROOT / "dist")
