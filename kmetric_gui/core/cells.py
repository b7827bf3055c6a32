"""Kaggle cells of '|'-separated items (numpy-free, loaded without the text-matching code)."""


def split_cell(text):
    """A Kaggle cell's items: '|'-separated; empty or blank items are not predictions.

    The one splitter for the core API, the file reader and the app's edits
    (METRICS.md: an empty PredictionString means no predictions).
    """
    return [s for s in ("" if text is None else str(text)).split("|") if s.strip()]
