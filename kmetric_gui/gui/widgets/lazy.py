"""Pages of a QTabWidget whose contents are made the first time they are shown.

A pyqtgraph PlotWidget costs ~8 ms to make; a view's tabs nobody has opened
yet would otherwise make theirs while the files open, on the UI thread.
``ensure(page)`` makes a page's contents now (for exports of a chart never shown).
"""


class LazyPages:
    def __init__(self, tabs):
        self.tabs = tabs
        self.builders = {}          # page widget -> fn() that fills it
        tabs.currentChanged.connect(lambda i: self.ensure(tabs.widget(i)))

    def add(self, page, build):
        self.builders[page] = build
        if self.tabs.currentWidget() is page:
            self.ensure(page)

    def built(self, page):
        return page not in self.builders

    def ensure(self, page):
        build = self.builders.pop(page, None)
        if build is not None:
            build()
