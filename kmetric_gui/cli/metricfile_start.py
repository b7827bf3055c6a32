"""A `--metric-file` command starts its workers' host first of all: the host's import
of pandas (half a second) then runs beside the CLI's own imports instead of after
them. Only argv is looked at (nothing is parsed yet); anything else about the run is
checked later, as for any command, and a host the run does not take is ended."""


def _value(args, flag):
    """The value of ``--flag V`` or ``--flag=V`` in argv (the last one), or None."""
    found = None
    for i, a in enumerate(args):
        if a == flag and i + 1 < len(args):
            found = args[i + 1]
        elif a.startswith(flag + "="):
            found = a[len(flag) + 1:]
    return found


def start_early(args):
    """``args``: the command's arguments (without the program's name)."""
    if _value(args, "--metric-file") is None:
        return
    if any(a.startswith("dask:") or a.startswith("--executor=dask:") for a in args):
        return                       # the calls run on a cluster's workers
    mode = _value(args, "--metric-sandbox") or "auto"
    if mode not in ("auto", "off", "require"):
        return
    import os
    python = _value(args, "--metric-python")
    if python is not None and not (os.path.isfile(python) and os.access(python, os.X_OK)):
        return                       # refused in words when the flags are read
    from ..metricfile.start import warm_up
    warm_up(os.path.abspath(python) if python else None, mode)


def end_spare():
    from ..metricfile.start import discard
    discard()
