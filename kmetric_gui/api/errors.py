"""The one exception of the Python API."""
from __future__ import annotations

from ..errors import InputError


class InvalidInput(InputError):
    """Bad input: every problem found, one line each, in the words of ``kmetric``.

    ``problems`` lists them; ``str(error)`` shows them all (the CLI prints the same
    lines, each after ``kmetric:``). A subclass of ``ValueError``.
    """

    def __init__(self, message: str, problems: "list[str] | None" = None):
        super().__init__(message, problems)
        self.args = ("\n".join(self.problems),)

    def __str__(self) -> str:
        return "\n".join(self.problems)


def invalid(error: BaseException) -> InvalidInput:
    """An InputError (or ValueError) as the API's exception, every problem kept."""
    if isinstance(error, InvalidInput):
        return error
    problems = getattr(error, "problems", None) or [str(error)]
    return InvalidInput(problems[0], [str(p) for p in problems])


def refuse(*lines: str) -> InvalidInput:
    return InvalidInput(lines[0], list(lines))


__all__ = ["InvalidInput", "invalid", "refuse"]
