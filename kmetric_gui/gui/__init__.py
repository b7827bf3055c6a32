"""The desktop app (Qt). Only this package imports Qt."""
from ..cpu import prefer_avx2_sort

prefer_avx2_sort()                  # before anything imports numpy (kmetric_gui/cpu.py)
