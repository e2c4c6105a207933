"""Exceptions raised for bad input.

Every mistake a user can make (a bad card token, a wrong arrangement, a
malformed strategy file, an impossible option) raises a subclass of
:class:`QuintetError`, itself a :class:`ValueError`.  The command-line
interface prints the message on one line and exits with status 2; it never
shows a traceback for these.

>>> from solver.errors import CardError, QuintetError
>>> issubclass(CardError, QuintetError) and issubclass(CardError, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "ArrangementError",
    "CardError",
    "MixtureError",
    "QuintetError",
    "RulesError",
    "SolverError",
]


class QuintetError(ValueError):
    """Base class of every input error raised by :mod:`solver`.

    ``argument`` names the function argument at fault when there is one
    (``"time_limit"``, ``"fixed"``...), and the message then starts with it,
    so that a front end can speak of its own option instead.

    >>> error = QuintetError("time_limit must be positive, got -1", argument="time_limit")
    >>> error.argument, str(error)
    ('time_limit', 'time_limit must be positive, got -1')
    >>> QuintetError("time_limit: bad", argument="tolerance")
    Traceback (most recent call last):
        ...
    ValueError: the message must start with the argument 'tolerance'
    """

    def __init__(self, message: str, *, argument: str | None = None) -> None:
        if argument is not None and not message.startswith(argument):
            raise ValueError(f"the message must start with the argument {argument!r}")
        super().__init__(message)
        self.argument = argument


class CardError(QuintetError):
    """A card token or a list of cards is invalid; the message names the token."""


class RulesError(QuintetError):
    """A rules option has an invalid value."""


class ArrangementError(QuintetError):
    """An arrangement is malformed or does not match the player's holding."""


class MixtureError(QuintetError):
    """A mixed-strategy (mixture) file or object is malformed."""


class SolverError(QuintetError):
    """A solver request cannot be satisfied (for example an impossible fixed packet)."""
