"""An interactive game against a computer player.

:class:`Table` keeps the state of one game: your cards, the packets you have
laid out so far, and what is left.  Every entry is checked; a bad one is
explained and changes nothing, so nothing typed before is lost.  The
``quintet play`` command (:func:`play`) is a loop reading lines around it:

* five cards: the next packet (the last five cards are laid out by themselves);
* ``P1 | P2 | P3 | P4 | P5``: a whole arrangement at once;
* ``hint``: the best arrangement of your cards against a random opponent;
* ``undo``: take back the last packet; ``cards``: show what is left;
* ``quit`` or end of input: leave.

>>> from solver.game.deal import deal
>>> table = Table(deal(seed=1).holdings[0], Rules())
>>> table.enter("As Ah Ad Kh Kd")
'packet 1: A♠ A♥ A♦ K♥ K♦ (full house)'
>>> table.enter("As 7c 7h 7s 8c")
'bad entry: A♠ is already in packet 1'
>>> len(table.packets)
1
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

from solver.errors import ArrangementError, CardError
from solver.game.arrangement import Arrangement, score
from solver.game.cards import HAND_SIZE, Lang, format_cards, parse_cards, split_tokens
from solver.game.evaluator import category
from solver.game.phrase import Phrase
from solver.game.rules import Category, Rules

__all__ = ["Table", "play"]

_WORDS = {
    "packet": Phrase("packet", "пакет"),
    "bad": Phrase("bad entry", "ошибка ввода"),
    "already": Phrase("is already in packet", "уже в пакете"),
    "not_yours": Phrase("is not one of your cards", "не из ваших карт"),
    "need_five": Phrase("a packet is five cards", "в пакете пять карт"),
    "got": Phrase("got", "получено"),
    "left": Phrase("left", "осталось"),
    "nothing_to_undo": Phrase("nothing to undo", "нечего отменять"),
    "took_back": Phrase("took back packet", "возвращён пакет"),
    "last_auto": Phrase("the last five cards make packet", "последние пять карт образуют пакет"),
    "done": Phrase("all packets are laid out", "все пакеты выложены"),
}


def _say(key: str, lang: Lang | str) -> str:
    return _WORDS[key].text(lang)


@dataclass
class Table:
    """Your side of one game: holding, packets laid out so far, language."""

    holding: Iterable[int]
    rules: Rules
    lang: Lang | str = Lang.EN
    packets: list[tuple[int, ...]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.holding = tuple(sorted(int(c) for c in self.holding))

    @property
    def remaining(self) -> list[int]:
        """Cards not yet laid out, highest first."""
        used = {c for packet in self.packets for c in packet}
        return sorted((c for c in self.holding if c not in used), reverse=True)

    @property
    def complete(self) -> bool:
        """Whether every packet is laid out."""
        return len(self.packets) == self.rules.n_packets

    def arrangement(self) -> Arrangement:
        """The laid-out packets (when complete)."""
        return Arrangement(tuple(self.packets))

    def _describe(self, index: int) -> str:
        packet = self.packets[index]
        kind = Category(int(category(np.array(packet), self.rules)))
        return (
            f"{_say('packet', self.lang)} {index + 1}: {format_cards(packet, lang=self.lang)} "
            f"({kind.name_in(self.lang)})"
        )

    def _check(self, cards: tuple[int, ...]) -> str | None:
        """Why ``cards`` cannot be the next packet, or None."""
        for card in cards:
            for number, packet in enumerate(self.packets, start=1):
                if card in packet:
                    return f"{format_cards([card], lang=self.lang)} {_say('already', self.lang)} {number}"
            if card not in self.holding:
                return f"{format_cards([card], lang=self.lang)} {_say('not_yours', self.lang)}"
        if len(cards) != HAND_SIZE:
            return f"{_say('need_five', self.lang)}, {_say('got', self.lang)} {len(cards)}"
        return None

    def enter(self, text: str) -> str:
        """Lay out the next packet (or a whole arrangement); return what happened."""
        bad = _say("bad", self.lang)
        parts = text.split("|")
        if len(parts) > 1:
            return self._enter_all(parts)
        try:
            cards = parse_cards(split_tokens(text))
        except CardError as error:
            return f"{bad}: {error}"
        problem = self._check(cards)
        if problem:
            return f"{bad}: {problem}"
        self.packets.append(cards)
        lines = [self._describe(len(self.packets) - 1)]
        if len(self.packets) == self.rules.n_packets - 1:
            self.packets.append(tuple(sorted(self.remaining)))
            lines.append(
                f"{_say('last_auto', self.lang)} {len(self.packets)}: "
                + self._describe(len(self.packets) - 1).split(": ", 1)[1]
            )
        return "\n".join(lines)

    def _enter_all(self, parts: list[str]) -> str:
        bad = _say("bad", self.lang)
        try:
            arrangement = Arrangement.parse("|".join(parts), n_packets=self.rules.n_packets)
            arrangement.check(self.holding, self.rules)
        except (ArrangementError, CardError) as error:
            return f"{bad}: {error}"
        self.packets = [tuple(p) for p in arrangement.packets]
        return "\n".join(self._describe(i) for i in range(len(self.packets)))

    def undo(self) -> str:
        """Take back the last packet."""
        if not self.packets:
            return _say("nothing_to_undo", self.lang)
        self.packets.pop()
        return f"{_say('took_back', self.lang)} {len(self.packets) + 1}"

    def show(self) -> str:
        """The cards left."""
        return f"{_say('left', self.lang)}: {format_cards(self.remaining, lang=self.lang)}"


_TEXT = {
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
        "hint": "Hint (best against a random opponent): {arrangement}",
        "unknown": "Unknown command {word!r}: type cards, hint, undo, cards or quit.",
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
        "hint": "Подсказка (лучшее против случайного противника): {arrangement}",
        "unknown": "Неизвестная команда {word!r}: введите карты, hint, undo, cards или quit.",
    },
}


def play(
    mine: Iterable[int],
    theirs: Iterable[int],
    rules: Rules,
    opponent: str,
    rng: np.random.Generator,
    read: Callable[[str], str],
    write: Callable[[str], None],
    lang: Lang | str = Lang.EN,
) -> int:
    """Play one game on a console; return the exit status (0, also on quit).

    ``read(prompt)`` returns a line and raises EOFError at the end of input;
    ``write(text)`` prints a line.
    """
    from solver.models.opponents import Objective, Opponent
    from solver.play.players import describe_player, player
    from solver.response.frontier_response import frontier_best_response

    text = _TEXT[Lang(lang)]
    theirs = tuple(sorted(int(c) for c in theirs))
    computer = player(opponent)
    table = Table(mine, rules, lang)
    write(text["intro"])
    write(text["points"].format(points=", ".join(str(p) for p in rules.position_points)))
    write(text["yours"].format(cards=format_cards(table.remaining, lang=lang)))
    write(text["theirs"].format(cards=format_cards(sorted(theirs, reverse=True), lang=lang)))
    write(text["against"].format(player=computer.name, description=describe_player(opponent, lang)))
    write(text["help"])
    while not table.complete:
        n = len(table.packets) + 1
        try:
            line = read(text["prompt"].format(n=n, points=rules.position_points[n - 1])).strip()
        except EOFError:
            write("")
            write(text["bye"])
            return 0
        word = line.lower()
        if not line:
            continue
        if word in ("quit", "exit", "q"):
            write(text["bye"])
            return 0
        if word == "undo":
            write(table.undo())
        elif word in ("cards", "show"):
            write(table.show())
        elif word in ("hint", "help", "?"):
            if word == "help":
                write(text["help"])
                continue
            # Best against a random opponent, keeping the packets already laid out.
            laid = {i + 1: packet for i, packet in enumerate(table.packets)}
            best = frontier_best_response(
                tuple(table.holding), Opponent.random(theirs, rules), Objective.MARGIN, fixed=laid
            )
            write(text["hint"].format(arrangement=best.arrangement.format(lang=lang)))
        elif word.isalpha() and len(word) > 3 and "|" not in word:
            write(text["unknown"].format(word=line))
        else:
            write(table.enter(line))
    write(text["thinking"])
    theirs_arrangement = computer.arrange(theirs, tuple(table.holding), rules, rng)
    result = score(table.arrangement(), theirs_arrangement, rules)
    kinds_mine = category(table.arrangement().array(), rules)
    kinds_theirs = category(theirs_arrangement.array(), rules)
    for i in range(rules.n_packets):
        outcome = {1: text["win"], 0: text["tie"], -1: text["loss"]}[int(result.outcomes[i])]
        write(
            text["reveal"].format(
                n=i + 1,
                points=rules.position_points[i],
                mine=format_cards(table.packets[i], lang=lang),
                mine_kind=Category(int(kinds_mine[i])).name_in(lang),
                theirs=format_cards(theirs_arrangement.packets[i], lang=lang),
                theirs_kind=Category(int(kinds_theirs[i])).name_in(lang),
                result=outcome,
            )
        )
    verdict = (
        text["won"] if result.margin > 0 else text["lost"] if result.margin < 0 else text["drew"]
    )
    write(text["final"].format(mine=result.points[0], theirs=result.points[1], verdict=verdict))
    return 0
