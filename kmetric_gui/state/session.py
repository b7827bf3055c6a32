"""The app's state, owned in one place and free of Qt.

``Session`` holds the open files, the options, the data (an immutable
``DataVersion``), the history of edits with undo/redo, the latest results
and the problems shown. Views listen to its events (psygnal signals) and
only draw; jobs get immutable snapshots and hand back typed results tagged
with the ``Generation`` they were computed from — a result of any other
generation is dropped here, whatever job it came from.
"""
from dataclasses import dataclass

from psygnal import Signal

from ..fields import FieldSpec
from ..metrics import get_metric
from .data import DataVersion, apply, cell_change, freeze


@dataclass(frozen=True)
class Generation:
    """What a number was computed from: a data version and the options."""
    data_id: int
    options: object


@dataclass(frozen=True)
class Snapshot:
    generation: Generation
    data: "DataVersion | None"
    options: object
    truth_path: "str | None"
    sub_path: "str | None"


@dataclass(frozen=True)
class Results:
    generation: Generation
    report: object               # scoring.ScoreReport of exactly that data and options


@dataclass(frozen=True)
class CompareResults:
    generation: Generation
    paths: tuple                 # the other submissions compared with the one shown
    settings: object
    comparison: object           # comparison.Comparison (the shown submission first)
    problems: tuple = ()         # lines naming the files that could not be compared


@dataclass(frozen=True)
class StatsResults:
    generation: Generation
    settings: object             # (stats.StatsOptions, stats.ShakeupOptions)
    stats: object                # stats.Stats of the report of that generation


class Session:
    files_changed = Signal()
    options_changed = Signal(object)
    data_changed = Signal(object)          # DataVersion or None
    results_changed = Signal(object)       # Results or None
    problems_changed = Signal(object)      # list of io.Problem / str
    history_changed = Signal()             # undo/redo/dirty state
    stats_changed = Signal(object)         # StatsResults or None (intervals, shake-up)
    compare_changed = Signal(object)       # CompareResults or None
    hold_changed = Signal(object)          # why the data takes no edits now (None: it does)

    def __init__(self, options):
        self.truth_path = self.sub_path = None
        self.options = options
        # (demo's metric, the metric and target column before it) while a demo chose the
        # metric for its own files; other files get the user's back (gui/file_actions.py)
        self.demo_metric = None
        self.data = None
        self.results = None
        self.stats = None
        self.stats_settings = None          # (StatsOptions, ShakeupOptions); None: no statistics
        self.compare_paths = ()             # other submissions compared with this one
        self.comparison = None
        self.problems = []
        self.problems_are_notes = False
        self._states = []                  # data versions along the history
        self._labels = []                  # _labels[i]: the change leading to _states[i]
        self._changes = []                 # _changes[i]: that Change (None for the load)
        self._index = -1
        self._saved = -1                   # history index last written to disk
        self._next_id = 1
        self._holds = {}                   # owner -> why edits are refused (see hold)

    # -- identity ----------------------------------------------------------------
    @property
    def generation(self):
        return Generation(self.data.id if self.data else 0, self.options)

    def snapshot(self):
        return Snapshot(self.generation, self.data, self.options, self.truth_path, self.sub_path)

    def is_current(self, generation):
        return generation == self.generation

    @property
    def metric(self):
        return get_metric(self.data.metric) if self.data else None

    # -- files and options ---------------------------------------------------------
    def set_files(self, truth=None, submission=None):
        if truth is not None:
            self.truth_path = str(truth)
        if submission is not None:
            self.sub_path = str(submission)
        self.files_changed.emit()

    def _set_paths(self, truth, submission):
        if truth is not None or submission is not None:
            self.set_files(truth, submission)

    # -- a hold: the data is about to be replaced ---------------------------------------
    def hold(self, reason, owner="load"):
        """Refuse edits, undo and redo (``reason`` says why) until ``release(owner)``:
        an edit made now would be replaced without a word (new files are being read,
        or the edits are being saved before they are). Holds of different owners
        (a load, a save) are independent: ending one keeps the other."""
        before = self.held
        if reason:
            self._holds[owner] = reason
        else:
            self._holds.pop(owner, None)
        if self.held != before:
            self.hold_changed.emit(self.held)
            self.history_changed.emit()

    def release(self, owner="load"):
        self.hold(None, owner)

    @property
    def held(self):
        """Why edits are refused now (the latest hold), or None."""
        return next(reversed(self._holds.values()), None)

    def set_options(self, options):
        if options != self.options:
            self.options = options
            self.options_changed.emit(options)

    # -- data ----------------------------------------------------------------------
    def load(self, prep, truth=None, submission=None):
        """New data from the files (and their paths, together): the history starts
        again, clean."""
        self._set_paths(truth, submission)
        self.data = DataVersion(self._new_id(), freeze(prep))
        self._states, self._labels, self._index, self._saved = [self.data], [""], 0, 0
        self._changes = [None]
        self.results = None
        self.set_problems(list(getattr(prep, "notes", ())), notes=True)   # scored, but said
        self.data_changed.emit(self.data)
        self.history_changed.emit()

    def clear(self, problems=(), truth=None, submission=None):
        """No valid data (a failed load): nothing to edit, undo or save."""
        self._set_paths(truth, submission)
        self.data, self.results = None, None
        self._states, self._labels, self._index, self._saved = [], [], -1, -1
        self._changes = []
        self.set_problems(list(problems))
        self.data_changed.emit(None)
        self.history_changed.emit()

    def set_problems(self, problems, notes=False):
        """Problems of the files or of a score (``notes``: observations on data that
        was scored, e.g. the app's continuous predictions of ratings)."""
        self.problems = list(problems)
        self.problems_are_notes = bool(notes)
        self.problems_changed.emit(self.problems)

    # -- edits -----------------------------------------------------------------------
    def edit_text(self, spec, unit, text):
        """Parse a typed cell and apply it; returns the reason when it is refused."""
        if self.data is None:
            return "no data to edit"
        if self.held:
            return self.held
        try:
            value = self.metric.parse(spec, text, self.data.base)
        except ValueError as e:
            return str(e)
        return self.edit_value(spec, unit, value)

    def edit_texts(self, cells, label):
        """Typed cells ``(spec, unit, text)`` applied as one step (one undo), or none of
        them: the refusals ``(spec, unit, reason)`` are returned instead."""
        if self.data is None:
            return [(None, None, "no data to edit")]
        if self.held:
            return [(None, None, self.held)]
        parsed, refused = [], []
        for spec, unit, text in cells:
            try:
                parsed.append((spec, int(unit), self.metric.parse(spec, text, self.data.base)))
            except ValueError as e:
                refused.append((spec, unit, str(e)))
        if refused:
            return refused
        last = {}                 # a cell given twice: its last value, as if typed in order
        for spec, unit, value in parsed:
            last[(spec.name, unit, spec.part)] = value
        why = self._edit_cells(last, label)
        return [(None, None, why)] if why else []

    def edit_value(self, spec, unit, value, label=None):
        """Set one cell, and what the metric sets with it (``edit_cells``) as one step;
        the reason when refused (held, or the metric cannot complete the edit)."""
        if self.held:
            return self.held
        label = label or f"Edit {spec.name} of row {int(unit) + 1}"
        return self._edit_cells({(spec.name, int(unit), spec.part): value}, label)

    def _edit_cells(self, typed, label):
        """The typed cells and what the metric sets with them, one Change of those that
        differ; the metric's reason when it refuses, else None."""
        from .data import Change
        try:
            cells = self.metric.edit_cells(self.data, typed)
        except ValueError as e:
            return str(e)
        pairs = tuple((key, v) for key, v in cells.items()
                      if cell_change(self.data, FieldSpec(key[0], key[2]), key[1], v, label)
                      is not None)
        if pairs:
            self._push(Change(label, pairs))
        return None

    def replace_field(self, name, array, label):
        """A whole field replaced; the reason when refused (held), else None."""
        from .data import Change
        if self.held:
            return self.held
        self._push(Change(label, field_name=name, array=array))

    def _push(self, change):
        version = apply(self.data, change, self._new_id())
        del self._states[self._index + 1:], self._labels[self._index + 1:]
        del self._changes[self._index + 1:]
        if self._saved > self._index:
            self._saved = -1                 # the saved state can no longer be reached
        self._states.append(version)
        self._labels.append(change.label)
        self._changes.append(change)
        self._index += 1
        self._set_version(version)

    def changes(self):
        """The Changes from the loaded data to the current state, oldest first (what
        undo can take back; redo-able ones are not included)."""
        return list(self._changes[1:self._index + 1])

    def replay(self, changes):
        """Apply Changes (e.g. of a saved project) one by one through the edit path:
        each is on the history and undoable. The caller checks they fit the data."""
        if self.data is None:
            raise ValueError("no data to apply the edits to")
        for change in changes:
            self._push(change)

    def undo(self):
        if self.can_undo:
            self._index -= 1
            self._revisit()

    def redo(self):
        if self.can_redo:
            self._index += 1
            self._revisit()

    def _revisit(self):
        # The same content under a new id: results in flight for the version
        # left behind must not be shown.
        old = self._states[self._index]
        self._set_version(DataVersion(self._new_id(), old.base, old.overlay))

    def _set_version(self, version):
        self._states[self._index] = version
        self.data = version
        self.data_changed.emit(version)
        self.history_changed.emit()

    @property
    def can_undo(self):
        return self._index > 0 and not self.held

    @property
    def can_redo(self):
        return 0 <= self._index < len(self._states) - 1 and not self.held

    @property
    def undo_text(self):
        return self._labels[self._index] if self._index > 0 else ""

    @property
    def redo_text(self):
        return self._labels[self._index + 1] if 0 <= self._index < len(self._states) - 1 \
            else ""

    @property
    def history_index(self):
        return self._index

    @property
    def submission_dirty(self):
        """The submission differs from what was last written (or read)."""
        return self.data is not None and self._index != self._saved

    @property
    def truth_edited(self):
        """Solution cells differ from its file: saving a submission never writes them
        (a project keeps them), so they stay unsaved until undone or discarded."""
        return self.data is not None and any(key[0] == "truth" for key in self.data.overlay)

    @property
    def dirty(self):
        """Something would be lost by closing: unsaved submission edits or solution edits."""
        return self.submission_dirty or self.truth_edited

    def mark_saved(self, history_index, version=None):
        """The state at ``history_index`` is on disk (not necessarily the current one).
        With ``version`` (the data written): only if that state still holds it — a save
        that ends after other files were loaded says nothing about their data."""
        if version is not None:
            ok = 0 <= history_index < len(self._states)
            state = self._states[history_index] if ok else None
            if state is None or state.base is not version.base or \
                    dict(state.overlay) != dict(version.overlay):
                return False
        self._saved = history_index
        self.history_changed.emit()
        return True

    # -- statistics of the results ------------------------------------------------
    def set_stats_settings(self, settings):
        if settings != self.stats_settings:
            self.stats_settings = settings
            self.stats = None
            self.stats_changed.emit(None)

    def accept_stats(self, stats):
        """Intervals and shake-up, only for the results shown and the settings in force."""
        if not (self.is_current(stats.generation) and stats.settings == self.stats_settings):
            return False
        self.stats = stats
        self.stats_changed.emit(stats)
        return True

    def set_compare_paths(self, paths):
        paths = tuple(dict.fromkeys(str(p) for p in paths))
        if paths != self.compare_paths:
            self.compare_paths = paths
            self.comparison = None
            self.compare_changed.emit(None)
            self.files_changed.emit()

    def accept_comparison(self, cmp):
        if not (self.is_current(cmp.generation) and cmp.paths == self.compare_paths
                and cmp.settings == self.stats_settings):
            return False
        self.comparison = cmp
        self.compare_changed.emit(cmp)
        return True

    # -- results ---------------------------------------------------------------------
    def accept(self, results):
        """Show results only if they belong to the data and options shown now."""
        if not self.is_current(results.generation):
            return False
        self.results = results
        self.stats = None                    # the intervals of older numbers go with them
        self.results_changed.emit(results)
        return True

    def _new_id(self):
        self._next_id += 1
        return self._next_id
