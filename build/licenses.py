"""The licence texts of everything a bundle carries, gathered at build time.

build/kmetric_gui.spec calls gather() with the files PyInstaller collected; it writes
licenses/ (put in every bundle, and beside the executables in the archives):

    README.txt                 each component, its version, licence and files
    kmetric_gui/LICENSE        this project's
    python/...                 CPython's (the interpreter and its standard library)
    <distribution>/...         each bundled Python package's own licence files
    system/<package>/copyright a Linux build's system libraries (Debian/Ubuntu packages)

A bundled package without licence files, and without a text kept in
build/license-texts/ for it, stops the build: nothing ships without its licence.
"""
import importlib.metadata as md
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TEXTS = HERE / "license-texts"
# Wheels that carry no licence file. Qt for Python is LGPL-3.0 (which adds permissions to
# the GPL-3.0, so both texts go along).
KEPT_TEXTS = {"pyside6-essentials": ["LGPL-3.0.txt", "GPL-3.0.txt"],
              "shiboken6": ["LGPL-3.0.txt", "GPL-3.0.txt"]}
# In every executable whatever the analysis found: PyInstaller's bootloader.
ALWAYS = ["pyinstaller"]
LICENSE_NAME = re.compile(r"(?i)^(licen[cs]e|copying|notice|copyright|authors)")
QT_NOTE = """\
Qt for Python (PySide6-Essentials, shiboken6) and the Qt libraries it brings are used under
the GNU Lesser General Public License version 3 (pyside6-essentials/LGPL-3.0.txt, which adds
permissions to pyside6-essentials/GPL-3.0.txt). They are separate shared libraries in this
bundle (in the folder bundle: _internal/PySide6 and _internal/shiboken6); you may replace them
with your own build of the same version. Their source code: https://code.qt.io and
https://download.qt.io/official_releases/QtForPython/.
"""


def normalize(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def _key(path):
    return os.path.normcase(os.path.realpath(path))


def file_owners():
    """Each installed file (real path) -> its distribution, from every RECORD."""
    owners = {}
    for dist in md.distributions():
        for f in dist.files or ():
            owners[_key(dist.locate_file(f))] = dist
    return owners


def license_files(dist):
    """(path inside the licence folder, source file) for a distribution's own texts."""
    found = []
    for f in dist.files or ():
        parts = Path(str(f)).parts
        info = next((i for i, p in enumerate(parts) if p.endswith(".dist-info")), None)
        if info is None:
            continue
        inner = parts[info + 1:]
        if inner and (inner[0] == "licenses" and len(inner) > 1 or LICENSE_NAME.match(inner[-1])):
            rel = Path(*inner[1:]) if inner[0] == "licenses" else Path(*inner)
            found.append((rel, Path(dist.locate_file(f))))
    return found


def python_license():
    """CPython's licence text: beside the standard library, the installation, or (Debian's
    own interpreter, which leaves LICENSE.txt out) its package's copyright file."""
    stdlib = Path(sysconfig.get_path("stdlib"))
    for cand in (stdlib / "LICENSE.txt", Path(sys.base_prefix) / "LICENSE.txt",
                 Path(sys.base_prefix) / "LICENSE", stdlib.parent / "LICENSE.txt"):
        if cand.is_file():
            return cand
    found = system_packages([str(stdlib / "os.py")])
    if found:
        return next(iter(found.values()))[1]
    raise SystemExit(f"licenses: no licence text of Python {sys.version.split()[0]} found "
                     f"(looked beside {stdlib} and in {sys.base_prefix})")


def system_packages(paths):
    """path -> (package, its copyright file) for files a Debian/Ubuntu package installed;
    {} where dpkg is not there (macOS, Windows, other Linux)."""
    if not paths or shutil.which("dpkg-query") is None:
        return {}
    asked = {}
    for p in paths:
        for variant in {p, os.path.realpath(p), re.sub(r"^/usr(?=/lib)", "", p),
                        re.sub(r"^/lib", "/usr/lib", p)}:
            asked[variant] = p
    r = subprocess.run(["dpkg-query", "-S", *asked], capture_output=True, text=True)
    out = {}
    for line in r.stdout.splitlines():
        pkgs, _, path = line.partition(": ")
        package = pkgs.split(",")[0].strip().split(":")[0]
        copyright = Path("/usr/share/doc") / package / "copyright"
        if path in asked and copyright.is_file():
            out[asked[path]] = (package, copyright)
    return out


def licence_of(dist):
    meta = dist.metadata
    text = meta.get("License-Expression") or meta.get("License") or ""
    if not text or len(text) > 80:
        classifiers = [c.split(" :: ")[-1] for c in meta.get_all("Classifier") or ()
                       if c.startswith("License ::")]
        text = ", ".join(classifiers) or (text.splitlines()[0][:80] if text else "see the files")
    return text


def gather(sources, out, project_version):
    """Write the licence folder `out` for a bundle made of `sources` (file paths)."""
    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    owners = file_owners()
    dists, unowned = {}, []
    stdlib = [_key(sysconfig.get_path(k)) + os.sep for k in ("stdlib", "platstdlib")]
    root = _key(ROOT) + os.sep
    for src in sources:
        k = _key(src)
        dist = owners.get(k)
        if dist is not None and normalize(dist.metadata["Name"]) != "kmetric-gui":
            dists[normalize(dist.metadata["Name"])] = dist
        elif dist is not None:
            continue                                    # this project: its LICENSE below
        elif not (k.startswith(root) or any(k.startswith(p) for p in stdlib)):
            unowned.append(str(src))        # (this project's: LICENSE; the stdlib's: Python's)
    for name in ALWAYS:
        try:
            dists[name] = md.distribution(name)
        except md.PackageNotFoundError:
            pass

    rows = [("kmetric_gui", project_version, "MIT", ["kmetric_gui/LICENSE"])]
    (out / "kmetric_gui").mkdir()
    shutil.copy2(ROOT / "LICENSE", out / "kmetric_gui" / "LICENSE")
    (out / "python").mkdir()                           # the interpreter is always inside
    src = python_license()
    shutil.copy2(src, out / "python" / src.name)
    rows.append(("Python", sys.version.split()[0], "PSF-2.0", [f"python/{src.name}"]))
    missing = []
    for name in sorted(dists):
        dist = dists[name]
        files = license_files(dist)
        if not files and name in KEPT_TEXTS:
            files = [(Path(t), TEXTS / t) for t in KEPT_TEXTS[name]]
        if not files:
            missing.append(f"{dist.metadata['Name']} {dist.version}")
            continue
        for rel, src in files:
            dest = out / name / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest)
        rows.append((dist.metadata["Name"], dist.version, licence_of(dist),
                     [f"{name}/{rel.as_posix()}" for rel, _ in files]))
    if missing:
        raise SystemExit("licenses: no licence text for " + ", ".join(missing) +
                         f"; put one in {TEXTS} and name it in KEPT_TEXTS (build/licenses.py)")
    system = system_packages(unowned)
    for package, copyright in sorted(set(system.values())):
        dest = out / "system" / package / "copyright"
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(copyright, dest)
        libs = sorted(Path(p).name for p, (pkg, _) in system.items() if pkg == package)
        rows.append((f"{package} (system library: {', '.join(libs)})", "", "see the file",
                     [f"system/{package}/copyright"]))
    python = _key(sys.base_prefix) + os.sep          # libpython, DLLs: Python's licence
    others = sorted(Path(p).name for p in unowned if p not in system and not _key(p).startswith(python))
    write_index(out / "README.txt", project_version, rows, others)
    return out


def write_index(path, version, rows, others):
    lines = [f"kmetric_gui {version} bundles the components below; each one's licence",
             "texts are in this folder, at the paths given.", "", QT_NOTE]
    for name, ver, licence, files in rows:
        lines.append(f"{name} {ver}".rstrip() + f"  [{licence}]")
        lines += [f"    {f}" for f in files]
    if others:
        lines += ["", "Also from the build system, with no package record found here:"]
        lines += [f"    {name}" for name in others]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
