"""Reports of grades (``quintet grade``, and the grades shown by ``play`` and ``train``).

>>> from solver.analysis.grade import Verdict
>>> verdict_text(Verdict.MISTAKE, "ru")
'ошибка'
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.analysis.changes import Change
from solver.analysis.grade import Grade, Verdict
from solver.analysis.payloads import grade_payload, likely_arrangements
from solver.app.report import Output, cards_payload, display_order, packet_order, rules_payload
from solver.app.text import say
from solver.game.arrangement import Arrangement
from solver.game.cards import format_cards
from solver.game.rules import Rules
from solver.util.language import Lang

__all__ = ["GradeContext", "grade_lines", "grade_report", "verdict_text"]


@dataclass(frozen=True)
class GradeContext:
    """The deal graded, for the report's heading."""

    rules: Rules
    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    seed: int
    dealt: bool


def verdict_text(verdict: Verdict, lang: Lang | str) -> str:
    """The verdict in words."""
    return say(verdict.value, lang)


def _signed(value: float) -> str:
    """``+1.234``; values that round to zero print as ``+0.000``, never ``-0.000``."""
    return f"{value if abs(value) >= 5e-4 else 0.0:+.3f}"


def _arrangement(arrangement: Arrangement, lang: Lang | str) -> str:
    return " | ".join(format_cards(packet_order(p), lang=lang) for p in arrangement.packets)


def _change_text(change: Change, lang: Lang | str) -> str:
    i, j = change.positions
    move = say(change.kind.value, lang).format(
        i=i,
        j=j,
        given=format_cards(change.given, lang=lang),
        taken=format_cards(change.taken, lang=lang),
    )
    return (
        f"{say('change', lang)}: {move} → {say('new_loss', lang)} "
        f"{change.equilibrium_loss:.3f} ({say('candidates', lang)}: {change.candidates:,}): "
        f"{_arrangement(change.arrangement, lang)}"
    )


def grade_lines(grade: Grade, lang: Lang | str, *, likely: int = 0) -> list[str]:
    """A grade for people: verdict and loss, exploitability, the simple players,
    dominance, the suggested change, and ``likely`` equilibrium arrangements."""
    points = say("points_unit", lang)
    lines = [
        f"{say('verdict', lang)}: {verdict_text(grade.verdict, lang)}; "
        f"{say('equilibrium_loss', lang)} {grade.equilibrium_loss:.3f} {points} "
        f"({say('game_value', lang)} {grade.equilibrium.value:.4g}, "
        f"{say('margin_vs_equilibrium', lang)} {_signed(grade.value)}, "
        f"{say('certified_gap', lang)} {grade.certificate_gap:.2g})"
    ]
    if grade.win_loss is not None:
        lines.append(f"{say('win_loss', lang)}: {grade.win_loss:.4f}")
    lines.append(
        f"{say('exploitability', lang)}: {grade.exploitability:.4g} {points}; "
        f"{say('punished_by', lang)}: {_arrangement(grade.punishing, lang)}"
    )
    for key, value, best in (
        ("against_random", grade.against_random, grade.best_against_random),
        ("against_greedy", grade.against_greedy, grade.best_against_greedy),
    ):
        lines.append(
            f"{say(key, lang)}: {_signed(value)} ({say('best_response', lang)} {_signed(best)}, "
            f"{say('gap', lang)} {max(0.0, best - value):.3f})"
        )
    if grade.dominating is None:
        lines.append(say("not_dominated", lang))
    else:
        lines.append(f"{say('dominated_by', lang)}: {_arrangement(grade.dominating, lang)}")
    if grade.change is not None:
        lines.append(_change_text(grade.change, lang))
    elif grade.equilibrium_loss > 0:
        lines.append(f"{say('change', lang)}: {say('no_change', lang)}")
    if likely:
        lines.append(f"{say('equilibrium_plays', lang)}:")
        lines.extend(
            f"  {100 * p:6.2f}%  {_arrangement(a, lang)}"
            for p, a in likely_arrangements(grade.equilibrium.row, likely)
        )
    return lines


def grade_report(grade: Grade, context: GradeContext, lang: Lang | str) -> Output:
    """``quintet grade``: the deal, the arrangement and its grade."""
    lines = []
    if context.dealt:
        lines.append(
            f"{say('deal', lang)}: {say('seed', lang)} {context.seed}, "
            f"{say(context.rules.discard_mode.value, lang)}"
        )
    lines.append(f"{say('you', lang)}: {format_cards(display_order(context.mine), lang=lang)}")
    if context.theirs != context.mine:
        lines.append(
            f"{say('opponent', lang)}: {format_cards(display_order(context.theirs), lang=lang)}"
        )
    lines.append(f"{say('arrangement', lang)}: {_arrangement(grade.arrangement, lang)}")
    lines.extend(grade_lines(grade, lang, likely=3))
    payload = {
        "seed": context.seed,
        "dealt": context.dealt,
        "holding": cards_payload(display_order(context.mine)),
        "opponent_holding": cards_payload(display_order(context.theirs)),
        "rules": rules_payload(context.rules),
        **grade_payload(grade),
    }
    return Output("\n".join(lines), payload)
