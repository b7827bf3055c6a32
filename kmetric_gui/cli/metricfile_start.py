"""A `--metric-file` command starts its workers' server first of all: the server's
import of pandas (half a second) then runs beside the CLI's own imports instead
of after them. Only argv is looked at (nothing is parsed yet); anything else
about the run is checked later, as for any command."""
import os


def start_early(argv):
    # the kmetric command, or python -m kmetric_gui.cli (argv[0] is "-m" while runpy
    # imports the package)
    if os.path.basename(argv[0] if argv else "") not in ("kmetric", "kmetric.exe", "__main__.py", "-m"):
        return
    args = argv[1:]
    if not any(a == "--metric-file" or a.startswith("--metric-file=") for a in args):
        return
    if any(a.startswith("dask:") or a.startswith("--executor=dask:") for a in args):
        return                       # the calls run on a cluster's workers
    from ..metricfile.start import warm_up
    warm_up()
