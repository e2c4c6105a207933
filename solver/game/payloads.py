"""The game's values as JSON: ASCII card codes, arrangements as lists, the rules as an object.

Every JSON document the project writes (``--json``, mixture files, CSV
metadata) spells cards, arrangements and rules this way.

>>> cards_payload([31, 12])
['As', 'Tc']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from solver.game.arrangement import Arrangement
from solver.game.cards import format_cards
from solver.game.rules import Rules

__all__ = ["arrangement_payload", "cards_payload", "rules_payload"]


def cards_payload(cards: Iterable[int]) -> list[str]:
    """ASCII codes of cards, for JSON.

    >>> cards_payload([31, 12])
    ['As', 'Tc']
    """
    return format_cards(cards, ascii=True).split()


def arrangement_payload(arrangement: Arrangement) -> list[list[str]]:
    """An arrangement for JSON: a list of packets of ASCII codes."""
    return [cards_payload(packet) for packet in arrangement.packets]


def rules_payload(rules: Rules) -> dict[str, Any]:
    """The rules for JSON."""
    return {
        "position_points": list(rules.position_points),
        "discard_mode": rules.discard_mode.value,
        "ace_low_straight": rules.ace_low_straight,
        "flush_beats_full_house": rules.flush_beats_full_house,
    }
