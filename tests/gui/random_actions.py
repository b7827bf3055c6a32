"""The actions of the random window driver (random_driver.py): each draws its
parameters from ``self.rng`` (its own stream) and acts as a user would."""
import time
from pathlib import Path

def _with_demo():
    from kmetric_gui.metrics import REGISTRY
    return tuple(name for name, m in REGISTRY.items() if m.demo_paths())


METRICS = _with_demo()        # every registered metric with a demo (built-ins, masks and boxes)


def process(ms):
    from PySide6.QtWidgets import QApplication
    app = QApplication.instance()
    end = time.monotonic() + ms / 1000
    while True:
        app.processEvents()
        if time.monotonic() >= end:
            return
        time.sleep(0.002)


def rows_text(metric, prep):
    """The submission as it would be saved, as text (NaN equal to NaN)."""
    return [[str(v) for v in row] for row in metric.submission_rows(prep)[1]]


def reference_score(prep, options):
    """The score of the data and options (as the CLI would give it), or the reason in
    words when they cannot be scored (e.g. a rating below a declared minimum)."""
    from kmetric_gui.errors import InputError
    from kmetric_gui.analysis.scoring import score_prepared
    try:
        return score_prepared(prep, options).score
    except InputError as e:
        return f"not scored: {e}"


class Stop(Exception):
    """The action cannot be done now (e.g. nothing to edit)."""


class Actions:
    # -- actions --------------------------------------------------------------------------
    def _metric(self):
        s = self.win.session
        m = s.data.metric if s.data is not None else None
        # data read as another metric (the options' metric list has all of them): any pair
        return m if m in self.files else self.rng.choice(METRICS)

    def do_open_pair(self):
        m = self.rng.choice(METRICS)
        truth, sub, b, rw = self.files[m]
        sub = self.rng.choice((sub, sub, b, rw))
        self.log(f"    {Path(truth).name} {Path(sub).name}")

        def go():                      # once unsaved edits are saved or discarded
            self._as_demo(m)
            self.win.remember_folder(sub)
            self.win.controller.open_files(truth, sub)
        self.win.request_discard(go)

    def do_metric_file(self):
        """The metric file of resources/metrics run on its pair: the session's metric."""
        from kmetric_gui.paths import resources_dir
        win, ex = self.win, resources_dir() / "metrics"
        mf = win.metric_file
        mf.ask_run = lambda name, state=None: True
        truth, sub = (str(self.workdir / f"kl_{n}.csv") for n in ("solution", "submission"))
        for path in (truth, sub):
            if not Path(path).exists():
                Path(path).write_bytes((ex / Path(path).name).read_bytes())
        self.log(f"    kl_divergence.py on {Path(sub).name}")
        self.files.setdefault("file:kl_divergence.py", [truth, sub, sub, sub])
        win.request_discard(lambda: (win.controller.open_files(truth, sub),
                                     mf.open(str(ex / "kl_divergence.py"))))

    def _as_demo(self, m):
        """The metric chosen as the Demo menu chooses it (file_actions.open_demo): when
        another one is set, or when the layout alone would leave the choice open. Only
        after the unsaved-edits answer: open_demo sets it before asking, so a Cancel (or
        a failed save) left the files shown under another metric (issue 34, item 7)."""
        from kmetric_gui.metrics import get_metric
        win = self.win
        combo = win.options_panel.metric_combo
        if combo.currentData() not in (None, m) or not get_metric(m).demo_detected:
            combo.blockSignals(True)
            combo.setCurrentIndex(max(0, combo.findData(m)))
            combo.blockSignals(False)
            win.session.set_options(win.options_panel.options())

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
                                "range", "metric", "id_column", "declared", "declared"))
        if what == "declared":            # any metric's own option (k, eps, average...)
            return self._declared_option(o)
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

    def _declared_option(self, o):
        from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit
        name = self.rng.choice(sorted(o.option_widgets))
        w = o.option_widgets[name]
        self.log(f"    {name}")
        if isinstance(w, QCheckBox):
            w.toggle()
        elif isinstance(w, QComboBox):
            w.setCurrentIndex(self.rng.randrange(w.count()))
        elif isinstance(w, QLineEdit):
            w.setText(self.rng.choice(("", "", "1", "3", "10", "0", "x")))
            w.editingFinished.emit()
        else:
            w.setValue(round(self.rng.uniform(w.minimum(), min(w.maximum(), 100)), 2))

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
        lines = Path(self.files[m][1]).read_text().splitlines()     # the demo's submission
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
        self.idle()
        s = self.win.session
        if s.data is None or s.held:
            return
        metric = s.metric
        before = rows_text(metric, s.data.prepared())
        truth = list(map(str, s.data.prepared().truth))
        score = reference_score(s.data.prepared(), s.options)
        steps = s.history_index
        for _ in range(steps):
            self.win.actions_["undo"].trigger()
        for _ in range(steps):
            self.win.actions_["redo"].trigger()
        self.idle()
        after = s.data.prepared()
        if rows_text(metric, after) != before or list(map(str, after.truth)) != truth:
            self.find("roundtrip", "undo all then redo all changed the data")
        new = reference_score(after, s.options)
        if not (new == score or (new != new and score != score)):
            self.find("roundtrip", f"score {score} became {new}")
