"""`kmetric`: Kaggle metrics headless.

Exit codes: 0 scored (an undefined score too), 2 invalid input (one line
per problem on stderr), 1 a bug (one line; KMETRIC_DEBUG=1 shows the trace).
Each command is a module with ``register(subparsers)``; its parser's
``run(args)`` returns the exit code.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import argparse
import os
import sys

from .. import __version__
from ..cpu import prefer_avx2_sort

prefer_avx2_sort()                  # before anything imports numpy (kmetric_gui/cpu.py)

from . import check_metric, compare, competitions, rank, report, score, select  # noqa: E402

if TYPE_CHECKING:
    from collections.abc import Sequence

COMMANDS = (score, compare, report, select, rank, check_metric, competitions)


def build_parser() -> argparse.ArgumentParser:
    from .options import Parser
    p = Parser(prog="kmetric", description="Kaggle metric scoring.")
    p.add_argument("--version", action="version", version=f"kmetric {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.register(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    from ..errors import VisibleStream
    # Names and ids from files reach messages: a terminal shows their escape codes
    # and direction controls as text (stdout only on a terminal: a pipe gets the data).
    streams = sys.stdout, sys.stderr
    sys.stderr = VisibleStream(sys.stderr)
    if _is_tty(sys.stdout):
        sys.stdout = VisibleStream(sys.stdout)
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = streams


def _is_tty(stream):
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _main(argv):
    from .metricfile_start import end_spare, start_early
    # A metric file's workers import pandas while the command parses and reads. Started
    # here, never on import: the workers' server imports the `kmetric` script again.
    start_early(sys.argv[1:] if argv is None else list(argv))
    try:
        args = build_parser().parse_args(argv)
    except SystemExit:
        end_spare()
        raise
    try:
        return args.run(args)
    except KeyboardInterrupt:
        print("kmetric: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `kmetric score ... | head`: the reader left; end quietly, as Unix tools do.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:
            pass
        return 0
    except MemoryError:
        from ..io.read import memory_message, memory_need
        files = [getattr(args, n) for n in ("truth", "submission") if getattr(args, n, None)]
        need, avail = memory_need(files)
        print(f"kmetric: {memory_message(need, avail)}", file=sys.stderr)
        return 2
    except Exception as e:  # a bug: one line, never a traceback unless asked
        if os.environ.get("KMETRIC_DEBUG"):
            raise
        print(f"kmetric: internal error ({type(e).__name__}: {e}); "
              "rerun with KMETRIC_DEBUG=1 for details and report it", file=sys.stderr)
        return 1
    finally:
        end_spare()                 # a host started early that the run did not take


def entry(argv: Sequence[str] | None = None) -> None:
    """The `kmetric` command: main(), its output flushed, then the process ends at once.

    Arrow's native thread pool can abort a finished process while the interpreter
    tears it down ("terminate called without an active exception", apache/arrow#34314):
    the command has nothing left to clean up, so it skips that teardown.
    """
    code = main(argv)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:             # the reader left before the buffer was written
            try:
                os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
            except OSError:
                pass
        except (OSError, ValueError):
            pass
    os._exit(code)


if __name__ == "__main__":
    entry()
