"""The ``house --mixed`` use case: the mixed house rule's layouts of a holding, measured exactly.

The mixed rule (:data:`solver.models.mixed_house.MIXED_HOUSE_RULE`) names a
house rule per die face.  The answer lists each variant's layout of the
holding with its probability, the layout of a given roll, and the mixture's
exact figures on the deal (:func:`solver.analysis.mixed_house.mixture_figures`):
the margin an opponent who knows the rule and the cards takes from it, and its
loss against the equilibrium, next to the deterministic house rule's.

>>> from solver.app.requests import holdings
>>> from solver.game.rules import Rules
>>> rules = Rules()
>>> answer = mixed_house(MixedHouseRequest(holdings(None, None, 3, rules), rules, roll=2))
>>> answer.document["format"], answer.document["roll"]["face"]
('quintet-house-mixed/1', 2)
>>> mixed_house(MixedHouseRequest(holdings(None, None, 3, rules), rules, roll=9))
Traceback (most recent call last):
    ...
solver.errors.QuintetError: face: 9 is not a face of a 6-sided die
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.analysis.mixed_house import mixture_figures
from solver.app.answers import Answer, answer_of
from solver.app.report import Output, display_order
from solver.app.report_book import source_report
from solver.app.requests import DEFAULT_BOOK, BookChoice, Holdings
from solver.app.solving import book_notices, source_of
from solver.app.text import say
from solver.equilibria.payoff import Payoff
from solver.game.arrangement import Arrangement
from solver.game.cards import format_cards
from solver.game.payloads import arrangement_payload, cards_payload, rules_payload
from solver.game.rules import Rules
from solver.models.house import house_arrangement, house_rule
from solver.models.mixed_house import MIXED_HOUSE_RULE, mixed_house_mixture
from solver.models.mixture import Mixture
from solver.util.language import Lang, Phrase

__all__ = ["MixedHouseRequest", "mixed_house"]

_WORDS = {
    "title": Phrase("mixed house rule", "смешанное домашнее правило"),
    "layouts": Phrase("your layouts", "ваши раскладки"),
    "roll": Phrase("the die shows {face}: play", "на кубике {face}: играйте"),
    "exploitability": Phrase(
        "exploitability (an opponent who knows the rule and the cards takes): "
        "{mixed} points a game; the house rule alone: {house}",
        "эксплуатируемость (соперник, знающий правило и карты, получает): "
        "{mixed} очка за игру; одно домашнее правило: {house}",
    ),
    "loss": Phrase(
        "equilibrium loss: {mixed} points a game; the house rule alone: {house}",
        "потеря против равновесия: {mixed} очка за игру; одно домашнее правило: {house}",
    ),
}


@dataclass(frozen=True)
class MixedHouseRequest:
    """The mixed rule's layouts of ``holdings.mine`` (and of die face ``roll``, when given)."""

    holdings: Holdings
    rules: Rules
    roll: int | None = None
    time_limit: float | None = None
    book: BookChoice = DEFAULT_BOOK


def _points(value: float) -> str:
    return f"{value:.2f}"


def _layout(arrangement: Arrangement, lang: Lang | str) -> str:
    return " | ".join(format_cards(p, lang=lang) for p in arrangement.packets)


@dataclass(frozen=True)
class _Measured:
    """A request's layouts and exact figures."""

    layouts: tuple[Arrangement, ...]  # one per variant
    rolled: Arrangement | None
    figures: dict[str, float]


def _document(request: MixedHouseRequest, measured: _Measured) -> dict[str, Any]:
    holdings, rules, mixed = request.holdings, request.rules, MIXED_HOUSE_RULE
    variants = zip(mixed.variants, mixed.probabilities, measured.layouts, strict=True)
    return {
        "seed": holdings.seed if holdings.dealt else None,
        "dealt": holdings.dealt,
        "holding": cards_payload(display_order(holdings.mine)),
        "opponent_holding": cards_payload(display_order(holdings.theirs)),
        "rules": rules_payload(rules),
        "sides": mixed.sides,
        "rule": mixed.describe(),
        "variants": [
            {
                "faces": list(v.faces),
                "probability": str(p),
                "rule": v.rule.describe(),
                "arrangement": arrangement_payload(a),
            }
            for v, p, a in variants
        ],
        "roll": None
        if measured.rolled is None
        else {"face": request.roll, "arrangement": arrangement_payload(measured.rolled)},
        **measured.figures,
    }


def _lines(request: MixedHouseRequest, measured: _Measured, lang: Lang | str) -> list[str]:
    holdings, rules, mixed = request.holdings, request.rules, MIXED_HOUSE_RULE
    lines = []
    if holdings.dealt:
        lines.append(
            f"{say('deal', lang)}: {say('seed', lang)} {holdings.seed}, "
            f"{say(rules.discard_mode.value, lang)}"
        )
    lines.append(f"{say('you', lang)}: {format_cards(display_order(holdings.mine), lang=lang)}")
    if holdings.theirs != holdings.mine:
        theirs = format_cards(display_order(holdings.theirs), lang=lang)
        lines.append(f"{say('opponent', lang)}: {theirs}")
    lines.append(f"{_WORDS['title'].text(lang)}: {mixed.describe(lang)}")
    lines.append(f"{_WORDS['layouts'].text(lang)}:")
    for variant, layout in zip(mixed.variants, measured.layouts, strict=True):
        lines.append(f"  {','.join(str(f) for f in variant.faces)}: {_layout(layout, lang)}")
    if measured.rolled is not None:
        rolled = _layout(measured.rolled, lang)
        lines.append(f"{_WORDS['roll'].text(lang).format(face=request.roll)} {rolled}")
    f = measured.figures
    for key, mixed_key, house_key in (
        ("exploitability", "exploitability", "house_exploitability"),
        ("loss", "equilibrium_loss", "house_equilibrium_loss"),
    ):
        words = _WORDS[key].text(lang)
        lines.append(words.format(mixed=_points(f[mixed_key]), house=_points(f[house_key])))
    return lines


def mixed_house(request: MixedHouseRequest) -> Answer:
    """The mixed rule's layouts and figures on the request's deal.

    Raises
    ------
    QuintetError
        For a roll that is no face of the die, or rules of another number of packets.
    """
    holdings, rules, mixed = request.holdings, request.rules, MIXED_HOUSE_RULE
    rolled = None
    if request.roll is not None:  # checked before any solve
        rolled = house_arrangement(holdings.mine, rules, mixed.rule_for(request.roll))
    mixture = mixed_house_mixture(holdings.mine, rules, mixed)
    layouts = tuple(house_arrangement(holdings.mine, rules, v.rule) for v in mixed.variants)
    source = source_of(request.book, time_limit=request.time_limit)
    equilibrium = source(holdings.mine, holdings.theirs, rules, Payoff.MARGIN)
    house = house_arrangement(holdings.mine, rules, house_rule(rules.n_packets))
    common = (holdings.theirs, rules, equilibrium.value, equilibrium.gap, equilibrium.column)
    mixed_exploitability, mixed_loss = mixture_figures(mixture, *common)
    house_exploitability, house_loss = mixture_figures(Mixture((house,), (1.0,)), *common)
    figures = {
        "game_value": round(equilibrium.value, 9) + 0.0,  # + 0.0: no -0.0
        "certificate_gap": equilibrium.gap,
        "exploitability": mixed_exploitability,
        "equilibrium_loss": mixed_loss,
        "house_exploitability": house_exploitability,
        "house_equilibrium_loss": house_loss,
    }
    measured = _Measured(layouts, rolled, figures)
    document = _document(request, measured)
    known = bool(source.from_book(holdings.mine, holdings.theirs, rules, Payoff.MARGIN))

    def report(lang: Lang | str) -> Output:
        text = "\n".join(_lines(request, measured, lang))
        return source_report(Output(text, document), source.path, known, source.stores, lang)

    return answer_of(report, book_notices(source), kind="house-mixed")
