"""`kmetric-gui`: QApplication, command-line flags, crash dialog, screenshot mode."""
import argparse
import os
import sys

STYLE = """
#dropZone { border: 2px dashed #9aa5b1; border-radius: 6px; background: #f7f9fb; }
#dropZone[hover="true"] { border-color: #1f6feb; background: #eaf2ff; }
#bigScore { color: #0b3d91; }
#reason { color: #555; }
"""


def parse_args(argv):
    from .. import __version__
    p = argparse.ArgumentParser(prog="kmetric-gui", description="Kaggle metric analyzer.")
    p.add_argument("--version", action="version", version=f"kmetric-gui {__version__}")
    p.add_argument("truth", nargs="?", help="solution file (or a .kmetric project alone)")
    p.add_argument("submission", nargs="?", help="submission file")
    p.add_argument("compare", nargs="*", help="more submissions to compare with it")
    from ..metrics import REGISTRY
    names = list(REGISTRY)
    demos = [m.name for m in REGISTRY.values() if m.demo_paths()]
    p.add_argument("--metric", choices=names)
    p.add_argument("--demo", nargs="?", const=demos[0] if demos else None, choices=demos,
                   help=f"open built-in demo files (default: {demos[0] if demos else 'none'})")
    p.add_argument("--screenshot", metavar="PNG",
                   help="save the window once scoring finished, then exit")
    p.add_argument("--size", metavar="WxH", type=_size,
                   help="window size in pixels (also for --screenshot), whatever the saved layout")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="--screenshot: give up after this many seconds")
    p.add_argument("--metric-file", metavar="FILE",
                   help="score with a competition's metric file (.py or .ipynb); naming it here "
                        "is your consent to run it (the app does not ask)")
    p.add_argument("--metric-python", metavar="PATH",
                   help="with --metric-file: run it in another Python (needs pandas and pyarrow)")
    p.add_argument("--metric-sandbox", choices=("auto", "off", "require"), default="auto",
                   help="with --metric-file: the sandbox (Linux, bubblewrap): auto, off or require")
    args = p.parse_args(argv)
    if args.metric_python is not None:
        from ..cli.metricfile import python_problem
        why = python_problem(args.metric_python)
        if why:
            p.error(f"--metric-python {args.metric_python}: {why}")
        args.metric_python = os.path.abspath(args.metric_python)
    args.project = None
    if args.truth and not args.submission and args.truth.lower().endswith(".kmetric"):
        args.project, args.truth = args.truth, None     # a project: its files and options
    if bool(args.truth) != bool(args.submission):
        p.error("give both TRUTH and SUBMISSION, or neither")
    if args.demo and args.metric and args.metric != args.demo:
        # A demo's files are its metric's: another metric would only change the label.
        p.error(f"--demo {args.demo} is scored with {args.demo}; --metric {args.metric} does "
                f"not fit it (drop --metric, or use --demo {args.metric})")
    return args


def _size(text):
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 1280x720, got {text!r}")
    if not (200 <= w <= 10000 and 200 <= h <= 10000):
        raise argparse.ArgumentTypeError(f"size {text} is outside 200x200 .. 10000x10000")
    return w, h


def _has_display():
    if sys.platform != "linux" or os.environ.get("QT_QPA_PLATFORM"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def install_excepthook(window_getter):
    """Unexpected exceptions: log file + dialog, the app keeps running (see crash.py)."""
    from .crash import install
    install(window_getter)


def create_window(args=None):
    """Build the window (no event loop): used by main() and by the tests."""
    from .main_window import MainWindow
    args = args or parse_args([])
    win = MainWindow(size=args.size)
    if args.metric:
        i = win.options_panel.metric_combo.findData(args.metric)
        win.options_panel.metric_combo.blockSignals(True)
        win.options_panel.metric_combo.setCurrentIndex(i)
        win.options_panel.metric_combo.blockSignals(False)
        win.session.set_options(win.options_panel.options())   # in force, not only shown
    if getattr(args, "project", None):
        win.projects.open(args.project)
    elif args.demo:
        win.open_demo(args.demo)        # scored with its own metric, as the welcome's buttons
    elif args.truth:
        win.open_files(args.truth, args.submission)
        if args.compare:        # once the pair is scored (opening clears the compared files)
            c = win.controller

            def add(_report):
                c.scored.disconnect(add)
                c.compare_jobs.add(list(args.compare))
            c.scored.connect(add)
    if getattr(args, "metric_file", None):
        win.metric_file.open(args.metric_file, explicit=True, python=args.metric_python,
                             sandbox=args.metric_sandbox)
    return win


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if not _has_display():
        if args.screenshot:
            os.environ["QT_QPA_PLATFORM"] = "offscreen"
        else:
            print("kmetric-gui: no display found (DISPLAY/WAYLAND_DISPLAY unset). Run it on a "
                  "desktop, under Xvfb, or use `kmetric score` for headless scoring.",
                  file=sys.stderr)
            return 2
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("kmetric-gui")
    app.setOrganizationName("kmetric_gui")
    app.setStyleSheet(STYLE)
    # Garbage is collected on this thread only, on a timer: a cycle holding a Qt object,
    # collected on a worker thread, is deleted here while that worker may be emitting a
    # signal (a Qt mutex against the GIL: the main thread hung in ~QObject of a QMenu).
    from pyqtgraph.util.garbage_collector import GarbageCollector
    app.garbage_collector = GarbageCollector(interval=1.0)
    from ..paths import resources_dir
    icon = resources_dir() / "kmetric.png"
    if icon.exists():
        app.setWindowIcon(QIcon(str(icon)))
    from .fonts import text_problem
    problem = text_problem()
    if problem:
        print(f"kmetric-gui: {problem}", file=sys.stderr)
        if args.screenshot:     # a picture of empty boxes is a failure, not a screenshot
            return 1
    shown = {}
    install_excepthook(lambda: shown.get("win"))     # before the window: start-up errors too
    win = shown["win"] = create_window(args)
    # Worker threads end even when closing failed half-way (a destroyed running QThread aborts).
    app.aboutToQuit.connect(win.jobs.shutdown)
    from ..metricfile.start import discard
    app.aboutToQuit.connect(discard)          # the metric files' spare host, if one waits
    win.show()
    from .gc_guard import freeze_long_lived
    freeze_long_lived()
    if args.screenshot:
        return _screenshot_mode(app, win, args)
    return app.exec()


def _screenshot_mode(app, win, args):
    from PySide6.QtCore import QTimer
    status = {"code": 1}

    def shoot(invalid=False, text=""):
        def save():
            if args.size:
                win.fit_to(args.size)
                app.processEvents()
            ok = win.grab().save(args.screenshot)
            # A failure that newer numbers replaced (e.g. files that fit several built-ins,
            # then scored by the --metric-file named) is not the picture's outcome.
            s = win.session
            bad = invalid and not (s.results is not None and s.is_current(s.results.generation)
                                   and not (s.problems and not s.problems_are_notes))
            status["code"] = (2 if bad else 0) if ok else 1
            if not ok:
                print(f"kmetric-gui: could not write {args.screenshot}", file=sys.stderr)
            elif bad:        # the data's problems, else what failed (never a silent 2)
                for line in list(win.session.problems) or [text or "not scored"]:
                    print(f"kmetric-gui: {line}", file=sys.stderr)
            win.discard_and_close()
            app.quit()

        def when_idle(tries=[200]):
            # Intervals, tables and plots finish on the worker after the score.
            if win.jobs.busy and tries[0] > 0:
                tries[0] -= 1
                QTimer.singleShot(50, when_idle)
            else:
                QTimer.singleShot(200, save)     # let the views paint first
        when_idle()

    win.scored.connect(lambda *_: shoot())
    win.failed.connect(lambda text="", *_: shoot(invalid=True, text=str(text)))
    if not (args.demo or args.truth):
        shoot()

    def give_up():
        print(f"kmetric-gui: nothing to screenshot after {args.timeout:g} s", file=sys.stderr)
        status["code"] = 1
        win.discard_and_close()          # stops the jobs and their threads
        app.quit()
    QTimer.singleShot(int(args.timeout * 1000), give_up)
    app.exec()
    from .jobs import _STILL_RUNNING
    if _STILL_RUNNING:       # a job stuck in a long C call: Qt would abort on its thread
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status["code"] or 1)
    return status["code"]


if __name__ == "__main__":
    sys.exit(main())
