"""A `--metric-file` command starts its workers' server first of all: the server's
import of pandas (half a second) then runs beside the CLI's own imports instead
of after them. Only argv is looked at (nothing is parsed yet); anything else
about the run is checked later, as for any command."""


def start_early(args):
    """``args``: the command's arguments (without the program's name)."""
    if not any(a == "--metric-file" or a.startswith("--metric-file=") for a in args):
        return
    if any(a.startswith("dask:") or a.startswith("--executor=dask:") for a in args):
        return                       # the calls run on a cluster's workers
    from ..metricfile.start import warm_up
    warm_up()
