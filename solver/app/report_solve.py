"""Reports of solver results: best responses (``suggest``) and equilibria.

>>> describe_status(True, 0.0, "en")
'proven optimal'
>>> describe_status(False, 0.25, "en")
'feasible, not proven optimal (gap 0.25)'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from solver.app.report import (
    Output,
    arrangement_payload,
    cards_payload,
    category_name,
    display_order,
    packet_order,
    rules_payload,
    table_lines,
)
from solver.app.text import say
from solver.equilibria.frontier_game import Payoff
from solver.game.arrangement import Arrangement
from solver.game.cards import format_cards
from solver.game.evaluator import category
from solver.game.rules import Rules
from solver.models.mixture import Mixture
from solver.models.opponents import Objective
from solver.response.best_response import BestResponse
from solver.util.language import Lang, Phrase, language

if TYPE_CHECKING:  # the reports take results; suggest's start-up need not import the solver
    from solver.equilibria.equilibrium import EquilibriumResult

__all__ = [
    "SuggestContext",
    "describe_status",
    "equilibrium_payload",
    "equilibrium_report",
    "suggest_report",
]

# A position counts as conceded when the packet there wins less often than this.
CONCEDE_BELOW = 0.05

_OBJECTIVE_TEXT = {
    Objective.POINTS: Phrase("expected points scored", "ожидаемые набранные очки"),
    Objective.MARGIN: Phrase(
        "expected margin (points scored minus conceded)",
        "ожидаемый перевес (набранные минус отданные очки)",
    ),
    Objective.WIN_PROBABILITY: Phrase(
        "probability of winning the game", "вероятность выиграть партию"
    ),
    Objective.GAME_RESULT: Phrase(
        "expected result (win 1, draw 1/2, loss 0)",
        "ожидаемый итог (выигрыш 1, ничья 1/2, проигрыш 0)",
    ),
}


def objective_text(objective: Objective, lang: Lang | str) -> str:
    """What an objective measures, in words.

    >>> objective_text(Objective.WIN_PROBABILITY, "ru")
    'вероятность выиграть партию'
    """
    return _OBJECTIVE_TEXT[objective].text(lang)


_PAYOFF_TEXT = {
    Payoff.MARGIN: Phrase("points scored minus points conceded", "набранные минус отданные очки"),
    Payoff.GAME_RESULT: Phrase(
        "1 for more points, 1/2 for equal, 0 for fewer",
        "1 за победу, 1/2 за ничью, 0 за поражение",
    ),
}


# The notes best responses carry (solver.response), in words: English as they come.
_NOTES = (
    (
        re.compile(r"best of (?P<n>\d+) frontier strategies"),
        Phrase("best of {n} frontier strategies", "лучшая из {n} стратегий на парето-фронте"),
    ),
    (
        re.compile(r"optimized against (?P<n>\d+) sampled arrangements"),
        Phrase(
            "optimized against {n} sampled arrangements",
            "оптимизировано против {n} выбранных наугад раскладок",
        ),
    ),
    (
        re.compile(r"the bound allows for the mixture's probabilities rounded to 1e-6"),
        Phrase(
            "the bound allows for the mixture's probabilities rounded to 1e-6",
            "граница учитывает вероятности смеси, округлённые до 1e-6",
        ),
    ),
    (
        re.compile(
            r"sampled from an equilibrium of (?P<n>\d+) arrangements; "
            r"game value (?P<value>\S+), certified gap (?P<gap>\S+)"
        ),
        Phrase(
            "sampled from an equilibrium of {n} arrangements; game value {value}, "
            "certified gap {gap}",
            "выбрана из равновесной стратегии (раскладок: {n}); цена игры {value}, "
            "гарантированный зазор {gap}",
        ),
    ),
    (
        re.compile(r"every packet was fixed"),
        Phrase("every packet was fixed", "все пакеты были заданы"),
    ),
)


def note_text(note: str, lang: Lang | str) -> str:
    """A best response's note in ``lang`` (a note not known here stays as it is).

    >>> note_text("best of 43860 frontier strategies", "ru")
    'лучшая из 43860 стратегий на парето-фронте'
    >>> note_text("something new", "ru")
    'something new'
    """
    for pattern, phrase in _NOTES:
        found = pattern.fullmatch(note)
        if found:
            return phrase.text(lang).format(**found.groupdict())
    return note


# The opponent models' descriptions (solver.play.registry, solver.app.solving), in words.
_EQUILIBRIUM_MODEL = re.compile(r"equilibrium \((?P<payoff>margin|win) payoff\)")
_KNOWN_MODEL = re.compile(r"(?P<name>greedy|house) \((?P<arrangement>[^()]+)\)")
_MIXTURE_MODEL = re.compile(r"(?P<file>.+) \((?P<n>\d+) arrangements\)")


def against_text(against: str, lang: Lang | str) -> str:
    """An opponent model's description in ``lang`` (its name, as typed, stays).

    >>> against_text("equilibrium (win payoff)", "ru"), against_text("random", "ru")
    ('равновесие (платёж «победа»)', 'random')
    >>> against_text("house (7c 7d 7h 7s 8c | 8d 8h 8s 9c 9d)", "ru")
    'house (7♣ 7♦ 7♥ 7♠ 8♣ | 8♦ 8♥ 8♠ 9♣ 9♦)'
    """
    if language(lang) is Lang.EN:
        return against
    if found := _EQUILIBRIUM_MODEL.fullmatch(against):
        return f"равновесие (платёж «{say('payoff_' + found['payoff'], lang)}»)"
    if found := _KNOWN_MODEL.fullmatch(against):
        packets = found["arrangement"].split(" | ")
        arrangement = Arrangement.parse(found["arrangement"], n_packets=len(packets))
        return f"{found['name']} ({arrangement.format(lang=lang)})"
    if found := _MIXTURE_MODEL.fullmatch(against):
        return f"{found['file']} (раскладок: {found['n']})"
    return against


def describe_status(optimal: bool, gap: float, lang: Lang | str) -> str:
    """'proven optimal', or 'feasible ...' with the gap."""
    if optimal and gap <= 1e-9:
        return say("optimal", lang)
    if optimal:
        return f"{say('optimal', lang)} ({say('gap', lang)} {gap:.3g})"
    return f"{say('feasible', lang)} ({say('gap', lang)} {gap:.3g})"


@dataclass(frozen=True)
class SuggestContext:
    """What the user asked, for the report."""

    rules: Rules
    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    seed: int
    dealt: bool
    against: str


def _heading(context: SuggestContext, lang: Lang | str, *, show_cards: bool) -> list[str]:
    """The deal (when dealt) and, if asked, both holdings."""
    lines = []
    if context.dealt:
        lines.append(
            f"{say('deal', lang)}: {say('seed', lang)} {context.seed}, "
            f"{say(context.rules.discard_mode.value, lang)}"
        )
    if show_cards:
        lines.append(f"{say('you', lang)}: {format_cards(display_order(context.mine), lang=lang)}")
        if context.theirs != context.mine:
            lines.append(
                f"{say('opponent', lang)}: {format_cards(display_order(context.theirs), lang=lang)}"
            )
    return lines


def _percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def result_payload(result: BestResponse) -> dict[str, Any]:
    """One best response for JSON."""
    return {
        "arrangement": arrangement_payload(result.arrangement),
        "strengths": list(result.strengths),
        "objective": result.objective.value,
        "value": result.value,
        "bound": result.bound,
        "gap": result.gap,
        "status": result.status.value,
        "seconds": result.seconds,
        "engine": result.engine.value,
        "note": result.note,
        "estimate": None
        if result.estimate is None
        else {
            "mean": result.estimate.mean,
            "stderr": result.estimate.stderr,
            "samples": result.estimate.n_samples,
        },
        "positions": [
            {
                "position": i + 1,
                "win": p.win,
                "tie": p.tie,
                "loss": p.loss,
                "expected_points": p.expected_points,
                "expected_margin": p.expected_margin,
            }
            for i, p in enumerate(result.positions)
        ],
        "concedes": conceded(result),
    }


def conceded(result: BestResponse) -> list[int]:
    """1-based positions whose packet wins less often than ``CONCEDE_BELOW``."""
    return [i + 1 for i, p in enumerate(result.positions) if p.win < CONCEDE_BELOW]


def suggest_report(
    results: Sequence[BestResponse], context: SuggestContext, lang: Lang | str
) -> Output:
    """The best arrangement with per-position figures; runners-up with their cost."""
    best = results[0]
    lines = _heading(context, lang, show_cards=context.dealt)
    lines.append(
        f"{say('objective', lang)}: {objective_text(best.objective, lang)}; "
        f"{say('against', lang)}: {against_text(context.against, lang)}"
    )
    lines.extend(table_lines(_position_rows(best, context.rules, lang)))
    lines.extend(_verdict_lines(best, lang))
    for rank, other in enumerate(results[1:], start=2):
        lines.append(
            f"#{rank}: {other.value:.6g} ({other.value - best.value:+.4g}): "
            f"{other.arrangement.format(lang=lang)}"
        )
    payload = {
        "seed": context.seed,
        "dealt": context.dealt,
        "holding": cards_payload(display_order(context.mine)),
        "opponent_holding": cards_payload(display_order(context.theirs)),
        "against": context.against,
        "rules": rules_payload(context.rules),
        **result_payload(best),
        "runners_up": [result_payload(r) for r in results[1:]],
    }
    return Output("\n".join(lines), payload)


def _position_rows(best: BestResponse, rules: Rules, lang: Lang | str) -> list[list[str]]:
    """One row per position: points, packet, combination and how it fares."""
    words = ("position", "points", "packet", "combination", "win", "tie", "loss")
    rows = [[*(say(word, lang) for word in words), say("expected_points", lang)]]
    kinds = category(best.arrangement.array(), rules)
    for i, packet in enumerate(best.arrangement.packets):
        stats = best.positions[i]
        rows.append(
            [
                str(i + 1),
                str(rules.position_points[i]),
                format_cards(packet_order(packet), lang=lang),
                category_name(kinds[i], lang),
                _percent(stats.win),
                _percent(stats.tie),
                _percent(stats.loss),
                f"{stats.expected_points:.3f}",
            ]
        )
    return rows


def _verdict_lines(best: BestResponse, lang: Lang | str) -> list[str]:
    """Value and bound, the fresh-sample estimate, the proof status, the positions conceded."""
    lines = [f"{say('value', lang)}: {best.value:.6g} ({say('bound', lang)} {best.bound:.6g})"]
    if best.estimate is not None:
        lines.append(
            f"  {say('fresh_samples', lang).format(n=best.estimate.n_samples)}: "
            f"{best.estimate.mean:.4f} "
            f"± {1.96 * best.estimate.stderr:.4f} (95%)"
        )
    lines.append(
        f"{say('status', lang)}: {describe_status(best.proven_optimal, best.gap, lang)}; "
        f"{say('engine', lang)} {say('engine_' + best.engine.value, lang)}; "
        f"{say('time', lang)} {best.seconds:.2f} s"
    )
    if best.note:
        lines.append(f"  ({note_text(best.note, lang)})")
    given_up = conceded(best)
    listed = ", ".join(str(p) for p in given_up) if given_up else say("none", lang)
    lines.append(f"{say('concedes', lang)}: {listed}")
    return lines


def _mixture_lines(mixture: Mixture, lang: Lang | str, limit: int, ranges: tuple = ()) -> list[str]:
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


def _choice_line(result: EquilibriumResult, lang: Lang | str) -> str:
    """Which of the optimal strategies is shown (equilibria need not be unique)."""
    if not result.canonical:
        return say("choice_found", lang)
    # Unknown (None) when no ranges were computed (stores and grades do not ask for them).
    unique = {True: "this_unique", False: "this_not_unique", None: None}[result.unique]
    return say("choice_canonical", lang).format(unique="" if unique is None else say(unique, lang))


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
    lines = _heading(context, lang, show_cards=True)
    lines.extend(_certificate_lines(result, lang, symmetric, from_book))
    lines.append(_choice_line(result, lang))
    lines.append(say("your_strategy", lang).format(n=len(result.row.arrangements)))
    lines.extend(_mixture_lines(result.row, lang, limit, result.row_ranges))
    if not symmetric:
        lines.append(say("opponent_strategy", lang).format(n=len(result.column.arrangements)))
        lines.extend(_mixture_lines(result.column, lang, limit, result.column_ranges))
    return Output("\n".join(lines), equilibrium_payload(result, context))
