"""PyInstaller entry for the `kmetric` executable (console)."""
import sys

from kmetric_gui.cli import main

sys.exit(main())
