"""The computer players and the verdict bands, as the page shows them, in both languages.

Everything here comes from the registry (:mod:`solver.play.registry`) and the
grade's thresholds (:data:`solver.analysis.grade.VERDICT_THRESHOLDS`): a player
added there appears here with its description; each has a short title here.

>>> doc = catalog().document
>>> [p["name"] for p in doc["players"]][:3]
['random', 'greedy', 'house']
>>> doc["players"][2]["title"]["ru"]
'домашний'
>>> player_title("clever", "en")
Traceback (most recent call last):
    ...
solver.errors.QuintetError: unknown player 'clever' (players: random, greedy, house, br-random, br-greedy, eq-margin, eq-win)
"""

from __future__ import annotations

from typing import Any

from solver.analysis.grade import VERDICT_THRESHOLDS, Verdict
from solver.app.answers import Answer, answer_of
from solver.app.report import Output
from solver.app.text import say
from solver.play.players import PLAYER_NAMES, describe_player, player
from solver.util.language import Lang, Phrase

__all__ = ["RECOMMENDED_PLAYER", "catalog", "player_title"]

RECOMMENDED_PLAYER = "house"
"""The player docs/findings.md recommends to people: the page's default."""

_TITLES: dict[str, Phrase] = {
    "random": Phrase("random", "случайный"),
    "greedy": Phrase("greedy", "жадный"),
    "house": Phrase("house", "домашний"),
    "br-random": Phrase("answers random", "ответ случайному"),
    "br-greedy": Phrase("answers greedy", "ответ жадному"),
    "eq-margin": Phrase("equilibrium, margin", "равновесный, перевес"),
    "eq-win": Phrase("equilibrium, win", "равновесный, победа"),
}


def player_title(name: str, lang: Lang | str = Lang.EN) -> str:
    """The short title of the computer player ``name`` (``name`` itself if it has none)."""
    known = player(name).name  # a bad name is a QuintetError
    title = _TITLES.get(known)
    return known if title is None else title.text(lang)


def _document() -> dict[str, Any]:
    players = [
        {
            "name": name,
            "title": {code: player_title(name, code) for code in ("en", "ru")},
            "description": {code: describe_player(name, code) for code in ("en", "ru")},
        }
        for name in PLAYER_NAMES
    ]
    limits: list[tuple[float | None, Verdict]] = [*VERDICT_THRESHOLDS, (None, Verdict.BLUNDER)]
    bands = [
        {
            "verdict": verdict.value,
            "below": limit,
            "words": {code: say(verdict.value, code) for code in ("en", "ru")},
        }
        for limit, verdict in limits
    ]
    return {"players": players, "recommended": RECOMMENDED_PLAYER, "verdicts": bands}


def catalog() -> Answer:
    """The computer players (name, title and description in English and Russian) and the
    verdict bands (each verdict's upper limit of equilibrium loss, in points)."""
    document = _document()

    def report(lang: Lang | str) -> Output:
        lines = [
            f"{p['name']}: {p['title'][Lang(lang).value]} — {p['description'][Lang(lang).value]}"
            for p in document["players"]
        ]
        return Output("\n".join(lines), document)

    return answer_of(report, kind="players")
