"""Words shown to people, in English and Russian.

The library returns numbers and enums; this module turns the few words the
command line prints into either language.  Card and combination names live
with their types (:mod:`solver.game.cards`, :class:`solver.game.rules.Category`).

>>> say("points", "ru")
'очки'
>>> say("no such key", "en")
Traceback (most recent call last):
    ...
KeyError: 'no such key'
"""

from __future__ import annotations

from solver.game.cards import Lang

__all__ = ["say"]

_WORDS: dict[str, tuple[str, str]] = {
    # key: (English, Russian)
    "strength": ("strength", "сила"),
    "of": ("of", "из"),
    "deal": ("Deal", "Сдача"),
    "seed": ("seed", "зерно"),
    "mode": ("mode", "режим"),
    "mirror": ("mirror mode", "зеркальный режим"),
    "independent": ("independent mode", "независимый режим"),
    "dealer": ("dealer", "сдающий"),
    "player": ("player", "игрок"),
    "you": ("you", "вы"),
    "opponent": ("opponent", "противник"),
    "turned_up": ("turned up", "открыты"),
    "holds": ("holds", "на руках"),
    "position": ("pos", "поз"),
    "points": ("points", "очки"),
    "packet": ("packet", "пакет"),
    "combination": ("combination", "комбинация"),
    "result": ("result", "итог"),
    "win": ("win", "выигрыш"),
    "loss": ("loss", "проигрыш"),
    "tie": ("tie", "ничья"),
    "draw": ("draw", "ничья"),
    "wins_by": ("wins by", "выигрывает с перевесом"),
    "total": ("total", "итого"),
    "expected_points": ("expected points", "ожидаемые очки"),
    "status": ("status", "статус"),
    "optimal": ("proven optimal", "оптимальность доказана"),
    "feasible": ("feasible, not proven optimal", "допустимое, оптимальность не доказана"),
    "bound": ("bound", "граница"),
    "gap": ("gap", "зазор"),
    "time": ("time", "время"),
    "concedes": ("concedes", "уступает"),
    "positions": ("positions", "позиции"),
    "none": ("none", "нет"),
    "value": ("value", "значение"),
    "objective": ("objective", "цель"),
    "against": ("against", "против"),
    "engine": ("engine", "движок"),
    "exploitability": ("exploitability", "уязвимость"),
    "support": ("support", "носитель"),
    "iterations": ("iterations", "итераций"),
    "game_value": ("game value", "цена игры"),
    "probability": ("probability", "вероятность"),
    # quintet grade, play and train
    "arrangement": ("arrangement", "раскладка"),
    "verdict": ("verdict", "оценка"),
    "best": ("best", "лучшая"),
    "good": ("good", "хорошая"),
    "inaccuracy": ("inaccuracy", "неточность"),
    "mistake": ("mistake", "ошибка"),
    "blunder": ("blunder", "грубая ошибка"),
    "equilibrium_loss": ("equilibrium loss", "потеря против равновесия"),
    "margin_vs_equilibrium": ("margin against the equilibrium", "перевес против равновесия"),
    "certified_gap": ("certified gap", "гарантированный зазор"),
    "win_loss": ("win probability lost", "потеря вероятности выигрыша"),
    "punished_by": ("punished by", "наказывается раскладкой"),
    "against_random": ("against a random arranger", "против случайной раскладки"),
    "against_greedy": ("against greedy", "против жадной раскладки"),
    "best_response": ("best response", "лучший ответ"),
    "dominated": ("dominated", "доминируется"),
    "dominated_by": ("dominated by", "доминируется раскладкой"),
    "not_dominated": ("not dominated", "не доминируется"),
    "change": ("suggested change", "предлагаемое изменение"),
    "no_change": ("no single change helps", "ни одно изменение не помогает"),
    "swap_packets": ("swap packets {i} and {j}", "поменять местами пакеты {i} и {j}"),
    "one_card": (
        "exchange {given} (packet {i}) for {taken} (packet {j})",
        "обменять {given} (пакет {i}) на {taken} (пакет {j})",
    ),
    "two_cards": (
        "exchange {given} (packet {i}) for {taken} (packet {j})",
        "обменять {given} (пакет {i}) на {taken} (пакет {j})",
    ),
    "candidates": ("moves tried", "проверено ходов"),
    "new_loss": ("new loss", "новая потеря"),
    "equilibrium_plays": ("the equilibrium plays", "равновесие играет"),
    "points_unit": ("points", "очк."),
}


def say(key: str, lang: Lang | str = Lang.EN) -> str:
    """The word or phrase ``key`` in ``lang``."""
    english, russian = _WORDS[key]
    return russian if Lang(lang) is Lang.RU else english
