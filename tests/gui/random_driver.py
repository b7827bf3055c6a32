"""A seeded random user of the real window (offscreen), with the app's invariants.

``run(seed, steps, workdir)`` opens the window and does ``steps`` actions drawn
from the seed: demo pairs and valid or invalid files opened or dropped, typed
edits (valid texts are other cells of the same column), pastes, undo/redo,
sorts, filters, Esc, option changes while jobs run, compared files, saves,
files rewritten on disk, and every dialog answered at random. Between
actions it waits a random few milliseconds, so jobs overlap with the next
action; every few actions it waits until no job is in flight (a "stuck"
finding after ``IDLE_TIMEOUT``) and checks:

- no exception (sys.excepthook, the jobs' error signal, an error dialog, Qt
  warnings about threads);
- the score shown equals ``scoring.score_prepared`` of the data and options
  shown (and the CLI's ``score_files`` when the data is the files'), or is
  marked out of date;
- nothing says "computing", nothing is held read-only, the progress bar is gone;
- the title's star is the session's unsaved state; data that is not marked
  unsaved is what the files hold;
- data with unsaved edits is never replaced unless the last answer about them,
  given after the last edit, was Save or Discard;
- undo all then redo all returns the same data and score.

Each action has its own random stream (the plan is a list of ``(name, seed)``):
dropping actions from a plan leaves the others as they were (shrinking).
"""
import os
import random
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from random_actions import METRICS, Actions, Stop, process, reference_score, rows_text

IDLE_TIMEOUT = 60.0           # seconds without any job ending: "stuck"

ACTIONS = {                   # name -> weight
    "open_pair": 6, "drop_one": 3, "drop_invalid": 2, "edit": 18, "edit_bad": 3,
    "paste": 4, "undo": 6, "redo": 4, "sort": 4, "filter": 2, "esc": 6, "option": 8,
    "stats_option": 4, "compare_add": 3, "compare_clear": 2, "save_as": 3, "rewrite": 2,
    "reload": 3, "wait": 6, "settle": 5, "roundtrip": 2,
}


@dataclass
class Finding:
    kind: str
    detail: str
    step: int = -1
    plan: list = field(default_factory=list)

    def __str__(self):
        return f"{self.kind} at step {self.step}: {self.detail}"


# With a metric file as the session's metric: what a user does on its table (each
# action is a call of the file in its worker, so a short run).
FILE_ACTIONS = {"edit": 6, "paste": 2, "undo": 3, "redo": 2, "sort": 1, "esc": 2,
                "stats_option": 1, "wait": 2, "settle": 2, "roundtrip": 1}


def make_plan(seed, steps, first="open_pair", actions=ACTIONS):
    rng = random.Random(seed)
    names, weights = list(actions), list(actions.values())
    plan = [(first, rng.randrange(2 ** 31))]
    plan += [(rng.choices(names, weights)[0], rng.randrange(2 ** 31)) for _ in range(steps - 1)]
    return plan


def files(workdir):
    """Copies of the demos (rewritable), invalid files beside them."""
    from kmetric_gui.metrics import REGISTRY
    out = {}
    for m in METRICS:
        # a metric may show another's demo (error_rate shows accuracy's files)
        sol, sub = map(Path, REGISTRY[m].demo_paths())
        sources = (sol, sub, sub.with_name(sub.stem + "_b.csv"), sub)
        for name, src in zip(("solution", "submission", "submission_b", "submission_rw"),
                             sources):
            shutil.copy(src, workdir / f"{m}_{name}.csv")
        out[m] = [str(workdir / f"{m}_{n}.csv") for n in ("solution", "submission",
                                                         "submission_b", "submission_rw")]
    (workdir / "empty.csv").write_text("")
    (workdir / "garbage.csv").write_text("a;b\n1\n\"unclosed\n")
    (workdir / "words_submission.csv").write_text("id_code,diagnosis\nx,seven\n")
    out["invalid"] = [str(workdir / n) for n in ("empty.csv", "garbage.csv",
                                                  "words_submission.csv", "missing.csv")]
    return out


class Driver(Actions):
    def __init__(self, workdir, log=None):
        self.workdir = Path(workdir)
        self.log = log or (lambda text: None)
        os.environ["KMETRIC_SETTINGS"] = str(self.workdir / "settings.ini")
        self.files = files(self.workdir)
        self.findings = []
        self.consent = None           # data id the last Save/Discard answer was about
        self.saves = 0
        self._install()

    # -- set-up ---------------------------------------------------------------------
    def _install(self):
        from PySide6.QtCore import qInstallMessageHandler
        from PySide6.QtWidgets import QMessageBox

        from kmetric_gui.gui import dialogs
        from kmetric_gui.gui.main_window import MainWindow
        self._old_hook = sys.excepthook
        sys.excepthook = lambda t, e, tb: self.find("exception", f"{t.__name__}: {e}")
        self._old_handler = qInstallMessageHandler(self._qt_message)
        self._old_error = dialogs.show_error
        dialogs.show_error = lambda parent, title, text, details="": self.find(
            "error dialog", f"{title}: {text} {details[-600:]}")
        win = self.win = MainWindow(size=(1280, 720))
        self.rng = random.Random(0)
        win.ask_unsaved = self._answer_unsaved
        win.ask_save_path = self._save_path
        win.ask_metric = self._answer_metric      # the "several metrics fit" question (masks)
        win.projects.show_problem = lambda text: None
        win.jobs.error.connect(lambda kind, exc: self.find(
            "unexpected error", f"{kind}: {type(exc).__name__}: {exc} "
                                f"{getattr(exc, 'details', '')[-600:]}"))
        s = win.session
        self.reading_over = None
        win.controller.reload = self._guard_reload(win.controller.reload)
        for name in ("load", "clear"):
            real = getattr(s, name)
            setattr(s, name, self._guard(real))
        s.hold = self._guard_hold(s.hold)
        win.show()
        # Quick statistics: the soak is about sequences, not bootstrap sizes.
        win.options_panel.replicates.setValue(200)
        win.options_panel.splits.setValue(200)
        QMessageBox  # noqa: B018 (dialogs come only through the replaced functions)

    def close(self):
        from PySide6.QtCore import qInstallMessageHandler

        from kmetric_gui.gui import dialogs
        self.win._discarding = True
        self.win.close()
        stopped = self.win.jobs.shutdown()
        if not stopped:
            self.findings.append(Finding("stuck", "a worker thread did not stop"))
        self.win.deleteLater()
        process(10)
        sys.excepthook = self._old_hook
        qInstallMessageHandler(self._old_handler)
        dialogs.show_error = self._old_error

    def _qt_message(self, mode, context, message):
        if "QThread" in message or "Destroyed while" in message or "QObject::" in message:
            self.find("qt warning", message)

    def find(self, kind, detail):
        self.findings.append(Finding(kind, detail))

    def _guard_reload(self, real):
        """New files are read only with consent to drop unsaved edits, given after them."""
        def reload(*args, **kwargs):
            s = self.win.session
            if s.dirty and s.data is not None and self.consent != s.data.id:
                self.find("edits lost", f"unsaved edits ({s.undo_text!r}) to be replaced "
                                        "without a Save or Discard answer about them")
            started = reload.ok = real(*args, **kwargs)
            if started:
                self.reading_over = s.data.id if s.data is not None else None
            return started
        return reload

    def _guard_hold(self, real):
        """A metric file's first score of the pair is a load too: its data replaces the
        data shown when it began (edits held meanwhile)."""
        def hold(reason, owner="load"):
            s = self.win.session
            if owner == "metricfile" and reason:
                self.reading_over = s.data.id if s.data is not None else None
            return real(reason, owner)
        return hold

    def _guard(self, real):
        """What the data was when the load began is what it replaces: no edit made while
        it ran is dropped."""
        def replace(*args, **kwargs):
            s = self.win.session
            if s.data is not None and s.data.id != self.reading_over:
                self.find("edits lost", f"data changed while files loaded ({s.undo_text!r}) "
                                        "and was replaced")
            return real(*args, **kwargs)
        return replace

    # -- dialogs ------------------------------------------------------------------------
    def _answer_unsaved(self):
        from PySide6.QtWidgets import QMessageBox
        s = self.win.session
        options = [QMessageBox.Discard, QMessageBox.Cancel]
        if s.submission_dirty:
            options.append(QMessageBox.Save)
        answer = self.rng.choice(options)
        if answer != QMessageBox.Cancel:
            self.consent = s.data.id
        self.log(f"    asked about unsaved edits: {answer.name}")
        return answer

    def _answer_metric(self, names):
        """A random answer to "which metric?" (None: the dialog cancelled); a modal dialog
        offscreen would hang the run."""
        name = self.rng.choice(list(names) + [None])
        self.log(f"    asked which metric of {', '.join(names)}: {name}")
        return name

    def _save_path(self):
        if self.rng.random() < 0.15:
            return ""                                   # the dialog cancelled
        self.saves += 1
        return str(self.workdir / f"saved_{self.saves}.csv")

    # -- running --------------------------------------------------------------------------
    def run(self, plan):
        for step, (name, seed) in enumerate(plan):
            self.rng = random.Random(seed)
            self.log(f"{step:4d} {name}")
            try:
                getattr(self, "do_" + name)()
                process(self.rng.choice((0, 0, 1, 5, 20, 60)))
                if name in ("settle", "roundtrip") or step == len(plan) - 1:
                    self.settle()
            except Stop:
                pass
            if self.findings:
                for f in self.findings:
                    f.step = step
                return self.findings
        return self.findings

    def idle(self):
        t0 = time.monotonic()
        jobs = self.win.jobs
        last = jobs.counts.copy()
        while jobs.busy or self.win.controller._rescore_timer.isActive():
            process(5)
            if jobs.counts != last:
                last, t0 = jobs.counts.copy(), time.monotonic()
            if time.monotonic() - t0 > IDLE_TIMEOUT:
                self.find("stuck", f"jobs never ended: {jobs.in_flight()}")
                raise Stop()
        process(20)                     # slots of the last ended signals, the bar's hiding

    # -- the invariants ---------------------------------------------------------------------
    def settle(self):
        from kmetric_gui.errors import InputError
        from kmetric_gui.analysis.scoring import score_files
        from kmetric_gui.gui.widgets.score_panel import fmt
        self.idle()
        win, s, p = self.win, self.win.session, self.win.score_panel
        self.log(f"    settled: {s.options.metric}")
        if s.held or win.table_panel.banner.isVisible() or win.table_panel.model.read_only:
            self.find("stuck", f"read-only once jobs ended: {s.held}")
        if any(w.isVisible() for w in win.status_progress.widgets):
            self.find("stuck", "progress bar shown once jobs ended")
        if p.computing:
            self.find("stuck", "interval: computing… once jobs ended")
        if win.windowTitle().endswith("*") != s.dirty:
            self.find("stale", f"title {win.windowTitle()!r} but unsaved={s.dirty}")
        if win.actions_["undo"].isEnabled() != s.can_undo:
            self.find("stale", "Undo enabled does not follow the history")
        if not win.table_panel.table.isEnabled() or not win.options_panel.isEnabled():
            self.find("stuck", "table or options disabled once jobs ended")
        if s.data is None:
            if p.report is not None:
                self.find("stale", "a score shown with no data")
            return
        if p.report is not None and p.stale is None:
            r = s.results
            if r is None or not s.is_current(r.generation) or p.report is not r.report:
                self.find("stale", f"score {p.score_label.text()} shown, not of the data and "
                                   "options shown, and not marked out of date")
                return
            want = reference_score(s.data.prepared(), s.options)
            if isinstance(want, str) or p.score_label.text() != fmt(want):
                self.find("wrong score", f"shown {p.score_label.text()}, data's {want}")
            clean = not s.dirty and "_rw" not in (s.sub_path or "")
            if clean and s.truth_path and s.sub_path:
                try:
                    cli = score_files(s.truth_path, s.sub_path, s.options).score
                except InputError as e:
                    cli = f"not scored: {e}"
                if isinstance(cli, str) or fmt(cli) != p.score_label.text():
                    self.find("wrong score", f"shown {p.score_label.text()}, the CLI's "
                                             f"{cli} for {s.sub_path}")
        if not s.dirty and "_rw" not in (s.sub_path or "") and s.truth_path:
            self._same_as_files()

    def _same_as_files(self):
        from kmetric_gui.errors import InputError
        from kmetric_gui.analysis.scoring import load
        s = self.win.session
        try:
            fresh = load(s.truth_path, s.sub_path, s.options)
        except InputError as e:
            self.find("stale", f"data not marked unsaved but its files do not read: {e}")
            return
        metric = s.metric
        a, b = rows_text(metric, fresh), rows_text(metric, s.data.prepared())
        if a != b:
            diff = [(x, y) for x, y in zip(a, b) if x != y][:3]
            self.log(f"    files vs data: {diff} {s.truth_path} {s.sub_path} {s.options}")
            self.find("edits unmarked", "data differs from the files without the unsaved mark")

def run(seed, steps, workdir, log=None, plan=None):
    """The findings of one seed (an empty list: none)."""
    d = Driver(workdir, log)
    try:
        return d.run(plan if plan is not None else make_plan(seed, steps))
    finally:
        d.close()
