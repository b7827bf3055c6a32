"""PyInstaller entry for both executables: `kmetric` runs the CLI, anything else the app.

One entry lets the onedir bundle hold one archive: on Linux `kmetric` is a symbolic
link to `kmetric-gui`; on Windows and macOS it is a console build of the same archive.
"""
import multiprocessing
import os
import re
import sys

# First thing: a metric file's workers' host is this executable started again
# (metricfile/pool.py): it runs the host and exits, before the CLI or the app would start.
if len(sys.argv) > 1 and sys.argv[1] == "--kmetric-metric-host":
    from kmetric_gui.metricfile.host import main as host_main
    host_main(sys.argv[2:])
    sys.exit(0)
multiprocessing.freeze_support()

# What a bare Linux lacks for Qt (the bundle carries the rest): the system library the
# loader names -> its Debian/Ubuntu package.
PACKAGES = {"libGL.so": "libgl1", "libEGL.so": "libegl1", "libfontconfig.so": "libfontconfig1",
            "libfreetype.so": "libfreetype6", "libxkbcommon.so": "libxkbcommon0",
            "libglib-2.0.so": "libglib2.0-0", "libdbus-1.so": "libdbus-1-3", "libX11.so": "libx11-6"}
BASE = ["libgl1", "libegl1", "fontconfig-config"]


def missing_library(error):
    """The system library an ImportError says the loader could not find ('libGL.so.1'), or None."""
    found = re.search(r"(lib[\w.+-]+?\.so[\d.]*): cannot open shared object file", str(error))
    return found.group(1) if found else None


def hint(library):
    package = next((p for prefix, p in PACKAGES.items() if library.startswith(prefix)), None)
    packages = BASE + ([package] if package and package not in BASE else [])
    return (f"kmetric-gui: Qt cannot start: the system library {library} is not installed. "
            f"On Debian/Ubuntu: sudo apt-get install --no-install-recommends {' '.join(packages)}"
            " (Fedora/RHEL: sudo dnf install mesa-libGL mesa-libEGL fontconfig). "
            "`kmetric score` works without them.")


if os.path.basename(sys.argv[0]).lower().split(".")[0] == "kmetric":
    from kmetric_gui.cli import entry
    entry()
else:
    try:
        from kmetric_gui.gui.app import main
        code = main()
    except ImportError as e:          # Qt's libraries need a few of the system's
        library = missing_library(e)
        if library is None:
            raise
        print(hint(library), file=sys.stderr)
        code = 2
    sys.exit(code)
