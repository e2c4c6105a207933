"""Words the command line prints, in English and Russian.

The library returns numbers and enums; this module holds the words of the
reports as :class:`~solver.game.phrase.Phrase` values, and :func:`say` picks
one in the language asked for.  Card and combination names live with their
types (:mod:`solver.game.cards`, :class:`solver.game.rules.Category`).

>>> say("points", "ru")
'очки'
>>> say("no such key", "en")
Traceback (most recent call last):
    ...
KeyError: 'no such key'
"""

from __future__ import annotations

from solver.game.cards import Lang
from solver.game.phrase import Phrase

__all__ = ["say"]

_WORDS: dict[str, Phrase] = {
    "strength": Phrase("strength", "сила"),
    "of": Phrase("of", "из"),
    "deal": Phrase("Deal", "Сдача"),
    "seed": Phrase("seed", "зерно"),
    "mode": Phrase("mode", "режим"),
    "mirror": Phrase("mirror mode", "зеркальный режим"),
    "independent": Phrase("independent mode", "независимый режим"),
    "dealer": Phrase("dealer", "сдающий"),
    "player": Phrase("player", "игрок"),
    "you": Phrase("you", "вы"),
    "opponent": Phrase("opponent", "противник"),
    "turned_up": Phrase("turned up", "открыты"),
    "holds": Phrase("holds", "на руках"),
    "position": Phrase("pos", "поз"),
    "points": Phrase("points", "очки"),
    "packet": Phrase("packet", "пакет"),
    "combination": Phrase("combination", "комбинация"),
    "result": Phrase("result", "итог"),
    "win": Phrase("win", "выигрыш"),
    "loss": Phrase("loss", "проигрыш"),
    "tie": Phrase("tie", "ничья"),
    "draw": Phrase("draw", "ничья"),
    "wins_by": Phrase("wins by", "выигрывает с перевесом"),
    "total": Phrase("total", "итого"),
    "expected_points": Phrase("expected points", "ожидаемые очки"),
    "status": Phrase("status", "статус"),
    "optimal": Phrase("proven optimal", "оптимальность доказана"),
    "feasible": Phrase("feasible, not proven optimal", "допустимое, оптимальность не доказана"),
    "bound": Phrase("bound", "граница"),
    "gap": Phrase("gap", "зазор"),
    "time": Phrase("time", "время"),
    "concedes": Phrase("concedes", "уступает"),
    "positions": Phrase("positions", "позиции"),
    "none": Phrase("none", "нет"),
    "value": Phrase("value", "значение"),
    "objective": Phrase("objective", "цель"),
    "against": Phrase("against", "против"),
    "engine": Phrase("engine", "движок"),
    "exploitability": Phrase("exploitability", "уязвимость"),
    "support": Phrase("support", "носитель"),
    "iterations": Phrase("iterations", "итераций"),
    "game_value": Phrase("game value", "цена игры"),
    "probability": Phrase("probability", "вероятность"),
}


def say(key: str, lang: Lang | str = Lang.EN) -> str:
    """The word or phrase ``key`` in ``lang``."""
    return _WORDS[key].text(lang)
