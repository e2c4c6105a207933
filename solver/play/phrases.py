"""What the interactive game (``quintet play``) and training (``quintet train``) say,
in English and Russian."""

from __future__ import annotations

from solver.util.language import Lang

__all__ = ["TEXT", "VERDICTS"]

TEXT: dict[Lang, dict[str, str]] = {
    Lang.EN: {
        "intro": "Quintet: lay out your 25 cards in five packets of five, position 1 first.",
        "points": "Positions score {points} points.",
        "yours": "Your cards:     {cards}",
        "theirs": "Opponent holds: {cards}",
        "against": "You play against: {player} ({description}).",
        "help": "Type five cards for the next packet (e.g. As Ks Qs Js Ts), or a whole "
        "arrangement P1 | P2 | ... | P5; hint, undo, cards, quit.",
        "prompt": "packet {n} ({points} points)> ",
        "thinking": "The opponent arranges its cards...",
        "reveal": "pos {n} ({points}): you {mine} ({mine_kind}) vs {theirs} ({theirs_kind}): {result}",
        "win": "you win it",
        "loss": "opponent wins it",
        "tie": "tie",
        "final": "Points: you {mine}, opponent {theirs}. {verdict}",
        "won": "You win!",
        "lost": "The opponent wins.",
        "drew": "A draw.",
        "bye": "Bye.",
        "hint": "Hint (an equilibrium arrangement): {arrangement}",
        "hint_kept": "Hint (the best completion of your packets against the equilibrium): "
        "{arrangement}",
        "unknown": "Unknown command {word!r}: type cards, hint, undo, cards or quit.",
        "grade_mine": "Your arrangement:",
        "grade_theirs": "The opponent's arrangement:",
        "session": "Session: {games} game(s), points {mine} : {theirs}, mean equilibrium "
        "loss {loss:.3f} (opponent {their_loss:.3f})",
        "again": "Another game? (y/n)> ",
        "loss_line": "{verdict}: equilibrium loss {loss:.3f} points",
        "series": "Training: {deals} deals from seed {seed}.",
        "train_deal": "Deal {n} of {deals} (seed {seed})",
        "no_hint": "No hints in training: lay out your packets, the grade follows.",
        "score": "Score: {graded} of {deals} deals graded, mean equilibrium loss {mean:.3f} "
        "points ({counts})",
        "resuming": "Resuming: {done} of {deals} deals already graded.",
        "series_done": "All {deals} deals are graded.",
    },
    Lang.RU: {
        "intro": "Квинтет: разложите 25 карт в пять пакетов по пять, начиная с позиции 1.",
        "points": "Позиции приносят {points} очков.",
        "yours": "Ваши карты:       {cards}",
        "theirs": "Карты противника: {cards}",
        "against": "Ваш противник: {player} ({description}).",
        "help": "Введите пять карт следующего пакета (например Тп Кп Дп Вп 10п) или всю "
        "раскладку П1 | П2 | ... | П5; hint — подсказка, undo — отменить, cards — карты, quit — выход.",
        "prompt": "пакет {n} ({points} очк.)> ",
        "thinking": "Противник раскладывает карты...",
        "reveal": "поз {n} ({points}): вы {mine} ({mine_kind}) против {theirs} ({theirs_kind}): {result}",
        "win": "ваша",
        "loss": "противника",
        "tie": "ничья",
        "final": "Очки: вы {mine}, противник {theirs}. {verdict}",
        "won": "Вы выиграли!",
        "lost": "Выиграл противник.",
        "drew": "Ничья.",
        "bye": "До свидания.",
        "hint": "Подсказка (равновесная раскладка): {arrangement}",
        "hint_kept": "Подсказка (лучшее продолжение ваших пакетов против равновесия): "
        "{arrangement}",
        "unknown": "Неизвестная команда {word!r}: введите карты, hint, undo, cards или quit.",
        "grade_mine": "Ваша раскладка:",
        "grade_theirs": "Раскладка противника:",
        "session": "Сессия: партий {games}, очки {mine} : {theirs}, средняя потеря против "
        "равновесия {loss:.3f} (противник {their_loss:.3f})",
        "again": "Ещё партию? (y/n)> ",
        "loss_line": "{verdict}: потеря против равновесия {loss:.3f} очк.",
        "series": "Тренировка: {deals} сдач с зерна {seed}.",
        "train_deal": "Сдача {n} из {deals} (зерно {seed})",
        "no_hint": "В тренировке подсказок нет: разложите пакеты, оценка будет после.",
        "score": "Счёт: оценено сдач {graded} из {deals}, средняя потеря против равновесия "
        "{mean:.3f} очк. ({counts})",
        "resuming": "Продолжение: уже оценено сдач {done} из {deals}.",
        "series_done": "Все сдачи ({deals}) оценены.",
    },
}

# Verdicts of solver.analysis.grade.Verdict, by value.
VERDICTS: dict[Lang, dict[str, str]] = {
    Lang.EN: {v: v for v in ("best", "good", "inaccuracy", "mistake", "blunder")},
    Lang.RU: {
        "best": "лучшая",
        "good": "хорошая",
        "inaccuracy": "неточность",
        "mistake": "ошибка",
        "blunder": "грубая ошибка",
    },
}
