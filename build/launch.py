"""PyInstaller entry for both executables: `kmetric` runs the CLI, anything else the app.

One entry lets the onedir bundle hold one archive: on Linux `kmetric` is a symbolic
link to `kmetric-gui`; on Windows and macOS it is a console build of the same archive.
"""
import os
import sys

if os.path.basename(sys.argv[0]).lower().split(".")[0] == "kmetric":
    from kmetric_gui.cli import entry
    entry()
else:
    from kmetric_gui.gui.app import main
    sys.exit(main())
