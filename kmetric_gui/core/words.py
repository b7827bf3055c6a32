"""Plural of the unit words metrics declare (row, sample, document, query, ...)."""


def plural(word):
    """'query' -> 'queries', 'row' -> 'rows', 'class' -> 'classes'."""
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u"):
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word + "s"
