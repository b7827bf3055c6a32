"""Errors a user can act on. Standard library only."""


class InputError(ValueError):
    """Bad input: the message names the file, column, row or id at fault.

    ``problems`` holds every problem found (one line each) when a validation
    pass collected several; ``str(error)`` is the first or only one.
    """

    def __init__(self, message, problems=None):
        self.problems = list(problems) if problems else [str(message)]
        super().__init__(str(message))


class Cancelled(Exception):
    """Raised inside long work when the caller asked it to stop."""
