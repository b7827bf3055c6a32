"""The note that proposes a competition: when a pair is opened with no competition chosen
and the two headers are exactly those of one catalog competition, the score panel says so,
with a link that picks it in Options (as the Competition list does: a reload with its
metric, options and columns, kept in projects).

The headers are read on a worker (a .gz or Parquet header is a read of the file); a newer
pair supersedes the job, and a note of files no longer shown goes.
"""
from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLabel

KIND = "looks-like"


class CompetitionNote(QLabel):
    """One line under the metric's name; its link applies the competition."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("competitionNote")
        self.setWordWrap(True)
        self.setVisible(False)
        self.slug = None

    def show_competition(self, comp):
        from html import escape
        lead = (f"These files look like competition <b>{escape(comp.slug)}</b> "
                f"({escape(comp.title)}).")
        if comp.metric is None:         # nothing to apply: say what scores it instead
            self.slug = None
            self.setText(f"{lead} No built-in metric gives its number: its metric file does "
                         "(File &gt; Open metric file…).")
            self.setToolTip(f"{comp.slug}: {comp.metric_file_needed}")
        else:
            self.slug = comp.slug
            self.setText(f"{lead} <a href='use'>Score as this competition</a>")
            self.setToolTip(comp.words())
        self.setVisible(True)

    def forget(self):
        self.slug = None
        self.setText("")
        self.setVisible(False)


def headers_match(truth, submission):
    """The one catalog competition whose files have these two headers, or None (worker)."""
    from ..analysis.competitions import matching
    from ..io.read import read_header
    from ..errors import InputError
    try:
        return matching(read_header(truth, "solution"), read_header(submission, "submission"))
    except (InputError, OSError):        # the load says what is wrong with the files
        return None


def _stamps(pair):
    """Size and modification time of each file: a file rewritten under its name is looked at
    again (a stat, no read)."""
    import os
    out = []
    for path in pair:
        try:
            st = os.stat(path)
            out.append((st.st_size, st.st_mtime_ns))
        except OSError:
            out.append(None)
    return tuple(out)


class LooksLike(QObject):
    def __init__(self, win):
        super().__init__(win)
        self.win = win
        self.note = CompetitionNote()
        win.score_panel.layout().insertWidget(1, self.note)     # under the metric's name
        self.note.linkActivated.connect(lambda _: self.apply())
        self._pair = None                  # the files the note (or its job) is about
        self._looked = None                # (pair, file stamps) whose headers were looked at
        win.controller.loading.connect(self._loading)
        win.session.files_changed.connect(self._check_files)
        win.jobs.ended.connect(lambda kind, _: kind == "load" and self._check_files())
        # A project's competition is shown once its files are read: a note then goes.
        win.options_panel.competition.shown.connect(
            lambda slug: slug is not None and self.note.forget())

    def _chosen(self):
        return self.win.options_panel.competition.slug() is not None

    def _loading(self, truth, submission):
        pair = (str(truth), str(submission))
        if self._chosen():
            self._pair = self._looked = None
            self.note.forget()
            return
        key = (pair, _stamps(pair))
        if key == self._looked or (pair == self._pair and self.win.jobs.running(KIND)):
            return          # the same files read again (new options): their note stands
        self._pair, self._looked = pair, None
        self.note.forget()                  # another file: the last note is not of it
        self.win.jobs.submit(KIND, lambda progress, cancel: headers_match(*pair),
                             lambda comp: self._found(key, comp), on_error=lambda e: None,
                             lane="background", cancellable=False)

    def _found(self, key, comp):
        pair = key[0]
        if pair != self._pair or self._chosen() or not self._current(pair):
            return
        self._looked = key
        if comp is not None:
            self.note.show_competition(comp)

    def _current(self, pair):
        """The files being read or shown are still ``pair``."""
        c, s = self.win.controller, self.win.session
        return (c._reading is not None and tuple(c._reading) == pair) or \
            (s.truth_path, s.sub_path) == pair

    def _check_files(self):
        if self._pair is not None and not self._current(self._pair):
            self._pair = self._looked = None
            self.note.forget()

    def apply(self):
        """Pick the proposed competition in Options (the reload follows from the panel)."""
        slug = self.note.slug
        if slug is None:
            return
        self.note.forget()
        self.win.options_panel.competition.choose(slug)
