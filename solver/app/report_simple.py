"""Reports of simple strategies (``equilibrium --max-support K``): a mix of at most k arrangements.

>>> from solver.equilibria.simple_strategy import simple_strategy
>>> from solver.game.rules import Rules
>>> rules = Rules(position_points=(6, 7))
>>> found = simple_strategy(range(10), range(10), rules, "win", k=1)
>>> simple_payload(found)["exploitability"], simple_payload(found)["proven"]
(0.0, True)
>>> simple_lines(found, "en", 10)[0]
'simple strategy (k = 1): mixes 1 of at most 1 arrangements:'
>>> simple_lines(found, "xx", 10)
Traceback (most recent call last):
    ...
solver.errors.QuintetError: lang 'xx' is not one of: en, ru
"""

from __future__ import annotations

from typing import Any

from solver.app.report_equilibrium import mixture_lines
from solver.app.text import say
from solver.equilibria.payoff import Payoff
from solver.equilibria.simple_strategy import SimpleStrategy
from solver.util.language import Lang, language

__all__ = ["simple_lines", "simple_payload"]


def _figure(value: float) -> str:
    """A value in four significant figures, without a negative zero."""
    return f"{value + 0.0:.4g}"


def simple_payload(found: SimpleStrategy) -> dict[str, Any]:
    """The ``simple_strategy`` object of the ``equilibrium --json`` document."""
    return {
        "k": found.k,
        "seat": found.seat,
        "strategy": found.strategy.to_dict(),
        "guarantee": found.guarantee,
        "value": found.value,
        "value_gap": found.value_gap,
        "exploitability": found.exploitability,
        "exploitability_percent": found.exploitability_percent,
        "proven": found.proven,
        "pool": found.pool,
        "note": found.note,
        "seconds": found.seconds,
    }


def simple_lines(found: SimpleStrategy, lang: Lang | str, limit: int) -> list[str]:
    """The simple strategy's lines: its certificate, what is proven, its arrangements."""
    lang = language(lang)
    margin = found.payoff is Payoff.MARGIN
    lines = [
        say("simple_heading", lang).format(k=found.k, n=len(found.strategy.arrangements)),
        "  "
        + say("simple_loss", lang).format(
            loss=_figure(found.exploitability),
            unit=say("unit_points" if margin else "unit_probability", lang),
            percent=f"{found.exploitability_percent:.2f}",
            whole=say("whole_points" if margin else "whole_game", lang),
            guarantee=_figure(found.guarantee),
            value=_figure(found.value),
        ),
        "  "
        + (
            say("simple_proven", lang)
            if found.proven
            else say("simple_found", lang).format(pool=found.pool, k=found.k)
        ),
    ]
    lines.extend(mixture_lines(found.strategy, lang, limit))
    return lines
