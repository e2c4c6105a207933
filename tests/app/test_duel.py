"""The duel's rooms (solver.app.duel): seats, secrets, turns, the score and expiry."""

from __future__ import annotations

import pytest

from solver.app.duel import CODE_ALPHABET, CODE_LENGTH, Phase, Rooms, normal_code
from solver.app.grading import grade_arrangement
from solver.errors import (
    ArrangementError,
    RoomFullError,
    RoomSecretError,
    RoomStateError,
    TooManyRoomsError,
    UnknownRoomError,
)
from solver.game.arrangement import Arrangement, score
from solver.game.deal import deal
from solver.game.payloads import cards_payload
from solver.game.rules import DiscardMode, Rules

INDEPENDENT = Rules(discard_mode=DiscardMode.INDEPENDENT)


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def laid(holding: tuple[int, ...], reverse: bool = False) -> str:
    """The holding in five packets of five, in card order (or reversed)."""
    cards = cards_payload(sorted(holding, reverse=reverse))
    return " | ".join(" ".join(cards[i : i + 5]) for i in range(0, 25, 5))


def test_a_room_seats_two_players_and_refuses_a_third() -> None:
    rooms = Rooms()
    host = rooms.open(Rules(), seed=7)
    assert len(host.code) == CODE_LENGTH and set(host.code) <= set(CODE_ALPHABET)
    assert host.seat == 0 and len(host.token) >= 40
    assert rooms.view(host.code, host.token).phase is Phase.WAITING
    guest = rooms.join(f" {host.code[:3].lower()}-{host.code[3:]} ")  # as typed on a phone
    assert guest.seat == 1 and guest.token != host.token
    with pytest.raises(RoomFullError, match="has two players already"):
        rooms.join(host.code)
    assert rooms.view(host.code, host.token).players == 2


@pytest.mark.parametrize("token", ["", "x", "not-a-token" * 5])
def test_only_the_two_secrets_act(token: str) -> None:
    rooms = Rooms()
    host = rooms.open(Rules(), seed=7)
    guest = rooms.join(host.code)
    holding = rooms.view(host.code, host.token).holding
    for act in (
        lambda: rooms.view(host.code, token),
        lambda: rooms.lay_out(host.code, token, laid(holding)),
        lambda: rooms.grade_request(host.code, token),
        lambda: rooms.next_deal(host.code, token),
    ):
        with pytest.raises(RoomSecretError, match="only its two players"):
            act()
    # One room's secret is no key to another room.
    other = rooms.open(Rules(), seed=8)
    with pytest.raises(RoomSecretError):
        rooms.view(other.code, guest.token)


def test_mirror_both_hold_the_deal_and_see_the_score_once_both_laid_out() -> None:
    rooms = Rooms()
    host = rooms.open(Rules(), seed=11)
    guest = rooms.join(host.code)
    dealt = deal(11, Rules()).holdings
    assert dealt[0] == dealt[1]  # mirror: the same cards
    first = rooms.lay_out(host.code, host.token, laid(dealt[0]))
    assert first.phase is Phase.LAYING and first.laid == (True, False)
    # The guest does not see the host's layout before laying out.
    before = rooms.view(guest.code, guest.token)
    assert before.laid == (False, True) and before.arrangements == (None, None)
    assert before.payload["score"] is None
    with pytest.raises(RoomStateError):
        rooms.grade_request(host.code, host.token)
    with pytest.raises(RoomStateError):
        rooms.next_deal(host.code, host.token)
    after = rooms.lay_out(guest.code, guest.token, laid(dealt[1], reverse=True))
    assert after.phase is Phase.REVEALED
    mine = Arrangement.parse(laid(dealt[1], reverse=True))
    theirs = Arrangement.parse(laid(dealt[0]))
    expected = score(mine, theirs, Rules())
    assert after.payload["score"]["points"] == list(expected.points)
    host_view = rooms.view(host.code, host.token).payload
    assert host_view["score"]["points"] == list(expected.points[::-1])  # each sees themself first
    with pytest.raises(RoomStateError, match="laid out this deal already"):
        rooms.lay_out(host.code, host.token, laid(dealt[0]))


def test_independent_each_holds_their_own_and_lays_out_only_their_cards() -> None:
    rooms = Rooms()
    host = rooms.open(INDEPENDENT, seed=3)
    guest = rooms.join(host.code)
    dealt = deal(3, INDEPENDENT).holdings
    assert dealt[0] != dealt[1]
    assert rooms.view(host.code, host.token).holding == dealt[0]
    assert rooms.view(guest.code, guest.token).holding == dealt[1]
    assert rooms.view(guest.code, guest.token).opponent_holding == dealt[0]
    with pytest.raises(ArrangementError, match="not in the holding"):
        rooms.lay_out(guest.code, guest.token, laid(dealt[0]))
    assert rooms.view(guest.code, guest.token).laid == (False, False)


def test_the_grade_request_is_the_players_seat_of_the_deal() -> None:
    rooms = Rooms()
    host = rooms.open(INDEPENDENT, seed=3)
    guest = rooms.join(host.code)
    dealt = deal(3, INDEPENDENT).holdings
    rooms.lay_out(host.code, host.token, laid(dealt[0]))
    rooms.lay_out(guest.code, guest.token, laid(dealt[1], reverse=True))
    request = rooms.grade_request(guest.code, guest.token)
    assert (request.holdings.mine, request.holdings.theirs) == (dealt[1], dealt[0])
    assert request.holdings.seed == 3 and request.rules == INDEPENDENT
    assert Arrangement.parse(request.arrangement) == Arrangement.parse(laid(dealt[1], True))


@pytest.mark.slow
def test_the_grade_is_the_projects_grade() -> None:
    rooms = Rooms()
    host = rooms.open(Rules(), seed=1)
    guest = rooms.join(host.code)
    dealt = deal(1, Rules()).holdings
    rooms.lay_out(host.code, host.token, laid(dealt[0]))
    rooms.lay_out(guest.code, guest.token, laid(dealt[1], reverse=True))
    document = grade_arrangement(rooms.grade_request(host.code, host.token)).document
    assert document["format"] == "quintet-grade/1" and document["seed"] == 1


def test_the_next_deal_starts_afresh() -> None:
    rooms = Rooms()
    host = rooms.open(Rules(), seed=1)
    guest = rooms.join(host.code)
    for ticket in (host, guest):
        rooms.lay_out(
            ticket.code, ticket.token, laid(rooms.view(ticket.code, ticket.token).holding)
        )
    version = rooms.version(host.code)
    view = rooms.next_deal(guest.code, guest.token, seed=2)
    assert view.seed == 2 and view.deal_number == 2 and view.laid == (False, False)
    assert view.holding == deal(2, Rules()).holdings[1] and rooms.version(host.code) > version


def test_both_pressing_next_deal_at_once_deal_once() -> None:
    rooms = Rooms()
    host = rooms.open(Rules(), seed=1)
    guest = rooms.join(host.code)
    for ticket in (host, guest):
        rooms.lay_out(
            ticket.code, ticket.token, laid(rooms.view(ticket.code, ticket.token).holding)
        )
    first = rooms.next_deal(host.code, host.token, seed=2, after=1)
    second = rooms.next_deal(guest.code, guest.token, seed=3, after=1)  # pressed at the same time
    assert first.deal_number == second.deal_number == 2 and second.seed == 2
    with pytest.raises(RoomStateError):  # without after: a deal out of turn
        rooms.next_deal(guest.code, guest.token)


def test_the_version_grows_with_each_change() -> None:
    rooms = Rooms()
    host = rooms.open(Rules(), seed=1)
    versions = [rooms.version(host.code)]
    guest = rooms.join(host.code)
    versions.append(rooms.version(host.code))
    rooms.view(guest.code, guest.token)  # looking changes nothing
    versions.append(rooms.version(host.code))
    rooms.lay_out(guest.code, guest.token, laid(rooms.view(guest.code, guest.token).holding))
    versions.append(rooms.version(host.code))
    assert versions[0] < versions[1] == versions[2] < versions[3]


def test_rooms_expire_unused_and_are_bounded() -> None:
    clock = Clock()
    rooms = Rooms(lifetime=60, max_rooms=2, clock=clock)
    first = rooms.open(Rules(), seed=1)
    clock.now += 50
    rooms.view(first.code, first.token)  # used: its time starts again
    second = rooms.open(Rules(), seed=2)
    with pytest.raises(TooManyRoomsError, match="2 open rooms"):
        rooms.open(Rules(), seed=3)
    clock.now += 59
    assert len(rooms) == 2
    clock.now += 1
    assert len(rooms) == 0
    for code in (first.code, second.code):
        with pytest.raises(UnknownRoomError, match="no open room"):
            rooms.join(code)
    assert rooms.open(Rules(), seed=4).code


def test_codes_are_normalised_and_refused_by_type() -> None:
    assert normal_code("ab c-2") == "ABC2"
    with pytest.raises(TypeError, match="room_code must be a str"):
        normal_code(None)  # type: ignore[arg-type]
    with pytest.raises(UnknownRoomError, match="room_code: no open room"):
        Rooms().view("Z" * 500, "x")
