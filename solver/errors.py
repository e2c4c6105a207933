"""Exceptions raised for bad input.

Every mistake a user can make (a bad card token, a wrong arrangement, a
malformed strategy file, an impossible option) raises a subclass of
:class:`QuintetError`, itself a :class:`ValueError`.  The command-line
interface prints the message on one line and exits with status 2; it never
shows a traceback for these.

The few exceptions that are not input errors live here too:
:class:`SimplexError` (the warm simplex gave up; an :class:`ArithmeticError`
its caller recovers from), :class:`TooManyJobsError` (the web server is busy)
and :class:`UsageError` (bad command-line usage).

>>> from solver.errors import CardError, QuintetError
>>> issubclass(CardError, QuintetError) and issubclass(CardError, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "ArrangementError",
    "BookError",
    "CardError",
    "CertificateLimitError",
    "FileError",
    "ListenError",
    "MixtureError",
    "NoBookError",
    "NotACertificateError",
    "QuintetError",
    "RoomError",
    "RoomFullError",
    "RoomSecretError",
    "RoomStateError",
    "RulesError",
    "ServerStoppingError",
    "SimplexError",
    "SolverError",
    "TooManyJobsError",
    "TooManyRoomsError",
    "UnknownRoomError",
    "UsageError",
    "VerificationError",
]


class QuintetError(ValueError):
    """Base class of every input error raised by :mod:`solver`.

    ``argument`` names the function argument at fault when there is one
    (``"time_limit"``, ``"fixed"``...), and the message then starts with it,
    so that a front end can speak of its own option instead.  ``mentions``
    lists the other arguments the message names (as whole words), for the
    same purpose.

    >>> error = QuintetError("time_limit must be positive, got -1", argument="time_limit")
    >>> error.argument, str(error)
    ('time_limit', 'time_limit must be positive, got -1')
    >>> QuintetError("time_limit: bad", argument="tolerance")
    Traceback (most recent call last):
        ...
    ValueError: the message must start with the argument 'tolerance'
    """

    def __init__(
        self, message: str, *, argument: str | None = None, mentions: tuple[str, ...] = ()
    ) -> None:
        if argument is not None and not message.startswith(argument):
            raise ValueError(f"the message must start with the argument {argument!r}")
        super().__init__(message)
        self.argument = argument
        self.mentions = mentions


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


class FileError(QuintetError):
    """A file cannot be read or written; the message names the file."""


class NoBookError(FileError):
    """The solution book a report reads is not there (none built yet).

    A face can then say so in its own words (the web's Study page does),
    instead of the file's path on the server.

    >>> issubclass(NoBookError, FileError)
    True
    """


class BookError(QuintetError):
    """A solution book cannot be used (not a book, a newer schema, corrupt), or a build is misconfigured.

    >>> issubclass(BookError, QuintetError)
    True
    """


class SimplexError(ArithmeticError):
    """The warm simplex gave up (too many pivots, a singular basis, bad data)."""


class TooManyJobsError(Exception):
    """The server has :data:`~solver.web.jobs.MAX_PENDING` unfinished jobs already."""


class ServerStoppingError(Exception):
    """The server is shutting down and takes no new jobs."""


class ListenError(QuintetError):
    """The server cannot listen where it was asked: the port is taken, the host is not ours.

    >>> issubclass(ListenError, QuintetError)
    True
    """


class RoomError(QuintetError):
    """A duel room cannot do what was asked (see :mod:`solver.app.duel`).

    >>> issubclass(RoomSecretError, RoomError) and issubclass(RoomError, QuintetError)
    True
    """


class UnknownRoomError(RoomError):
    """No open room has this code (never opened, or expired)."""


class RoomFullError(RoomError):
    """The room has its two players already: nobody else can join it."""


class RoomSecretError(RoomError):
    """The request does not carry one of the room's two secrets: it may not act in the room."""


class RoomStateError(RoomError):
    """Not now: laying out twice, grading before both have laid out, a new deal mid-game."""


class TooManyRoomsError(RoomError):
    """The server has as many open rooms as it keeps; one must expire first."""


class UsageError(Exception):
    """Bad command-line usage; printed as one line, exit status 2."""


class NotACertificateError(QuintetError):
    """A document given to :mod:`solver.verify` is not a certificate at all (exit status 2)."""


class CertificateLimitError(QuintetError):
    """A certificate exceeds one of :mod:`solver.verify.limits` (exit status 2); the message names it."""


class VerificationError(Exception):
    """A certificate's check failed (exit status 1): the message names the field and what is wrong.

    Not an input error: the certificate is well formed, and what it claims is false.
    """
