"""Position-by-position dominance between arrangements of the same cards.

>>> from solver.game.rules import Rules
>>> dominating_arrangement(Arrangement.parse("7c 7d 7h 7s 8c | As Ks Qs Js Ts"),
...                        Rules(position_points=(6, 7))) is None
True
"""

from __future__ import annotations

import numpy as np

from solver.game.arrangement import Arrangement
from solver.game.rules import Rules
from solver.response.frontier import cached_frontier

__all__ = ["dominating_arrangement"]


def dominating_arrangement(arrangement: Arrangement, rules: Rules) -> Arrangement | None:
    """An arrangement of the same cards at least as strong at every position and
    stronger at one, or None when there is none.

    Claim: ``a`` (strengths ``s`` in position order) is dominated position by
    position, with the packets free to move, if and only if ``sort(s)`` is
    strictly dominated (``>=`` everywhere, ``>`` somewhere) by a frontier
    profile ``f`` of the holding.

    If: order ``a``'s positions by strength, ``pi(1), ..., pi(n)`` weakest first
    (``s[pi(k)] = sort(s)[k]``), and match ``f``'s ``k``-th weakest packet to
    position ``pi(k)``.  That arrangement has ``f[k] >= sort(s)[k] = s[pi(k)]``
    at every position, strictly at one: it dominates ``a``.

    Only if: let ``b`` (strengths ``t >= s``, ``t != s``) dominate ``a``.  For
    every ``k`` the ``k`` weakest of ``t`` sit at ``k`` positions where ``s`` is
    no stronger, so ``s`` has ``k`` values ``<= sort(t)[k]``: ``sort(s)[k] <=
    sort(t)[k]``.  ``sort(t)`` is achievable, so some frontier profile
    ``f >= sort(t)`` (the frontier holds every undominated sorted profile), and
    ``sum(f) >= sum(t) > sum(s)``: ``f`` strictly dominates ``sort(s)``.

    The dominating profile returned is the one with the largest strength sum.

    >>> from solver.game.rules import Rules
    >>> two = Rules(position_points=(6, 7))
    >>> weak = Arrangement.parse("As Ks Qs Js 7c | Ts 7d 7h 7s 8c")  # the straight flush split
    >>> dominating_arrangement(weak, two).format(ascii=True)
    '7c 7d 7h 7s 8c | Ts Js Qs Ks As'
    >>> dominating_arrangement(Arrangement.parse("7c 7d 7h 7s 8c"), two)
    Traceback (most recent call last):
        ...
    solver.errors.ArrangementError: the arrangement has 1 packets; the rules need 2
    """
    arrangement.check(rules=rules)
    strengths = arrangement.strengths(rules).astype(np.int64)
    front = cached_frontier(arrangement.cards, rules)
    profiles = front.profiles.astype(np.int64)
    ordered = np.sort(strengths)
    better = (profiles >= ordered).all(axis=1) & (profiles > ordered).any(axis=1)
    if not better.any():
        return None
    candidates = np.flatnonzero(better)
    index = int(candidates[np.argmax(profiles[candidates].sum(axis=1))])
    packets = front.packets(index)  # weakest first
    by_strength = np.argsort(strengths, kind="stable")  # position of the k-th weakest
    rows: list[tuple[int, ...]] = [() for _ in range(rules.n_packets)]
    for k, position in enumerate(by_strength.tolist()):
        rows[position] = tuple(int(c) for c in packets[k])
    return Arrangement(tuple(rows))
