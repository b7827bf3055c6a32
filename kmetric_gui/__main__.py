"""`python -m kmetric_gui` is `kmetric-gui`."""
import sys

from .gui.app import main

sys.exit(main())
