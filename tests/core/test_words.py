"""Unit words are pluralised as English does ('querys' was shown for MAP@K)."""
import re
from pathlib import Path

from kmetric_gui.core.words import plural


def test_plural_of_the_unit_words():
    assert [plural(w) for w in ("row", "sample", "document", "query", "day", "class")] == \
        ["rows", "samples", "documents", "queries", "days", "classes"]


def test_no_unit_word_is_pluralised_by_adding_s():
    src = Path(__file__).resolve().parents[2] / "kmetric_gui"
    pat = re.compile(r"\{[^{}]*(unit|kind)[^{}:]*\}s\b")
    found = [f"{p.relative_to(src)}:{i}" for p in src.rglob("*.py")
             for i, line in enumerate(p.read_text().splitlines(), 1) if pat.search(line)]
    assert found == []
