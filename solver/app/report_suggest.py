"""Reports of best responses (``suggest``); equilibria are :mod:`solver.app.report_equilibrium`.

>>> describe_status(True, 0.0, "en")
'proven optimal'
>>> describe_status(False, 0.25, "en")
'best found, not proven optimal (gap 0.25)'
>>> describe_status(True, -2.2e-16, "en"), describe_status(True, 0.000339, "en")[:38]
('proven optimal', 'proven optimal up to the rounding of t')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

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
from solver.game.arrangement import Arrangement
from solver.game.cards import format_cards
from solver.game.evaluator import category
from solver.game.rules import Rules
from solver.models.opponents import Objective
from solver.response.best_response import BestResponse
from solver.response.frontier_top import TopProgress
from solver.response.results import STOPPED, TIME_LIMIT_REACHED
from solver.util.json_text import clean_number
from solver.util.language import Lang, Phrase, language

__all__ = [
    "SuggestContext",
    "describe_status",
    "heading_lines",
    "suggest_report",
    "top_progress_line",
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
    (
        re.compile(re.escape(STOPPED)),
        Phrase(STOPPED, "остановлено по Ctrl-C: лучшая найденная, оптимальность не доказана"),
    ),
    (
        re.compile(re.escape(TIME_LIMIT_REACHED)),
        Phrase(
            TIME_LIMIT_REACHED,
            "время вышло: лучшая найденная, оптимальность не доказана",
        ),
    ),
    (
        re.compile(r"found by CP-SAT below a better arrangement"),
        Phrase(
            "found by CP-SAT below a better arrangement",
            "найдена CP-SAT среди раскладок слабее лучшей",
        ),
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


# The opponent models' descriptions (solver.play.registry, solver.app.suggesting), in words.
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
    """'proven optimal' (gap 0), proven up to the mixture's rounding, or the best found, with the gap.

    A CP-SAT optimum against a mixture is proven on probabilities rounded to integer
    weights: its gap is that rounding's effect, and the status says so.
    """
    gap = clean_number(gap)
    if optimal and gap <= 0:
        return say("optimal", lang)
    if optimal:
        return f"{say('optimal_rounded', lang)} ({say('gap', lang)} {gap:.3g})"
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


def heading_lines(context: SuggestContext, lang: Lang | str, *, show_cards: bool) -> list[str]:
    """The report's first lines: the deal (when dealt) and, if asked, both holdings."""
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
        "value": clean_number(result.value),
        "bound": clean_number(result.bound),
        "gap": clean_number(result.gap),
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
                "win": clean_number(p.win),
                "tie": clean_number(p.tie),
                "loss": clean_number(p.loss),
                "expected_points": clean_number(p.expected_points),
                "expected_margin": clean_number(p.expected_margin),
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
    lines = heading_lines(context, lang, show_cards=context.dealt)
    lines.append(
        f"{say('objective', lang)}: {objective_text(best.objective, lang)}; "
        f"{say('against', lang)}: {against_text(context.against, lang)}"
    )
    lines.extend(table_lines(_position_rows(best, context.rules, lang)))
    lines.extend(_verdict_lines(best, lang))
    for rank, other in enumerate(results[1:], start=2):
        value, behind = clean_number(other.value), clean_number(other.value - best.value)
        lines.append(f"#{rank}: {value:.6g} ({behind:+.4g}): {other.arrangement.format(lang=lang)}")
        if not other.proven_optimal or other.gap > 0:
            lines.append(f"    {describe_status(other.proven_optimal, other.gap, lang)}")
            if other.note:
                lines.append(f"    ({note_text(other.note, lang)})")
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
    value, bound = clean_number(best.value), clean_number(best.bound)
    lines = [f"{say('value', lang)}: {value:.6g} ({say('bound', lang)} {bound:.6g})"]
    if best.estimate is not None:
        lines.append(
            f"  {say('fresh_samples', lang).format(n=best.estimate.n_samples)}: "
            f"{clean_number(best.estimate.mean):.4f} "
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


_TOP_ESTIMATE = Phrase(
    "top {k}: {strategies} frontier strategies valued in {seconds:.1f} s; then CP-SAT searches "
    "below each arrangement found ({limit})",
    "лучшие {k}: оценено стратегий на парето-фронте: {strategies} за {seconds:.1f} с; дальше "
    "CP-SAT ищет среди раскладок слабее каждой найденной ({limit})",
)
_TOP_PROGRESS = Phrase(
    "top {k}: {found} of {k} found, {searches} CP-SAT models solved, {seconds:.1f} s ({limit})",
    "лучшие {k}: найдено {found} из {k}, решено моделей CP-SAT: {searches}, {seconds:.1f} с ({limit})",
)
_TOP_LIMIT = Phrase("at most {limit:g} s", "не дольше {limit:g} с")
_NO_LIMIT = Phrase("no time limit", "без ограничения времени")


def top_progress_line(progress: TopProgress, lang: Lang | str, *, estimate: bool = False) -> str:
    """A search for the ``k`` best arrangements: its estimate (before CP-SAT runs) or its progress.

    >>> from solver.response.frontier_top import TopProgress
    >>> top_progress_line(TopProgress(1, 2, 43860, 3, 4.25, 60.0), "en")
    'top 2: 1 of 2 found, 3 CP-SAT models solved, 4.2 s (at most 60 s)'
    >>> top_progress_line(None, "en")
    Traceback (most recent call last):
        ...
    AttributeError: 'NoneType' object has no attribute 'time_limit'
    """
    limit = (
        _NO_LIMIT.text(lang)
        if progress.time_limit is None
        else _TOP_LIMIT.text(lang).format(limit=progress.time_limit)
    )
    phrase = _TOP_ESTIMATE if estimate else _TOP_PROGRESS
    return phrase.text(lang).format(
        k=progress.k,
        found=progress.found,
        strategies=progress.strategies,
        searches=progress.searches,
        seconds=progress.seconds,
        limit=limit,
    )
