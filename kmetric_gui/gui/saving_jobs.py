"""Saving the submission as it stands, on a worker (a mixin of AppController, which has
``session``, ``jobs``, ``compare_jobs``, the ``message`` and ``saved`` signals and
``_warned_formulas``)."""
from dataclasses import dataclass
from pathlib import Path

from .save_text import _csv, _line_end


@dataclass(frozen=True)
class Saved:
    path: str
    history_index: int
    formula_ids: tuple = ()
    note: str = ""                  # how the file's row order was (not) kept


class Saving:
    # -- saving ------------------------------------------------------------------------
    def save_to(self, path, then=None, on_failed=None, file_order=None):
        """Write the submission as it stands (atomic, on the worker); ``then()`` after
        (``on_failed()`` if not). ``file_order``: rows in the order of the file read (None:
        the Save dialog's ``path.file_order``, else on when there is such a file)."""
        s = self.session
        if s.data is None:
            return False
        if s.truth_path and Path(path).resolve() == Path(s.truth_path).resolve():
            self.message.emit("Refusing to overwrite the solution file", 0)
            return False
        version, index = s.data, s.history_index
        metric, source = s.metric, s.sub_path
        file_order = getattr(path, "file_order", None) if file_order is None else file_order
        file_order = bool(source) and file_order is not False
        path = str(path)

        def job(progress, cancel):
            from ..io.saving import formula_ids, save_atomic
            prep = version.prepared()
            from ..io.shapes import as_written
            header, rows = as_written(prep, *metric.submission_rows(prep))
            note = ""
            if source:          # the file's other columns (notes, ...) are kept
                from ..io.keep import as_in_file
                header, rows, note = as_in_file(source, header, rows, file_order)
            save_atomic(path, _csv(header, rows, _line_end(source)))
            count, first = formula_ids(prep.id_array)
            return Saved(path, index, tuple(first) if count else (), note)

        def done(result):
            if s.mark_saved(result.history_index, version):
                s.set_files(submission=result.path)
            else:                                # other files came in meanwhile
                self.message.emit(f"Saved {result.path} (the edits of the files shown "
                                  "before; the data shown now is other files')", 0)
                if on_failed is not None:        # what was to follow the save is moot
                    on_failed()
                return
            note = f" — {result.note}" if result.note else ""
            if result.formula_ids and not self._warned_formulas:
                self._warned_formulas = True     # said once: the ids are right for Kaggle
                note += (" — note: some ids start with = + - @ (a spreadsheet would run them; "
                        "Kaggle reads them as text)")
            self.message.emit(f"Saved {result.path}{note}", 0 if result.note else 8000)
            self.saved.emit(result.path)
            if s.compare_paths and s.comparison is not None:
                self.compare_jobs.run()          # its leaderboard names the saved file
            if then is not None:
                then()

        def failed(exc):
            if on_failed is not None:
                on_failed()
            self.message.emit(str(exc), 0)
            self.jobs.error.emit("save", exc)
        # Saving cannot be cancelled half-way: Esc never leaves a file unmarked.
        self.jobs.submit(f"save-{index}-{path}", job, done, on_error=failed, cancellable=False)
        return True
