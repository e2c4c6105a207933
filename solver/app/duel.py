"""The duel: two people on two devices play one deal through one server, in a room.

One player opens a room (:meth:`Rooms.open`) and gets its short ``code``
and a secret ``token``; the other joins with the code (:meth:`Rooms.join`)
and gets the other token.  A room holds one deal at a time: in mirror mode
both players hold the same 25 cards, in independent mode each holds their
own.  Each lays out (:meth:`Rooms.lay_out`); once both have, the room shows
both arrangements and the score (:class:`RoomView`), and each player may
have their play graded against the deal's equilibrium
(:meth:`Rooms.grade_request`: the project's grading, run by the face).
Either player may then deal the next one (:meth:`Rooms.next_deal`).

Only the holders of the room's two tokens can act in it: every request
names its token, compared in constant time with both; the code alone
joins a room only while it has one player.  Rooms unused for
:data:`ROOM_SECONDS` are forgotten, and a server keeps at most
:data:`MAX_ROOMS`.

>>> rooms = Rooms()
>>> host = rooms.open(Rules(), seed=5)
>>> guest = rooms.join(host.code.lower())
>>> view = rooms.view(guest.code, guest.token)
>>> view.seat, view.players, view.phase.value, view.holding == rooms.view(host.code, host.token).holding
(1, 2, 'laying', True)
>>> rooms.join(host.code)
Traceback (most recent call last):
    ...
solver.errors.RoomFullError: room_code: room ... has two players already
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from solver.app.report import display_order, score_report
from solver.app.requests import GradeRequest, Holdings, fresh_seed
from solver.errors import (
    QuintetError,
    RoomFullError,
    RoomSecretError,
    RoomStateError,
    TooManyRoomsError,
    UnknownRoomError,
)
from solver.game.arrangement import Arrangement, score
from solver.game.deal import deal
from solver.game.payloads import cards_payload, rules_payload
from solver.game.rules import Rules
from solver.util.checks import check_instance, check_int, check_number

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "MAX_ROOMS",
    "ROOM_SECONDS",
    "Phase",
    "RoomView",
    "Rooms",
    "Ticket",
    "normal_code",
]

# A room's code is read out or typed on a phone: no 0/O, 1/I/L.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
ROOM_SECONDS = 2 * 3600  # a room unused this long is forgotten
MAX_ROOMS = 100
TOKEN_BYTES = 32  # each player's secret: 256 random bits, never guessed


class Phase(Enum):
    """Where a room's game is."""

    WAITING = "waiting"  # one player: the code waits to be used
    LAYING = "laying"  # two players, not both laid out
    REVEALED = "revealed"  # both laid out: the table is turned over


@dataclass(frozen=True)
class Ticket:
    """What a player gets on opening or joining: the room's code, their seat and secret."""

    code: str
    seat: int
    token: str = field(repr=False)


@dataclass(frozen=True)
class RoomView:
    """A room as one player sees it.

    ``holding`` and ``opponent_holding`` are the deal's cards (both are known
    in Quintet); ``arrangements`` (this player's first) is this player's
    layout alone until both have laid out, then both; ``score`` is the
    ``quintet score --json`` document of the two, this player first, once
    revealed.  ``version`` grows with every change (a face waits for it).
    """

    code: str
    seat: int
    phase: Phase
    players: int
    laid: tuple[bool, bool]
    rules: Rules
    seed: int
    deal_number: int
    holding: tuple[int, ...]
    opponent_holding: tuple[int, ...]
    arrangements: tuple[Arrangement | None, Arrangement | None]
    version: int
    expires_in: float

    @property
    def payload(self) -> dict[str, Any]:
        """The view as JSON (cards as ASCII codes, the score document once revealed)."""
        mine, theirs = self.arrangements
        scored = None
        if mine is not None and theirs is not None:
            scored = score_report(mine, theirs, score(mine, theirs, self.rules), self.rules, "en")
        return {
            "code": self.code,
            "seat": self.seat,
            "phase": self.phase.value,
            "players": self.players,
            "laid": list(self.laid),
            "rules": rules_payload(self.rules),
            "seed": self.seed,
            "deal_number": self.deal_number,
            "holding": cards_payload(display_order(self.holding)),
            "opponent_holding": cards_payload(display_order(self.opponent_holding)),
            "arrangements": [
                None if a is None else [cards_payload(p) for p in a.packets]
                for a in self.arrangements
            ],
            "score": None if scored is None else scored.payload,
            "version": self.version,
            "expires_in": round(self.expires_in),
        }


@dataclass
class _Room:
    code: str
    rules: Rules
    tokens: list[str]
    seed: int = 0
    deal_number: int = 1
    holdings: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    arrangements: list[Arrangement | None] = field(default_factory=lambda: [None, None])
    version: int = 0
    used: float = 0.0

    def deal(self, seed: int) -> None:
        self.seed = seed
        self.holdings = deal(seed, self.rules).holdings
        self.arrangements = [None, None]

    @property
    def phase(self) -> Phase:
        if len(self.tokens) < 2:
            return Phase.WAITING
        return Phase.REVEALED if all(self.arrangements) else Phase.LAYING


def normal_code(code: str) -> str:
    """A room code as typed (any case, spaces or dashes) in its one form.

    >>> normal_code(" ab-c 2d9 ")
    'ABC2D9'
    >>> normal_code(7)
    Traceback (most recent call last):
        ...
    TypeError: room_code must be a str, got 7
    """
    check_instance(code, str, "room_code")
    return "".join(code.split()).replace("-", "").upper()


class Rooms:
    """The open duel rooms of one server (thread-safe).

    Parameters
    ----------
    lifetime
        Seconds a room may go unused before it is forgotten.
    max_rooms
        Rooms kept at once; opening one more is a :class:`TooManyRoomsError`.
    clock
        The time in seconds (tests give their own).

    >>> Rooms(lifetime=0)
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: lifetime must be positive, got 0
    """

    def __init__(
        self,
        *,
        lifetime: float = ROOM_SECONDS,
        max_rooms: int = MAX_ROOMS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.lifetime = check_number(lifetime, "lifetime", low=0)
        if not self.lifetime > 0:
            raise QuintetError(f"lifetime must be positive, got {lifetime}", argument="lifetime")
        self.max_rooms = check_int(max_rooms, "max_rooms", low=1)
        self._clock = clock
        self._rooms: dict[str, _Room] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            self._forget_old()
            return len(self._rooms)

    # ---------- the players' actions ----------
    def open(self, rules: Rules, seed: int | None = None) -> Ticket:
        """A new room with its first deal (``seed``: a fresh one when None); the opener's ticket.

        >>> Rooms(max_rooms=1).open(Rules(), seed=-1)
        Traceback (most recent call last):
            ...
        solver.errors.RulesError: seed must be a non-negative integer or a numpy Generator, got -1
        """
        check_instance(rules, Rules, "rules")
        seed = fresh_seed() if seed is None else seed
        room = _Room(code="", rules=rules, tokens=[secrets.token_urlsafe(TOKEN_BYTES)])
        room.deal(seed)
        with self._lock:
            self._forget_old()
            if len(self._rooms) >= self.max_rooms:
                raise TooManyRoomsError(
                    f"the server has {self.max_rooms} open rooms, as many as it keeps; "
                    "try again when one has expired"
                )
            room.code = self._new_code()
            room.used = self._clock()
            self._rooms[room.code] = room
        return Ticket(room.code, 0, room.tokens[0])

    def join(self, code: str) -> Ticket:
        """The second player's ticket for the room ``code`` (a :class:`RoomFullError` when taken).

        >>> Rooms().join("NOROOM")
        Traceback (most recent call last):
            ...
        solver.errors.UnknownRoomError: room_code: no open room NOROOM (rooms expire after 2 hours unused)
        """
        with self._lock:
            room = self._room(code)
            if len(room.tokens) >= 2:
                raise RoomFullError(
                    f"room_code: room {room.code} has two players already", argument="room_code"
                )
            room.tokens.append(secrets.token_urlsafe(TOKEN_BYTES))
            self._changed(room)
            return Ticket(room.code, 1, room.tokens[1])

    def view(self, code: str, token: str) -> RoomView:
        """The room as the holder of ``token`` sees it (a :class:`RoomSecretError` for others).

        >>> rooms = Rooms()
        >>> ticket = rooms.open(Rules(), seed=1)
        >>> rooms.view(ticket.code, ticket.token).phase
        <Phase.WAITING: 'waiting'>
        >>> rooms.view(ticket.code, "guessed")
        Traceback (most recent call last):
            ...
        solver.errors.RoomSecretError: this browser does not hold a secret of the room: only its two players can act in it
        """
        with self._lock:
            room = self._room(code)
            seat = self._seat(room, token)
            room.used = self._clock()
            return self._view(room, seat)

    def version(self, code: str) -> int:
        """The room's version (it grows with each change): what a waiting face watches.

        >>> rooms = Rooms()
        >>> code = rooms.open(Rules(), seed=1).code
        >>> before = rooms.version(code)
        >>> _ = rooms.join(code)
        >>> rooms.version(code) > before
        True
        >>> rooms.version(7)
        Traceback (most recent call last):
            ...
        TypeError: room_code must be a str, got 7
        """
        with self._lock:
            return self._room(code).version

    def lay_out(self, code: str, token: str, arrangement: str) -> RoomView:
        """Lay out ``arrangement`` ("P1 | ... | P5") of the player's holding, once per deal.

        >>> rooms = Rooms()
        >>> ticket = rooms.open(Rules(), seed=1)
        >>> rooms.lay_out(ticket.code, ticket.token, "As Ks")
        Traceback (most recent call last):
            ...
        solver.errors.ArrangementError: expected 5 packets separated by '|', got 1
        """
        check_instance(arrangement, str, "arrangement")
        with self._lock:
            room = self._room(code)
            seat = self._seat(room, token)
            if room.arrangements[seat] is not None:
                raise RoomStateError("you have laid out this deal already")
            laid = Arrangement.parse(arrangement, n_packets=room.rules.n_packets)
            laid.check(room.holdings[seat], room.rules)
            room.arrangements[seat] = laid
            self._changed(room)
            return self._view(room, seat)

    def next_deal(
        self, code: str, token: str, seed: int | None = None, *, after: int | None = None
    ) -> RoomView:
        """Deal the room's next deal, once both have laid out the present one.

        ``after``: the deal number the player saw; when the other player has dealt the next
        one already (both pressed at once), the room is answered as it is, not dealt twice.

        >>> rooms = Rooms()
        >>> ticket = rooms.open(Rules(), seed=1)
        >>> rooms.next_deal(ticket.code, ticket.token)
        Traceback (most recent call last):
            ...
        solver.errors.RoomStateError: the next deal comes once both players have laid out
        """
        with self._lock:
            room = self._room(code)
            seat = self._seat(room, token)
            if after is not None and after != room.deal_number:
                return self._view(room, seat)
            if room.phase is not Phase.REVEALED:
                raise RoomStateError("the next deal comes once both players have laid out")
            room.deal(fresh_seed() if seed is None else seed)
            room.deal_number += 1
            self._changed(room)
            return self._view(room, seat)

    def grade_request(self, code: str, token: str) -> GradeRequest:
        """The grading of the token holder's play of the deal (once both have laid out).

        >>> rooms = Rooms()
        >>> ticket = rooms.open(Rules(), seed=1)
        >>> rooms.grade_request(ticket.code, ticket.token)
        Traceback (most recent call last):
            ...
        solver.errors.RoomStateError: a play is graded once both players have laid out
        """
        with self._lock:
            room = self._room(code)
            seat = self._seat(room, token)
            laid = room.arrangements[seat]
            if room.phase is not Phase.REVEALED or laid is None:
                raise RoomStateError("a play is graded once both players have laid out")
            holdings = Holdings(room.holdings[seat], room.holdings[1 - seat], room.seed, True)
            text = " | ".join(" ".join(cards_payload(p)) for p in laid.packets)
            return GradeRequest(holdings=holdings, rules=room.rules, arrangement=text)

    # ---------- inside ----------
    def _new_code(self) -> str:
        while True:  # 31**6 codes: a clash with at most MAX_ROOMS rooms is rare
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self._rooms:
                return code

    def _forget_old(self) -> None:
        now = self._clock()
        for code in [c for c, r in self._rooms.items() if now - r.used >= self.lifetime]:
            del self._rooms[code]

    def _room(self, code: str) -> _Room:
        self._forget_old()
        code = normal_code(code)
        room = self._rooms.get(code)
        if room is None:
            hours = self.lifetime / 3600
            raise UnknownRoomError(
                f"room_code: no open room {code[:12]} (rooms expire after {hours:g} hours unused)",
                argument="room_code",
            )
        return room

    @staticmethod
    def _seat(room: _Room, token: str) -> int:
        given = (token if isinstance(token, str) else "").encode()
        # Both compared, in constant time: how long it takes tells nothing of either token.
        matches = [hmac.compare_digest(given, t.encode()) for t in room.tokens]
        if not given or not any(matches):
            raise RoomSecretError(
                "this browser does not hold a secret of the room: only its two players can act in it"
            )
        return matches.index(True)

    def _changed(self, room: _Room) -> None:
        room.version += 1
        room.used = self._clock()

    def _view(self, room: _Room, seat: int) -> RoomView:
        mine, theirs = room.arrangements[seat], room.arrangements[1 - seat]
        revealed = room.phase is Phase.REVEALED
        return RoomView(
            code=room.code,
            seat=seat,
            phase=room.phase,
            players=len(room.tokens),
            laid=(mine is not None, theirs is not None),
            rules=room.rules,
            seed=room.seed,
            deal_number=room.deal_number,
            holding=room.holdings[seat],
            opponent_holding=room.holdings[1 - seat],
            arrangements=(mine, theirs if revealed else None),
            version=room.version,
            expires_in=max(0.0, room.used + self.lifetime - self._clock()),
        )
