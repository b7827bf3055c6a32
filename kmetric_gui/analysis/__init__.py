"""The analyses over scored data: scoring, intervals, comparison, selection, ranking."""
