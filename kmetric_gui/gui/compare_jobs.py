"""The comparison of the shown submission (edits and all) with other files.

The other files are read once per path, options and modification time; the
shown one is the session's current report, so an edit re-runs the comparison
with the edited numbers (on the worker, superseded like a score).
"""
import os
from pathlib import Path

from ..state import CompareResults


class CompareJobs:
    def __init__(self, session, jobs, message, unsay=None):
        self.session, self.jobs, self.message = session, jobs, message
        self.unsay = unsay or (lambda text: None)    # take back a status text if still shown
        self._said = None
        self._cache = {}                 # (truth, path, options, mtime) -> report or problems

    def add(self, paths):
        s = self.session
        new = [p for p in map(str, paths) if p != s.sub_path]
        s.set_compare_paths(list(s.compare_paths) + new)
        self.run()

    def clear(self):
        self.session.set_compare_paths([])
        if self._said:
            self.unsay(self._said)
            self._said = None

    def run(self):
        s = self.session
        if not s.compare_paths or s.results is None or s.stats_settings is None \
                or not s.is_current(s.results.generation):
            return
        from ..analysis.comparison import CompareOptions, compare_reports, load_all
        report, gen = s.results.report, s.results.generation
        paths, settings, truth = s.compare_paths, s.stats_settings, s.truth_path
        ci, shake = settings
        options = CompareOptions(level=ci.level or 0.95, replicates=ci.replicates, seed=ci.seed,
                                 method=ci.method, public_fraction=shake.fraction,
                                 splits=shake.splits)
        main_name = Path(s.sub_path).name
        cache = self._cache

        def job(progress, cancel):
            reports, problems, names = [], [], []
            todo = [p for p in paths if self._key(truth, p, report.options) not in cache]
            if todo:
                _, got, probs = load_all(truth, todo, report.options, progress, cancel)
                for p, r, pr in zip(todo, got, probs):
                    cache[self._key(truth, p, report.options)] = (r, pr)
            for p in paths:
                r, pr = cache[self._key(truth, p, report.options)]
                if r is None:
                    problems += pr
                else:
                    reports.append(r)
                    names.append(Path(p).name)
            if not reports:
                return CompareResults(gen, paths, settings, None, tuple(problems))
            from .stats_controls import group_kw
            cmp = compare_reports([main_name + " (shown)"] + names, [s.sub_path] + [
                p for p in paths if cache[self._key(truth, p, report.options)][0] is not None],
                [report] + reports, options, progress, cancel,
                **group_kw(report, truth, settings))
            return CompareResults(gen, paths, settings, cmp, tuple(problems))

        def failed(exc):
            self._said = f"Not compared: {exc}"
            self.message.emit(self._said, 0)

        def done(res):
            if s.accept_comparison(res) and self._said:
                self.unsay(self._said)           # e.g. the edit that caused it was undone
                self._said = None
        self.jobs.submit("compare", job, done, on_error=failed, generation=gen,
                         lane="background")

    @staticmethod
    def _key(truth, path, options):
        try:
            mtime = os.stat(path).st_mtime_ns
        except OSError:
            mtime = None
        return (truth, path, options, mtime)
