"""Small changes to an arrangement, evaluated all at once.

Three kinds of move, between two packets ``i < j`` of an arrangement of
``n`` packets:

* swap the two packets' positions: one move per pair;
* exchange one card of packet ``i`` with one of packet ``j``: ``5 * 5 = 25``;
* exchange two cards of packet ``i`` with two of packet ``j``:
  ``C(5, 2) ** 2 = 100``.

So there are ``C(n, 2) * (1 + 25 + 100)`` candidates: **1,260** for five
packets, 126 for two.  Every candidate is a permutation of the arrangement's
``5n`` card slots; the permutations depend only on ``n`` and are built once.
The candidates' cards are one gather, their strengths one evaluator lookup,
and their expected margins against a mixed strategy one comparison of
``(candidates, support)`` profiles (:func:`solver.game.arrangement.points_against`).

>>> moves = moves_for(2)
>>> moves.slots.shape, [int((moves.kind == k).sum()) for k in range(3)]
((126, 10), [1, 25, 100])
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from itertools import combinations

import numpy as np

from solver.equilibria.equilibrium import DEFAULT_TOLERANCE
from solver.game.arrangement import Arrangement, points_against
from solver.game.cards import HAND_SIZE
from solver.game.evaluator import strength
from solver.game.rules import Rules

__all__ = ["Change", "ChangeKind", "Moves", "best_change", "moves_for"]


class ChangeKind(str, Enum):
    """The kinds of move, smallest first."""

    SWAP_PACKETS = "swap_packets"
    ONE_CARD = "one_card"
    TWO_CARDS = "two_cards"


_KINDS = (ChangeKind.SWAP_PACKETS, ChangeKind.ONE_CARD, ChangeKind.TWO_CARDS)


@dataclass(frozen=True)
class Moves:
    """Every candidate move for ``n`` packets.

    ``slots[m]`` is the permutation of the ``5n`` card slots (packet-major) of
    move ``m``; ``kind[m]`` indexes :class:`ChangeKind`; ``pair[m]`` the two
    packets (0-based); ``given[m]`` / ``taken[m]`` the slots whose cards move
    from packet ``i`` to ``j`` / from ``j`` to ``i`` (``-1`` pads).
    """

    slots: np.ndarray  # (M, 5n)
    kind: np.ndarray  # (M,)
    pair: np.ndarray  # (M, 2)
    given: np.ndarray  # (M, 2)
    taken: np.ndarray  # (M, 2)


@lru_cache(maxsize=8)
def moves_for(n_packets: int) -> Moves:
    """The candidate moves of an ``n_packets`` arrangement (see the module docstring)."""
    rows: list[tuple[int, int, int, tuple[int, ...], tuple[int, ...]]] = []
    # (kind, i, j, slots given by i, slots taken from j), smallest moves first.
    for i, j in combinations(range(n_packets), 2):
        rows.append((0, i, j, (), ()))
    for size in (1, 2):
        for i, j in combinations(range(n_packets), 2):
            for mine in combinations(range(HAND_SIZE), size):
                for theirs in combinations(range(HAND_SIZE), size):
                    given = tuple(HAND_SIZE * i + a for a in mine)
                    taken = tuple(HAND_SIZE * j + b for b in theirs)
                    rows.append((size, i, j, given, taken))
    n_slots = HAND_SIZE * n_packets
    slots = np.tile(np.arange(n_slots), (len(rows), 1))
    given_slots = np.full((len(rows), 2), -1)
    taken_slots = np.full((len(rows), 2), -1)
    for m, (kind, i, j, given, taken) in enumerate(rows):
        if kind == 0:
            block_i = np.arange(HAND_SIZE * i, HAND_SIZE * (i + 1))
            block_j = np.arange(HAND_SIZE * j, HAND_SIZE * (j + 1))
            slots[m, block_i], slots[m, block_j] = block_j, block_i
        else:
            slots[m, list(given)], slots[m, list(taken)] = list(taken), list(given)
            given_slots[m, : len(given)] = given
            taken_slots[m, : len(taken)] = taken
    kinds = np.array([row[0] for row in rows], dtype=np.int64)
    pairs = np.array([(row[1], row[2]) for row in rows], dtype=np.int64).reshape(-1, 2)
    return Moves(slots, kinds, pairs, given_slots, taken_slots)


@dataclass(frozen=True)
class Change:
    """One move and what it is worth.

    Attributes
    ----------
    kind
        What kind of move.
    positions
        The two packets' positions, 1-based, ``first < second``.
    given, taken
        Cards moved from the first packet to the second, and back (empty
        when the packets swap positions).
    arrangement
        The arrangement after the move.
    value
        Its expected margin against the opponent's equilibrium strategy.
    equilibrium_loss
        The game value minus ``value`` (clipped like the grade's).
    candidates
        How many moves were evaluated.
    """

    kind: ChangeKind
    positions: tuple[int, int]
    given: tuple[int, ...]
    taken: tuple[int, ...]
    arrangement: Arrangement
    value: float
    equilibrium_loss: float
    candidates: int


def candidate_values(
    arrangement: Arrangement,
    profiles: np.ndarray,
    probabilities: np.ndarray,
    rules: Rules,
) -> tuple[Moves, np.ndarray, np.ndarray]:
    """Every move's cards ``(M, n, 5)`` and expected margin against a mixture.

    ``profiles`` ``(K, n)`` are the opponent's strategies' strengths in
    position order, ``probabilities`` ``(K,)`` theirs.
    """
    moves = moves_for(arrangement.n_packets)
    flat = np.asarray(arrangement.packets, dtype=np.int64).reshape(-1)
    cards = flat[moves.slots].reshape(moves.slots.shape[0], arrangement.n_packets, HAND_SIZE)
    mine = strength(cards, rules).astype(np.int64)
    ours, theirs = points_against(mine[:, None, :], profiles[None, :, :], rules)
    return moves, cards, (ours - theirs) @ probabilities


def best_change(
    arrangement: Arrangement,
    profiles: np.ndarray,
    probabilities: np.ndarray,
    rules: Rules,
    current: float,
) -> tuple[int, Moves, np.ndarray, np.ndarray] | None:
    """The move that raises the expected margin most (the smallest among equals).

    Returns the move's index with the moves, cards and values, or None when
    no move gains more than the solver's tolerance (1e-9) over ``current``.

    >>> one = Rules(position_points=(7,))
    >>> a = Arrangement.from_array(np.arange(5).reshape(1, 5))
    >>> best_change(a, a.strengths(one)[None], np.ones(1), one, 0.0) is None  # nothing to move
    True
    """
    if arrangement.n_packets < 2:
        return None
    moves, cards, values = candidate_values(arrangement, profiles, probabilities, rules)
    top = float(values.max())
    if top <= current + DEFAULT_TOLERANCE:
        return None
    # Moves are listed smallest first: the first within rounding of the best.
    index = int(np.flatnonzero(values >= top - 1e-12)[0])
    return index, moves, cards, values


def describe_move(
    arrangement: Arrangement, moves: Moves, cards: np.ndarray, index: int
) -> tuple[ChangeKind, tuple[int, int], tuple[int, ...], tuple[int, ...], Arrangement]:
    """Kind, positions, cards given and taken, and the new arrangement of move ``index``."""
    flat = np.asarray(arrangement.packets, dtype=np.int64).reshape(-1)
    given = tuple(int(flat[s]) for s in moves.given[index] if s >= 0)
    taken = tuple(int(flat[s]) for s in moves.taken[index] if s >= 0)
    i, j = (int(p) + 1 for p in moves.pair[index])
    return (
        _KINDS[int(moves.kind[index])],
        (i, j),
        given,
        taken,
        Arrangement.from_array(cards[index]),
    )
