"""Reports of equilibria (``equilibrium``): the certificate and both strategies.

>>> _PAYOFF_TEXT[Payoff.GAME_RESULT].text("en")
'1 for more points, 1/2 for equal, 0 for fewer'
"""

from __future__ import annotations

from typing import Any

from solver.app.report import Output, cards_payload, display_order, packet_order, rules_payload
from solver.app.report_suggest import SuggestContext, heading_lines
from solver.app.text import say
from solver.equilibria.equilibrium import EquilibriumResult, Payoff
from solver.game.arrangement import Arrangement
from solver.game.cards import format_cards
from solver.game.suits import automorphisms
from solver.models.mixture import Mixture
from solver.util.language import Lang, Phrase

__all__ = ["equilibrium_payload", "equilibrium_report", "mixture_lines"]

_PAYOFF_TEXT = {
    Payoff.MARGIN: Phrase("points scored minus points conceded", "набранные минус отданные очки"),
    Payoff.GAME_RESULT: Phrase(
        "1 for more points, 1/2 for equal, 0 for fewer",
        "1 за победу, 1/2 за ничью, 0 за поражение",
    ),
}


def mixture_lines(mixture: Mixture, lang: Lang | str, limit: int, ranges: tuple = ()) -> list[str]:
    order = sorted(range(len(mixture.arrangements)), key=lambda i: -mixture.probabilities[i])

    def spread(i: int) -> str:
        # Where another optimal strategy puts this arrangement (if it may differ).
        found = ranges[i] if i < len(ranges) else None
        if found is None or found[1] - found[0] <= 1e-6:
            return ""
        return say("optimal_range", lang).format(
            low=f"{100 * found[0]:.2f}", high=f"{100 * found[1]:.2f}"
        )

    lines = [
        f"  {100 * mixture.probabilities[i]:6.2f}%  "
        f"{_arrangement_text(mixture.arrangements[i], lang)}{spread(i)}"
        for i in order[:limit]
    ]
    if len(order) > limit:
        rest = sum(mixture.probabilities[i] for i in order[limit:])
        lines.append(f"  {100 * rest:6.2f}%  {say('more', lang).format(n=len(order) - limit)}")
    return lines


def _arrangement_text(arrangement: Arrangement, lang: Lang | str) -> str:
    return " | ".join(format_cards(packet_order(p), lang=lang) for p in arrangement.packets)


def equilibrium_payload(result: EquilibriumResult, context: SuggestContext) -> dict[str, Any]:
    """The ``equilibrium --json`` document: the deal, the certificate and both strategies."""
    return {
        "seed": context.seed,
        "dealt": context.dealt,
        "holding": cards_payload(display_order(context.mine)),
        "opponent_holding": cards_payload(display_order(context.theirs)),
        "rules": rules_payload(context.rules),
        "payoff": result.payoff.value,
        "value": result.value,
        "lower": result.lower,
        "upper": result.upper,
        "gap": result.gap,
        "exploitability_percent": result.exploitability_percent,
        "converged": result.converged,
        "iterations": result.iterations,
        "seconds": result.seconds,
        "frontier_strategies": list(result.frontier_sizes),
        "strategy": result.row.to_dict(),
        "opponent_strategy": result.column.to_dict(),
        "canonical": result.canonical,
        "suit_automorphisms": _automorphisms(context),
        "strategy_ranges": [None if r is None else list(r) for r in result.row_ranges],
        "opponent_strategy_ranges": [None if r is None else list(r) for r in result.column_ranges],
        "history": [
            [r.iteration, r.row_strategies, r.column_strategies, r.lower, r.upper, r.seconds]
            for r in result.history
        ],
    }


def _certificate_lines(
    result: EquilibriumResult, lang: Lang | str, symmetric: bool, from_book: bool
) -> list[str]:
    """The payoff, the game value, the certified exploitability and the work done."""
    margin = result.payoff is Payoff.MARGIN
    exact = (
        say("exact_by_symmetry", lang)
        if symmetric
        else say("certified_in", lang).format(
            lower=f"{result.lower:.6g}", upper=f"{result.upper:.6g}"
        )
    )
    status = say("converged" if result.converged else "stopped", lang)
    work = (
        f"{say('iterations', lang)}: {result.iterations}, {status}; "
        f"{say('time', lang)} {result.seconds:.2f} s"
    )
    if from_book:  # nothing was iterated now: the figures are those of the stored solve
        work = say("from_book_earlier", lang).format(work=work.replace(";", ","))
    payoff = say("payoff_line", lang).format(
        name=say("payoff_margin" if margin else "payoff_win", lang),
        text=_PAYOFF_TEXT[result.payoff].text(lang),
    )
    certified = say("certified_exploitability", lang).format(
        gap=f"{result.gap:.3g}",
        unit=say("unit_points" if margin else "unit_probability", lang),
        percent=f"{result.exploitability_percent:.4f}",
        whole=say("whole_points" if margin else "whole_game", lang),
    )
    return [
        payoff,
        f"{say('game_value', lang)}: {result.value:.6g}{exact}",
        certified,
        f"{work}; {say('frontier_strategies', lang)} {result.frontier_sizes[0]:,}"
        + ("" if symmetric else f" / {result.frontier_sizes[1]:,}"),
    ]


def _automorphisms(context: SuggestContext) -> int:
    """How many relabellings of the suits leave the deal unchanged (1: only the identity)."""
    return len(automorphisms(context.mine, context.theirs))


def _choice_lines(
    result: EquilibriumResult, context: SuggestContext, lang: Lang | str
) -> list[str]:
    """Which of the optimal strategies is shown (equilibria need not be unique)."""
    if not result.canonical:
        return [say("choice_found", lang)]
    # Unknown (None) when no ranges were computed (stores and grades do not ask for them).
    unique = {True: "this_unique", False: "this_not_unique", None: None}[result.unique]
    lines = [
        say("choice_canonical", lang).format(unique="" if unique is None else say(unique, lang))
    ]
    # The vertex is averaged over the deal's automorphisms (solver.equilibria.frontier_game):
    # said, since the strategies then hold more arrangements than the vertex's support.
    if (count := _automorphisms(context)) > 1:
        lines.append(say("choice_symmetrized", lang).format(n=count))
    return lines


def equilibrium_report(
    result: EquilibriumResult,
    context: SuggestContext,
    lang: Lang | str,
    limit: int = 10,
    *,
    from_book: bool = False,
) -> Output:
    """Game value, certificate and the equilibrium strategies.

    ``from_book``: the result was looked up, not solved now; its iterations
    and seconds are those of the solve that stored it, and it has no history.
    """
    symmetric = context.theirs == context.mine
    lines = heading_lines(context, lang, show_cards=True)
    lines.extend(_certificate_lines(result, lang, symmetric, from_book))
    lines.extend(_choice_lines(result, context, lang))
    lines.append(say("your_strategy", lang).format(n=len(result.row.arrangements)))
    lines.extend(mixture_lines(result.row, lang, limit, result.row_ranges))
    if not symmetric:
        lines.append(say("opponent_strategy", lang).format(n=len(result.column.arrangements)))
        lines.extend(mixture_lines(result.column, lang, limit, result.column_ranges))
    return Output("\n".join(lines), equilibrium_payload(result, context))
