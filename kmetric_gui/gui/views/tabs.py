"""The anatomy tab of the metric in use (views made on first use)."""
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QTabWidget

from . import view_entry


class MetricTabs(QTabWidget):
    option_changed = Signal(str, object)
    rows_requested = Signal(object, str)
    transform_requested = Signal(str, object)
    honest_requested = Signal()
    message = Signal(str)                 # e.g. an export that failed, in words

    def __init__(self, context, parent=None):
        super().__init__(parent)
        self.context = context
        self.views = {}
        self._base = None
        self.compare = None                  # the Compare tab, made when first needed
        self.setVisible(False)
        session = getattr(context, "session", None)
        if session is not None and hasattr(session, "files_changed"):
            session.files_changed.connect(self._files_renamed)

    def _files_renamed(self):
        """After Save as the shown submission has a new name: the leaderboard follows."""
        s = self.context.session
        if self.compare is not None and s.sub_path and s.compare_paths:
            from pathlib import Path
            self.compare.view.rename_shown(Path(s.sub_path).name)

    def view(self, metric):
        if metric not in self.views:
            title, cls = view_entry(metric)
            v = cls(self.context)
            style_plots(v)
            self._keep_class_names(v)
            if hasattr(v, "export"):          # exported pictures say what they show
                v.export.set_context(self.export_context)
                v.export.export_failed.connect(self.message)
            for name in ("option_changed", "rows_requested", "transform_requested"):
                if hasattr(v, name):
                    getattr(v, name).connect(getattr(self, name).emit)
            self.views[metric] = v
            self.insertTab(0, v, title)          # the anatomy first, then Fix first, Compare
        return self.views[metric]

    def _names_key(self):
        """Class names belong to a dataset (its solution file), not to every file opened."""
        s = getattr(self.context, "session", None)
        path = getattr(s, "truth_path", None)
        if not path:
            return None
        import hashlib
        import os
        digest = hashlib.sha1(os.path.abspath(str(path)).encode("utf-8")).hexdigest()[:16]
        return f"class_names/{digest}"

    def _keep_class_names(self, view):
        """Class names typed in a view stay for the next run of the same dataset."""
        names, settings = getattr(view, "names", None), getattr(self, "settings", None)
        if names is None or settings is None:
            return

        def save():
            key = self._names_key()
            if key is not None:
                settings.setValue(key, names.text())
        names.editingFinished.connect(save)

    def _load_class_names(self, view):
        names, settings = getattr(view, "names", None), getattr(self, "settings", None)
        key = self._names_key()
        if names is not None and settings is not None and key is not None:
            names.setText(str(settings.value(key, "") or ""))

    def export_context(self):
        s = self.context.session
        if s is None or s.results is None:
            return {}
        from pathlib import Path
        rep = s.results.report
        score = "undefined" if rep.score != rep.score else f"{rep.score:.6f}"
        return {"title": rep.definition.label,
                "files": [Path(p).name for p in (s.truth_path, s.sub_path) if p],
                "score_text": f"{rep.definition.label} {score} ({rep.n_rows:,} rows)"}

    def show_report(self, report, base):
        """Show the report in its metric's view; ``base`` tells new files from edits."""
        # An edit keeps the page in use (working down Fix first, or comparing); new files
        # show their anatomy unless Compare or Fix first is open. Asked before the other
        # metrics' views hide: hiding the page shown moves Qt to the next tab (Fix first).
        keep = (self.compare, getattr(self, "fixes", None))
        stay = self.currentWidget() in keep and self.isTabVisible(self.currentIndex())
        view = self.view(report.metric)
        for v in self.views.values():
            self.setTabVisible(self.indexOf(v), v is view)
        new_data = base is not self._base
        if not stay:
            self.setCurrentWidget(view)
        self.setVisible(True)
        self._base = base
        if new_data:
            self._load_class_names(view)
        view.set_report(report, new_data=new_data)

    def hide_views(self):
        self._base = None
        self.setVisible(False)

    def show_stats(self, stats):
        """Intervals for the view shown, if it draws any (LwLRAP class whiskers)."""
        view = self.currentWidget()
        if view is not None and hasattr(view, "set_stats"):
            view.set_stats(stats)

    def show_comparison(self, res, wanted):
        """The Compare tab: shown while other submissions are compared (``wanted``)."""
        if self.compare is None:
            if not wanted:
                return
            from .compare_page import ComparePage
            self.compare = ComparePage()
            style_plots(self.compare)
            self.compare.rows_requested.connect(self.rows_requested)
            self.compare.transform_requested.connect(self.transform_requested)
            self.addTab(self.compare, "Compare")
        self.setTabVisible(self.indexOf(self.compare), wanted)
        if not wanted:
            self._compare_seen = False
        elif res is not None and not getattr(self, "_compare_seen", False):
            self._compare_seen = True            # shown once when it arrives, then left alone
            self.setCurrentWidget(self.compare)
        if wanted:
            self.compare.show_results(res)
        if res is not None and res.comparison is not None:
            bar = getattr(self.window(), "statusBar", None)
            if bar is not None and bar().currentMessage().startswith("Not compared"):
                bar().clearMessage()            # compared again (e.g. the truth edit undone)

    def prepare_fixes(self):
        """Make the Fix first page ahead (the window calls it once shown, when idle): made
        when the first fixes arrived, it was 30 ms of the turn that draws the anatomy."""
        if getattr(self, "fixes", None) is None and getattr(self, "_fixes_made", None) is None:
            from .fixes_page import FixesPage
            self._fixes_made = FixesPage()

    def show_fixes(self, metric, fixes, gains, has_optimiser):
        """The Fix first tab, and the gains drawn by the metric's view (if it draws any)."""
        if getattr(self, "fixes", None) is None:
            self.prepare_fixes()
            self.fixes, self._fixes_made = self._fixes_made, None
            style_plots(self.fixes)
            self.fixes.rows_requested.connect(self.rows_requested)
            self.fixes.honest_requested.connect(self.honest_requested)
            self.fixes.transform_requested.connect(self.transform_requested)
            self.insertTab(1, self.fixes, "Fix first")
        self.fixes.show_fixes(fixes, has_optimiser)
        view = self.views.get(metric)
        if view is not None and hasattr(view, "set_gains"):
            view.set_gains(gains)


def style_plots(widget):
    """The plots of a view follow the light or dark palette (heatmaps do it themselves)."""
    import pyqtgraph as pg
    from ..widgets.heatmap import Heatmap
    from ..widgets.theme import style_plot
    for plot in widget.findChildren(pg.PlotWidget):
        parent = plot.parentWidget()
        if not isinstance(parent, Heatmap):
            style_plot(plot)
