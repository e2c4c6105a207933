"""Reports for the command line: a text for people and a JSON payload.

Each ``*_report`` function takes library results and returns an
:class:`Output`; the command line prints ``text``, or ``payload`` as JSON
with ``--json``.  JSON always uses ASCII card codes (``As Th 7c``).

>>> out = hand_report((31, 27, 23, 19, 15), Rules(), "en")
>>> out.text
'A♠ K♠ Q♠ J♠ 10♠: straight flush (strength 839 of 839)'
>>> out.payload["format"], out.payload["category"], out.payload["cards"][:2]
('quintet-eval/1', 'straight_flush', ['As', 'Ks'])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.app.text import say
from solver.game.arrangement import Arrangement, Score
from solver.game.cards import format_cards
from solver.game.deal import Deal
from solver.game.evaluator import category, strength
from solver.game.payloads import arrangement_payload, cards_payload, rules_payload
from solver.game.ranking import ranking
from solver.game.rules import Category, Rules
from solver.schemas import versioned
from solver.util.language import Lang

__all__ = [
    "Output",
    "arrangement_payload",
    "cards_payload",
    "deal_report",
    "display_order",
    "hand_report",
    "packet_order",
    "rules_payload",
    "score_report",
    "table_lines",
]


@dataclass(frozen=True)
class Output:
    """What a command prints: ``text`` for people, ``payload`` for ``--json``."""

    text: str
    payload: dict[str, Any]


def display_order(cards: Iterable[int]) -> list[int]:
    """Cards sorted for display: highest rank first, then ♠ ♥ ♦ ♣.

    >>> display_order([0, 31, 4])
    [31, 4, 0]
    """
    return sorted((int(c) for c in cards), reverse=True)


def packet_order(cards: Iterable[int]) -> list[int]:
    """A packet sorted for display: its combination first (larger groups, higher ranks).

    >>> format_cards(packet_order([27, 14, 6, 5, 4]))
    '8♥ 8♦ 8♣ K♠ 10♥'
    """
    cards = [int(c) for c in cards]
    count = {rank: sum(1 for c in cards if c >> 2 == rank) for rank in {c >> 2 for c in cards}}
    return sorted(cards, key=lambda c: (count[c >> 2], c >> 2, c & 3), reverse=True)


def category_name(value: int, lang: Lang | str) -> str:
    """Name of a :class:`Category` value in ``lang``."""
    return Category(int(value)).name_in(lang)


def hand_report(cards: Sequence[int], rules: Rules, lang: Lang | str) -> Output:
    """Combination and strength of one five-card hand."""
    hand = np.array(cards)
    value = int(strength(hand, rules))
    kind = Category(int(category(hand, rules)))
    top = ranking(rules).n_strengths - 1
    text = (
        f"{format_cards(cards, lang=lang)}: {kind.name_in(lang)} "
        f"({say('strength', lang)} {value} {say('of', lang)} {top})"
    )
    payload = {
        "cards": cards_payload(cards),
        "category": kind.name.lower(),
        "category_name": kind.english,
        "strength": value,
        "max_strength": top,
        "rules": rules_payload(rules),
    }
    return Output(text, versioned("eval", payload))


def deal_report(deal: Deal, lang: Lang | str) -> Output:
    """The turned-up cards and both holdings of a deal."""
    mode = say(deal.rules.discard_mode.value, lang)
    seed = "-" if deal.seed is None else str(deal.seed)
    lines = [
        f"{say('deal', lang)} ({say('seed', lang)} {seed}, {mode}); "
        f"{say('dealer', lang)}: {say('player', lang)} {deal.dealer + 1}"
    ]
    for player in (0, 1):
        exposed = format_cards(display_order(deal.exposed[player]), lang=lang)
        lines.append(f"{say('player', lang)} {player + 1} {say('turned_up', lang)}: {exposed}")
    for player in (0, 1):
        held = format_cards(display_order(deal.holdings[player]), lang=lang)
        lines.append(f"{say('player', lang)} {player + 1} {say('holds', lang)}: {held}")
    payload = {
        "seed": deal.seed,
        "dealer": deal.dealer + 1,
        "cuts": list(deal.cuts),
        "exposed": [cards_payload(display_order(e)) for e in deal.exposed],
        "holdings": [cards_payload(display_order(h)) for h in deal.holdings],
        "rules": rules_payload(deal.rules),
    }
    return Output("\n".join(lines), versioned("deal", payload))


def table_lines(rows: list[list[str]]) -> list[str]:
    """Rows of cells as left-aligned columns.

    >>> table_lines([["a", "bb"], ["ccc", "d"]])
    ['a    bb', 'ccc  d']
    """
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]


def score_report(
    a: Arrangement, b: Arrangement, result: Score, rules: Rules, lang: Lang | str
) -> Output:
    """Position-by-position comparison of two arrangements."""
    kinds_a = category(a.array(), rules)
    kinds_b = category(b.array(), rules)
    word = {1: say("win", lang), 0: say("tie", lang), -1: say("loss", lang)}
    rows = [
        [
            say("position", lang),
            say("points", lang),
            f"{say('player', lang)} 1",
            "",
            f"{say('player', lang)} 2",
            "",
            say("result", lang),
        ]
    ]
    for i in range(rules.n_packets):
        rows.append(
            [
                str(i + 1),
                str(rules.position_points[i]),
                format_cards(a.packets[i], lang=lang),
                category_name(kinds_a[i], lang),
                format_cards(b.packets[i], lang=lang),
                category_name(kinds_b[i], lang),
                word[int(result.outcomes[i])],
            ]
        )
    lines = table_lines(rows)
    points_a, points_b = result.points
    if result.margin > 0:
        verdict = f"{say('player', lang)} 1 {say('wins_by', lang)} {result.margin}"
    elif result.margin < 0:
        verdict = f"{say('player', lang)} 2 {say('wins_by', lang)} {-result.margin}"
    else:
        verdict = say("draw", lang)
    lines.append(f"{say('total', lang)}: {points_a} : {points_b} — {verdict}")
    payload = {
        "arrangements": [arrangement_payload(a), arrangement_payload(b)],
        "outcomes": [int(o) for o in result.outcomes],
        "points": list(result.points),
        "margin": result.margin,
        "result": result.result.value,
        "rules": rules_payload(rules),
    }
    return Output("\n".join(lines), versioned("score", payload))
