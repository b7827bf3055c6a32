"""PyInstaller entry for the `kmetric-gui` executable."""
import sys

from kmetric_gui.gui.app import main

sys.exit(main())
