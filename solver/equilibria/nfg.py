"""Gambit export: the support game of an equilibrium in Gambit's ``.nfg`` format.

:func:`nfg_text` writes the game both players' equilibrium supports span:
player 1's support arrangements against player 2's, each cell the two
players' exact payoffs.  It is the part of the game the equilibrium lives
in (the strategies outside the supports are best responded to by the
certificate, :mod:`solver.equilibria.certificate`): the result's strategies
are an equilibrium of it as much as of the whole game, and its value lies in
the result's certified ``[lower, upper]``.

The file is Gambit's strategic-game format, version 1 with rational numbers
(``NFG 1 R``), in the form with strategy labels::

    NFG 1 R "title" { "Player 1" "Player 2" }
    { { "r1 label" "r2 label" ... } { "c1 label" ... } }
    "comment"

    u1(r1, c1) u2(r1, c1) u1(r2, c1) u2(r2, c1) ... u1(rn, cm) u2(rn, cm)

with player 1's strategy varying fastest.  Payoffs are exact: the margin
payoff's points are integers (player 2 is paid ``-u``), the win payoff's
1, 1/2 and 0 are written as the rationals ``1``, ``1/2``, ``0`` (player 2 is
paid ``1 - u``).  Labels are the arrangements in ASCII card codes, packets
separated by ``|``.

>>> from solver.equilibria.equilibrium import solve
>>> from solver.game.deal import deal
>>> from solver.game.rules import Rules
>>> rules = Rules(position_points=(6, 7))
>>> d = deal(seed=4, rules=rules)
>>> text = nfg_text(solve(*d.holdings, rules, "win"))
>>> text.splitlines()[0]
'NFG 1 R "Quintet support game (win payoff)" { "Player 1" "Player 2" }'
>>> nfg_text(solve(*d.holdings, rules), title='say "hi"')
Traceback (most recent call last):
    ...
solver.errors.SolverError: title: must not contain a double quote
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from solver.equilibria.payoff import Payoff
from solver.errors import SolverError
from solver.game.arrangement import Arrangement, points_against
from solver.game.payloads import cards_payload, rules_payload
from solver.game.rules import Rules
from solver.models.mixture import Mixture
from solver.version import __version__

if TYPE_CHECKING:
    from solver.equilibria.equilibrium import EquilibriumResult

__all__ = ["nfg_text", "support", "support_payoffs"]


def support(mixture: Mixture) -> tuple[Arrangement, ...]:
    """The arrangements ``mixture`` plays with positive probability, in its order.

    >>> a = Arrangement.parse("As Ks Qs Js Ts | Ah Kh Qh Jh Th")
    >>> b = Arrangement.parse("Ah Kh Qh Jh Th | As Ks Qs Js Ts")
    >>> support(Mixture((a, b), (1.0, 0.0))) == (a,)
    True
    """
    return tuple(
        a for a, p in zip(mixture.arrangements, mixture.probabilities, strict=True) if p > 0
    )


def support_payoffs(
    rows: tuple[Arrangement, ...], columns: tuple[Arrangement, ...], rules: Rules, payoff: Payoff
) -> list[list[Fraction]]:
    """Player 1's exact payoff of each row arrangement against each column arrangement.

    Margin: points scored minus conceded (an integer); win: 1, 1/2 or 0.

    >>> a = Arrangement.parse("As Ks Qs Js Ts")
    >>> b = Arrangement.parse("Ah Kh Qh Jh Th")
    >>> support_payoffs((a,), (b,), Rules(position_points=(7,)), Payoff.GAME_RESULT)
    [[Fraction(1, 2)]]
    >>> support_payoffs((), (b,), Rules(position_points=(7,)), Payoff.GAME_RESULT)
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: rows: the support game needs strategies on both sides
    """
    if not rows or not columns:
        raise SolverError("rows: the support game needs strategies on both sides", argument="rows")
    mine = np.array([a.strengths(rules) for a in rows], dtype=np.int64)
    theirs = np.array([a.strengths(rules) for a in columns], dtype=np.int64)
    scored, conceded = points_against(mine[:, None, :], theirs[None, :, :], rules)
    margins = (scored - conceded).tolist()
    if payoff is Payoff.MARGIN:
        return [[Fraction(int(m)) for m in line] for line in margins]
    return [[Fraction(1 + (m > 0) - (m < 0), 2) for m in line] for line in margins]


def _label(arrangement: Arrangement) -> str:
    return " | ".join(" ".join(cards_payload(packet)) for packet in arrangement.packets)


def _comment(result: EquilibriumResult, rows: tuple[Arrangement, ...]) -> str:
    rules = rules_payload(result.rules)
    return (
        f"quintet-solver {__version__}: the game spanned by the equilibrium supports; "
        f"payoff {result.payoff.value}; position points {rules['position_points']}, "
        f"discard mode {rules['discard_mode']}, ace-low straight {rules['ace_low_straight']}, "
        f"flush beats full house {rules['flush_beats_full_house']}; "
        f"player 1 holds {' '.join(cards_payload(sorted(rows[0].cards)))}"
    )


def nfg_text(result: EquilibriumResult, title: str | None = None) -> str:
    """The support game of ``result`` as a Gambit ``.nfg`` file (see the module docstring).

    Parameters
    ----------
    result
        An equilibrium (or the best strategies found).
    title
        The game's title (default: names the payoff); no double quotes.

    Returns
    -------
    str
        The file's text, ending with a newline.

    Raises
    ------
    SolverError
        When ``title`` contains a double quote.
    """
    if title is None:
        title = f"Quintet support game ({result.payoff.value} payoff)"
    if '"' in title:
        raise SolverError("title: must not contain a double quote", argument="title")
    rows, columns = support(result.row), support(result.column)
    table = support_payoffs(rows, columns, result.rules, result.payoff)
    total = Fraction(0 if result.payoff is Payoff.MARGIN else 1)
    cells = [
        f"{table[i][j]} {total - table[i][j]}"
        for j in range(len(columns))
        for i in range(len(rows))  # player 1's strategy varies fastest
    ]
    labels = ["{ " + " ".join(f'"{_label(a)}"' for a in side) + " }" for side in (rows, columns)]
    return (
        f'NFG 1 R "{title}" {{ "Player 1" "Player 2" }}\n'
        f"{{ {labels[0]}\n  {labels[1]} }}\n"
        f'"{_comment(result, rows)}"\n\n' + "\n".join(cells) + "\n"
    )
