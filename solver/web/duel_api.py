"""The duel's JSON API: two players, two browsers, one room (:mod:`solver.app.duel`).

==================================  ================================================
``POST /api/duel``                  open a room (its rules, a seed or a fresh one):
                                    the code, seat 0 and its secret token
``POST /api/duel/{code}/join``      join it: seat 1 and the other token (once)
``GET /api/duel/{code}``            the room as this player sees it; with
                                    ``since=VERSION`` the answer waits (at most
                                    ``wait`` seconds) until the room changes
``POST /api/duel/{code}/layout``    lay out this deal (once)
``POST /api/duel/{code}/grade``     grade this player's play: a grade job (202)
``POST /api/duel/{code}/next``      the room's next deal, once both have laid out
==================================  ================================================

Every request but opening and joining carries its player's token in the
``X-Room-Token`` header: a header, not the URL, so it stays out of logs and
histories, and a page on another site cannot send it (the browser would ask
first, and the server does not allow it).  A wrong or missing token is 403,
an unknown or expired room 404, a full room or an action out of turn 409.
The handlers only translate HTTP: what a room does is :class:`~solver.app.duel.Rooms`.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from pydantic import Field

from solver.app.duel import Rooms, RoomView, Ticket
from solver.app.limits import MAX_SEED
from solver.web.api import RulesIn, job_manager
from solver.web.fields import WHOLE, Body
from solver.web.responses import JOB_START, responses

__all__ = ["LONGEST_WAIT", "router"]

router = APIRouter(prefix="/api/duel")
LONGEST_WAIT = 25.0  # seconds a waiting GET is held (under common proxies' 30 s)
ROOM = responses(403, 404, 409)
# Missing: "" (refused as a wrong token is, 403, not as a malformed request).
Token = Annotated[str, Header(alias="X-Room-Token", max_length=200)]
Code = Annotated[str, Field(max_length=40)]


class OpenIn(RulesIn):
    """A room's rules (``mode``: mirror, both hold the same cards; independent: each their own)
    and its first deal's seed (none: a fresh one)."""

    seed: Annotated[int, Field(ge=0, lt=MAX_SEED + 1), WHOLE] | None = None


class LayOutIn(Body):
    """This player's ``arrangement`` ("P1 | ... | P5") of their holding."""

    arrangement: Annotated[str, Field(max_length=1000)]


def rooms_of(request: Request) -> Rooms:
    """The app's rooms."""
    rooms: Rooms = request.app.state.rooms
    return rooms


def _ticket(ticket: Ticket, view: RoomView) -> dict[str, Any]:
    return {"code": ticket.code, "seat": ticket.seat, "token": ticket.token, "room": view.payload}


@router.post("", responses=responses(429), summary="open a duel room: its code and your secret")
def open_room(request: Request, body: OpenIn) -> dict[str, Any]:
    """``{code, seat: 0, token, room}``: share the code (or the page's link); keep the token."""
    rooms = rooms_of(request)
    ticket = rooms.open(body.rules(), body.seed)
    return _ticket(ticket, rooms.view(ticket.code, ticket.token))


@router.post("/{code}/join", responses=ROOM, summary="join a duel room by its code")
def join_room(request: Request, code: str) -> dict[str, Any]:
    """``{code, seat: 1, token, room}``; a room with two players already is 409."""
    rooms = rooms_of(request)
    ticket = rooms.join(code)
    return _ticket(ticket, rooms.view(ticket.code, ticket.token))


@router.get("/{code}", responses=ROOM, summary="the room as you see it (waits for a change)")
async def room(
    request: Request,
    code: str,
    since: Annotated[int | None, Query(ge=0)] = None,
    wait: Annotated[float, Query(ge=0, le=LONGEST_WAIT)] = 20.0,
    token: Token = "",
) -> dict[str, Any]:
    """The room now, or (``since``: the version the page shows) once it has changed."""
    rooms = rooms_of(request)
    view = rooms.view(code, token)  # the token first: a stranger does not wait
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    # The room changes in another request's thread: looked at ten times a second.
    while since is not None and view.version == since and loop.time() < deadline:
        if await request.is_disconnected():
            break
        await asyncio.sleep(0.1)
        if rooms.version(code) != since:
            view = rooms.view(code, token)
    return view.payload


@router.post("/{code}/layout", responses=ROOM, summary="lay out your cards in the room")
def lay_out(request: Request, code: str, body: LayOutIn, token: Token = "") -> dict[str, Any]:
    """The room after your layout (both arrangements and the score once both laid out)."""
    return rooms_of(request).lay_out(code, token, body.arrangement).payload


@router.post(
    "/{code}/grade",
    status_code=202,
    responses={**ROOM, **JOB_START},
    summary="grade your play of the room's deal (a job)",
)
def grade_play(request: Request, code: str, token: Token = "") -> dict[str, Any]:
    """The grade job's status; poll ``GET /api/jobs/{id}`` (the ``quintet grade`` document)."""
    return (
        job_manager(request).submit("grade", rooms_of(request).grade_request(code, token)).status()
    )


@router.post("/{code}/next", responses=ROOM, summary="the room's next deal")
def next_deal(
    request: Request,
    code: str,
    after: Annotated[int | None, Query(ge=1)] = None,
    token: Token = "",
) -> dict[str, Any]:
    """The room with a fresh deal, nobody laid out (409 before both laid out this one).

    ``after``: the deal number the page shows; if the other player dealt already, the room
    is answered as it is (both pressing Next deal at once deal once)."""
    return rooms_of(request).next_deal(code, token, after=after).payload
