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

IDLE_TIMEOUT = 60.0           # seconds without any job ending: "stuck"
METRICS = ("qwk", "lwlrap", "fbeta")

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


class Stop(Exception):
    pass


def make_plan(seed, steps):
    rng = random.Random(seed)
    names, weights = list(ACTIONS), list(ACTIONS.values())
    plan = [("open_pair", rng.randrange(2 ** 31))]
    plan += [(rng.choices(names, weights)[0], rng.randrange(2 ** 31)) for _ in range(steps - 1)]
    return plan


def process(ms):
    from PySide6.QtWidgets import QApplication
    app = QApplication.instance()
    end = time.monotonic() + ms / 1000
    while True:
        app.processEvents()
        if time.monotonic() >= end:
            return
        time.sleep(0.002)


def files(workdir):
    """Copies of the demos (rewritable), invalid files beside them."""
    from kmetric_gui.paths import resources_dir
    demo = resources_dir() / "demo"
    out = {}
    for m in METRICS:
        for name in (f"{m}_solution", f"{m}_submission", f"{m}_submission_b"):
            shutil.copy(demo / f"{name}.csv", workdir / f"{name}.csv")
        shutil.copy(demo / f"{m}_submission.csv", workdir / f"{m}_submission_rw.csv")
        out[m] = [str(workdir / f"{m}_{n}.csv") for n in ("solution", "submission",
                                                         "submission_b", "submission_rw")]
    (workdir / "empty.csv").write_text("")
    (workdir / "garbage.csv").write_text("a;b\n1\n\"unclosed\n")
    (workdir / "words_submission.csv").write_text("id_code,diagnosis\nx,seven\n")
    out["invalid"] = [str(workdir / n) for n in ("empty.csv", "garbage.csv",
                                                  "words_submission.csv", "missing.csv")]
    return out


class Driver:
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
        from kmetric_gui.scoring import score_files, score_prepared
        from kmetric_gui.gui.widgets.score_panel import fmt
        self.idle()
        win, s, p = self.win, self.win.session, self.win.score_panel
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
            want = score_prepared(s.data.prepared(), s.options)
            if p.score_label.text() != fmt(want.score):
                self.find("wrong score", f"shown {p.score_label.text()}, data's {want.score}")
            clean = not s.dirty and "_rw" not in (s.sub_path or "")
            if clean and s.truth_path and s.sub_path:
                cli = score_files(s.truth_path, s.sub_path, s.options)
                if fmt(cli.score) != p.score_label.text():
                    self.find("wrong score", f"shown {p.score_label.text()}, the CLI's "
                                             f"{cli.score} for {s.sub_path}")
        if not s.dirty and "_rw" not in (s.sub_path or "") and s.truth_path:
            self._same_as_files()

    def _same_as_files(self):
        from kmetric_gui.errors import InputError
        from kmetric_gui.scoring import load
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

    # -- actions --------------------------------------------------------------------------
    def _metric(self):
        s = self.win.session
        return s.data.metric if s.data is not None else self.rng.choice(METRICS)

    def do_open_pair(self):
        m = self.rng.choice(METRICS)
        truth, sub, b, rw = self.files[m]
        sub = self.rng.choice((sub, sub, b, rw))
        self.log(f"    {Path(truth).name} {Path(sub).name}")
        self.win.open_files(truth, sub)

    def do_drop_one(self):
        m = self._metric()
        role = self.rng.choice(("truth", "submission"))
        path = self.files[m][0] if role == "truth" else self.rng.choice(self.files[m][1:])
        self.log(f"    {role} {Path(path).name}")
        self.win.set_file(role, path)

    def do_drop_invalid(self):
        role, path = self.rng.choice(("truth", "submission")), self.rng.choice(self.files["invalid"])
        self.log(f"    {role} {Path(path).name}")
        self.win.set_file(role, path)

    def _editable(self):
        m = self.win.table_panel.model
        cols = [c for c, col in enumerate(m.columns) if col.editable]
        if not cols or not m.rowCount():
            raise Stop()
        return m, cols

    def _valid_text(self, m, c):
        return m.data(m.index(self.rng.randrange(m.rowCount()), c))

    def do_edit(self):
        m, cols = self._editable()
        c = self.rng.choice(cols)
        r = self.rng.randrange(m.rowCount())
        text = self._valid_text(m, c)
        self.log(f"    row {int(m.rows[r])} {m.columns[c].name} = {text!r}")
        m.setData(m.index(r, c), text)

    def do_edit_bad(self):
        m, cols = self._editable()
        c = self.rng.choice(cols)
        m.setData(m.index(self.rng.randrange(m.rowCount()), c),
                  self.rng.choice(("x?", "", "-1", "1e999", "nan")))

    def do_paste(self):
        m, cols = self._editable()
        cells = []
        for _ in range(self.rng.randint(1, 6)):
            c = self.rng.choice(cols)
            r = int(m.rows[self.rng.randrange(m.rowCount())])
            cells.append((m.columns[c].spec, r, self._valid_text(m, c)))
        self.win.controller.paste(cells)

    def do_undo(self):
        self.win.actions_["undo"].trigger()

    def do_redo(self):
        self.win.actions_["redo"].trigger()

    def do_sort(self):
        m = self.win.table_panel.model
        if m.columnCount():
            from PySide6.QtCore import Qt
            self.win.table_panel.table.sortByColumn(
                self.rng.randrange(m.columnCount()),
                self.rng.choice((Qt.AscendingOrder, Qt.DescendingOrder)))

    def do_filter(self):
        self.win.table_panel.filter.setText(self.rng.choice(("", "", "a", "1", "zz")))

    def do_esc(self):
        self.win.actions_["cancel"].trigger()

    def do_option(self):
        o = self.win.options_panel
        what = self.rng.choice(("weights", "ties", "matching", "beta", "threshold", "clean",
                                "range", "metric", "id_column"))
        self.log(f"    {what}")
        if what in ("weights", "ties", "matching", "metric"):
            w = getattr(o, what if what != "metric" else "metric_combo")
            w.setCurrentIndex(self.rng.randrange(w.count()))
        elif what in ("beta", "threshold"):
            w = getattr(o, what)
            w.setValue(round(self.rng.uniform(w.minimum(), w.maximum()), 2))
        elif what == "clean":
            o.clean.toggle()
        elif what == "range":
            w = self.rng.choice((o.min_rating, o.max_rating))
            w.setText(self.rng.choice(("", "", "0", "4", "9", "-2")))
            w.editingFinished.emit()
        else:
            o.id_column.setText(self.rng.choice(("", "", "", "foo")))
            o.id_column.editingFinished.emit()

    def do_stats_option(self):
        o = self.win.options_panel
        w = self.rng.choice((o.ci_level, o.replicates, o.seed, o.splits, o.public_fraction,
                             o.ci_method))
        if w is o.ci_method:
            w.setCurrentIndex(self.rng.randrange(w.count()))
        elif w in (o.replicates, o.splits):
            w.setValue(self.rng.choice((100, 200, 300)))
        elif w is o.seed:
            w.setValue(self.rng.randrange(100))
        else:
            w.setValue(round(self.rng.uniform(w.minimum(), w.maximum()), 2))

    def do_compare_add(self):
        m = self._metric()
        self.win.controller.compare_jobs.add(
            [self.rng.choice(self.files[m][1:] + self.files["invalid"][:2])])

    def do_compare_clear(self):
        self.win.controller.compare_jobs.clear()

    def do_save_as(self):
        self.win.save_as()

    def do_rewrite(self):
        """The rewritable copy of a submission changes on disk (valid or not)."""
        m = self.rng.choice(METRICS)
        path = Path(self.files[m][3])
        if self.rng.random() < 0.2:
            path.write_text("nonsense\n")
            return
        from kmetric_gui.paths import resources_dir
        lines = (resources_dir() / "demo" / f"{m}_submission.csv").read_text().splitlines()
        body = lines[1:]
        k = self.rng.randrange(len(body))
        j = self.rng.randrange(len(body))
        head_k, _, _ = body[k].partition(",")
        _, _, tail_j = body[j].partition(",")
        body[k] = f"{head_k},{tail_j}"             # one row takes another row's prediction
        path.write_text("\n".join([lines[0]] + body) + "\n")

    def do_reload(self):
        self.win.reload_files()

    def do_wait(self):
        process(self.rng.choice((10, 50, 200)))

    def do_settle(self):
        pass                              # run() settles after it

    def do_roundtrip(self):
        """Undo all, redo all: the same data and the same score."""
        from kmetric_gui.scoring import score_prepared
        self.idle()
        s = self.win.session
        if s.data is None or s.held:
            return
        metric = s.metric
        before = rows_text(metric, s.data.prepared())
        truth = list(map(str, s.data.prepared().truth))
        score = score_prepared(s.data.prepared(), s.options).score
        steps = s.history_index
        for _ in range(steps):
            self.win.actions_["undo"].trigger()
        for _ in range(steps):
            self.win.actions_["redo"].trigger()
        self.idle()
        after = s.data.prepared()
        if rows_text(metric, after) != before or list(map(str, after.truth)) != truth:
            self.find("roundtrip", "undo all then redo all changed the data")
        new = score_prepared(after, s.options).score
        if not (new == score or (new != new and score != score)):
            self.find("roundtrip", f"score {score} became {new}")


def rows_text(metric, prep):
    """The submission as it would be saved, as text (NaN equal to NaN)."""
    return [[str(v) for v in row] for row in metric.submission_rows(prep)[1]]


def run(seed, steps, workdir, log=None, plan=None):
    """The findings of one seed (an empty list: none)."""
    d = Driver(workdir, log)
    try:
        return d.run(plan if plan is not None else make_plan(seed, steps))
    finally:
        d.close()
