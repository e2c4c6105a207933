"""Reports of games played: tournaments (and their CSV rows).

>>> from solver.play.tournament import TournamentConfig, run
>>> out = tournament_report(run(TournamentConfig(("greedy", "random"), deals=1, seed=2)), "en")
>>> out.payload["pairs"][0]["first"], out.payload["pairs"][0]["games"]
('greedy', 2)
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from solver.app.games_csv import HEADER, game_rows
from solver.app.report import Output, table_lines
from solver.app.text import say
from solver.game.payloads import rules_payload
from solver.play.tournament import EXACT_GAP, DealRecord, TournamentResult
from solver.util.files import atomic_output
from solver.util.language import Lang, Phrase

__all__ = ["tournament_payload", "tournament_report", "write_games_csv"]


# The tournament's words (English as they have always been).
_T = {
    "heading": Phrase(
        "{players} players, {deals} deals (seed {seed}, {mode}), {jobs} job(s), {seconds} s",
        "игроков: {players}, сдач: {deals} (зерно {seed}, {mode}), процессов: {jobs}, {seconds} s",
    ),
    "pair": Phrase("pair", "пара"),
    "games": Phrase("games", "партий"),
    "versus": Phrase("{first} vs {second}", "{first} против {second}"),
    "mean_margin": Phrase("mean margin (95% CI)", "средний перевес (95% интервал)"),
    "mean_points": Phrase("mean points", "средние очки"),
    "player": Phrase("player", "игрок"),
    "per_deal": Phrase("seconds/deal", "s на сдачу"),
    "exploitability": Phrase("exploitability mean", "уязвимость: среднее"),
    "max": Phrase("max", "макс."),
    "exact": Phrase("exact", "точно"),
    "strategy_gap": Phrase("strategy gap median", "зазор стратегии: медиана"),
    "legend": Phrase(
        "frontiers (shared by the solver players): {frontier} s/deal; exploitability: "
        "the margin a best response to the played arrangement would score (points); "
        "exact: share of deals where the equilibrium player's strategy was solved to a "
        "certified gap <= {gap}; strategy gap: its certified gap (points for "
        "eq-margin, win probability for eq-win)",
        "парето-фронты (общие для игроков-решателей): {frontier} s на сдачу; уязвимость: "
        "перевес, который набрал бы лучший ответ на сыгранную раскладку (очки); "
        "точно: доля сдач, где стратегия равновесного игрока решена с "
        "гарантированным зазором <= {gap}; зазор стратегии: её гарантированный зазор "
        "(очки для eq-margin, вероятность выигрыша для eq-win)",
    ),
}


def _say(key: str, lang: Lang | str, **values: Any) -> str:
    return _T[key].text(lang).format(**values)


def _signed(x: float) -> str:
    return f"{x:+.2f}"


def tournament_report(result: TournamentResult, lang: Lang | str, jobs: int = 1) -> Output:
    """Pairwise results and per-player cost and exploitability."""
    config = result.config
    mode = say(config.rules.discard_mode.value, lang)
    heading = _say(
        "heading",
        lang,
        players=len(config.players),
        deals=config.deals,
        seed=config.seed,
        mode=mode,
        jobs=jobs,
        seconds=f"{result.seconds:.1f}",
    )
    lines = [
        heading,
        *table_lines(_pair_rows(result, lang)),
        "",
        *table_lines(_player_rows(result, lang)),
        _legend(result, lang),
    ]
    return Output("\n".join(lines), tournament_payload(result))


def _pair_rows(result: TournamentResult, lang: Lang | str) -> list[list[str]]:
    """One row per pair of players: outcomes, mean margin with its interval, mean points."""
    outcomes = [say("win", lang), say("draw", lang), say("loss", lang)]
    header = [_say("pair", lang), _say("games", lang), *outcomes]
    rows = [[*header, _say("mean_margin", lang), _say("mean_points", lang)]]
    for pair in result.pairs():
        low, high = pair.margin_ci
        rows.append(
            [
                _say("versus", lang, first=pair.first, second=pair.second),
                str(pair.games),
                f"{100 * pair.win:.1f}%",
                f"{100 * pair.draw:.1f}%",
                f"{100 * pair.loss:.1f}%",
                f"{_signed(pair.mean_margin)} [{_signed(low)}, {_signed(high)}]",
                f"{pair.mean_points[0]:.2f} : {pair.mean_points[1]:.2f}",
            ]
        )
    return rows


def _optional(value: float | None, form: str) -> str:
    return "-" if value is None else format(value, form)


def _player_rows(result: TournamentResult, lang: Lang | str) -> list[list[str]]:
    """One row per player: time, exploitability, and the equilibrium players' gaps."""
    words = ("player", "per_deal", "exploitability", "max", "exact", "strategy_gap", "max")
    rows = [[_say(word, lang) for word in words]]
    for stats in result.players():
        exact = None if stats.exact_share is None else 100 * stats.exact_share
        rows.append(
            [
                stats.name,
                f"{stats.seconds_per_deal:.3f}",
                f"{stats.mean_exploitability:.2f}",
                f"{stats.max_exploitability:.1f}",
                "-" if exact is None else f"{exact:.1f}%",
                _optional(stats.median_strategy_gap, ".2g"),
                _optional(stats.max_strategy_gap, ".2g"),
            ]
        )
    return rows


def _legend(result: TournamentResult, lang: Lang | str) -> str:
    """The shared frontier time, and what the columns of the player table mean."""
    frontier = sum(r.frontier_seconds for r in result.records) / len(result.records)
    return _say("legend", lang, frontier=f"{frontier:.3f}", gap=f"{EXACT_GAP:g}")


def tournament_payload(result: TournamentResult) -> dict[str, Any]:
    """The whole tournament for JSON: configuration, pairs, players and every deal."""
    config = result.config
    return {
        "players": list(config.players),
        "deals": config.deals,
        "seed": config.seed,
        "rules": rules_payload(config.rules),
        "equilibrium_time_limit": config.equilibrium_time_limit,
        "seconds": result.seconds,
        "pairs": [
            {
                "first": p.first,
                "second": p.second,
                "games": p.games,
                "win": p.win,
                "draw": p.draw,
                "loss": p.loss,
                "mean_margin": p.mean_margin,
                "margin_ci": [float(p.margin_ci[0]), float(p.margin_ci[1])],
                "mean_points": list(p.mean_points),
            }
            for p in result.pairs()
        ],
        "player_stats": [
            {
                "player": s.name,
                "seconds_per_deal": s.seconds_per_deal,
                "mean_exploitability": s.mean_exploitability,
                "max_exploitability": s.max_exploitability,
                "max_strategy_gap": s.max_strategy_gap,
                "median_strategy_gap": s.median_strategy_gap,
                "exact_share": s.exact_share,
            }
            for s in result.players()
        ],
        "deal_records": [_record_payload(r) for r in result.records],
    }


def _record_payload(record: DealRecord) -> dict[str, Any]:
    """One deal: its seed, the frontier time and each player's play in each seat."""
    return {
        "deal": record.index,
        "seed": record.seed,
        "frontier_seconds": record.frontier_seconds,
        "plays": [
            {
                "player": p.player,
                "seat": p.seat + 1,
                "strengths": list(p.strengths),
                "seconds": p.seconds,
                "exploitability": p.exploitability,
                "strategy_gap": p.strategy_gap,
            }
            for p in record.plays
        ],
    }


def write_games_csv(result: TournamentResult, path: str | Path) -> None:
    """One row per game: deal, seed, players, seats, points and margin (atomically)."""
    with atomic_output(path) as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        for record in result.records:
            writer.writerows(game_rows(record))
