"""An interactive game against a computer player.

:class:`Table` keeps the state of one game: your cards, the packets you have
laid out so far, and what is left.  Every entry is checked; a bad one is
explained and changes nothing, so nothing typed before is lost.  The
``quintet play`` command (:func:`play`) is a loop reading lines around it:

* five cards: the next packet (the last five cards are laid out by themselves);
* ``P1 | P2 | P3 | P4 | P5``: a whole arrangement at once;
* ``hint``: an arrangement of the deal's equilibrium (keeping the packets
  laid out when one of the equilibrium's arrangements does), with its grade;
* ``undo``: take back the last packet; ``cards``: show what is left;
* ``quit`` or end of input: leave.

After the reveal both arrangements are graded (:mod:`solver.analysis.grade`)
and a session summary is kept: games, points, mean equilibrium loss.

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
from functools import partial
from typing import Any

import numpy as np

from solver.analysis.grade import Grade, grade
from solver.book.source import EquilibriumSolver
from solver.errors import ArrangementError, CardError
from solver.game.arrangement import Arrangement, Score, score
from solver.game.cards import HAND_SIZE, format_cards, parse_cards, split_tokens
from solver.game.evaluator import category
from solver.game.rules import Category, Rules
from solver.play.coaching import Session, equilibrium_hint
from solver.play.phrases import TEXT as _TEXT
from solver.play.phrases import VERDICTS
from solver.util.language import Lang, Phrase

__all__ = ["Table", "lay_out", "play", "reveal"]

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


Describe = Callable[[Grade], list[str]]
NextDeal = Callable[[int], tuple[Iterable[int], Iterable[int]]]


def _default_describe(lang: Lang | str) -> Describe:
    def describe(result: Grade) -> list[str]:
        line = _TEXT[Lang(lang)]["loss_line"]
        verdict = VERDICTS[Lang(lang)][result.verdict.value]
        return [line.format(verdict=verdict, loss=result.equilibrium_loss)]

    return describe


def _introduce(
    table: Table,
    theirs: tuple[int, ...],
    computer: Any,
    opponent: str,
    write: Callable[[str], None],
) -> None:
    from solver.play.players import describe_player

    lang, rules = table.lang, table.rules
    text = _TEXT[Lang(lang)]
    write(text["intro"])
    write(text["points"].format(points=", ".join(str(p) for p in rules.position_points)))
    write(text["yours"].format(cards=format_cards(table.remaining, lang=lang)))
    write(text["theirs"].format(cards=format_cards(sorted(theirs, reverse=True), lang=lang)))
    write(text["against"].format(player=computer.name, description=describe_player(opponent, lang)))
    write(text["help"])


def _hint(
    table: Table,
    theirs: tuple[int, ...],
    describe: Describe,
    write: Callable[[str], None],
    solver: EquilibriumSolver | None = None,
) -> None:
    text = _TEXT[Lang(table.lang)]
    arrangement, exact = equilibrium_hint(table.holding, theirs, table.rules, table.packets, solver)
    key = "hint" if exact else "hint_kept"
    write(text[key].format(arrangement=arrangement.format(lang=table.lang)))
    for line in describe(grade(arrangement, theirs, table.rules, solver=solver)):
        write(f"  {line}")


def lay_out(
    table: Table,
    read: Callable[[str], str],
    write: Callable[[str], None],
    on_hint: Callable[[], None],
) -> bool:
    """Read entries until every packet is laid out: True, or False on quit or end of input."""
    text = _TEXT[Lang(table.lang)]
    while not table.complete:
        n = len(table.packets) + 1
        prompt = text["prompt"].format(n=n, points=table.rules.position_points[n - 1])
        try:
            line = read(prompt).strip()
        except EOFError:
            write("")
            write(text["bye"])
            return False
        word = line.lower()
        if not line:
            continue
        if word in ("quit", "exit", "q"):
            write(text["bye"])
            return False
        if word == "undo":
            write(table.undo())
        elif word in ("cards", "show"):
            write(table.show())
        elif word == "help":
            write(text["help"])
        elif word in ("hint", "?"):
            on_hint()
        elif word.isalpha() and len(word) > 3 and "|" not in word:
            write(text["unknown"].format(word=line))
        else:
            write(table.enter(line))
    return True


def reveal(
    mine: Arrangement,
    theirs: Arrangement,
    rules: Rules,
    lang: Lang | str,
    write: Callable[[str], None],
) -> Score:
    """Compare both arrangements position by position; write and return the score."""
    text = _TEXT[Lang(lang)]
    result = score(mine, theirs, rules)
    kinds_mine = category(mine.array(), rules)
    kinds_theirs = category(theirs.array(), rules)
    for i in range(rules.n_packets):
        outcome = {1: text["win"], 0: text["tie"], -1: text["loss"]}[int(result.outcomes[i])]
        write(
            text["reveal"].format(
                n=i + 1,
                points=rules.position_points[i],
                mine=format_cards(mine.packets[i], lang=lang),
                mine_kind=Category(int(kinds_mine[i])).name_in(lang),
                theirs=format_cards(theirs.packets[i], lang=lang),
                theirs_kind=Category(int(kinds_theirs[i])).name_in(lang),
                result=outcome,
            )
        )
    verdict = (
        text["won"] if result.margin > 0 else text["lost"] if result.margin < 0 else text["drew"]
    )
    write(text["final"].format(mine=result.points[0], theirs=result.points[1], verdict=verdict))
    return result


def _grade_both(
    mine: Arrangement,
    theirs: Arrangement,
    rules: Rules,
    describe: Describe,
    text: dict[str, str],
    write: Callable[[str], None],
    solver: EquilibriumSolver | None = None,
) -> tuple[Grade, Grade]:
    grades = (
        grade(mine, theirs.cards, rules, solver=solver),
        grade(theirs, mine.cards, rules, solver=solver),
    )
    for key, result in zip(("grade_mine", "grade_theirs"), grades, strict=True):
        write(text[key])
        for line in describe(result):
            write(f"  {line}")
    return grades


def play(
    mine: Iterable[int],
    theirs: Iterable[int],
    rules: Rules,
    opponent: str,
    rng: np.random.Generator,
    read: Callable[[str], str],
    write: Callable[[str], None],
    lang: Lang | str = Lang.EN,
    *,
    describe: Describe | None = None,
    next_deal: NextDeal | None = None,
    solver: EquilibriumSolver | None = None,
) -> int:
    """Play games on a console; return the exit status (0, also on quit).

    ``read(prompt)`` returns a line and raises EOFError at the end of input;
    ``write(text)`` prints a line.  After each game both arrangements are
    graded (``describe`` turns a grade into lines; by default the verdict and
    the loss) and the session summary is written.  With ``next_deal(k)``
    (the holdings of game ``k``, from 1) another game is offered.  ``solver``
    gives the deals' equilibria to the computer (when it plays one), the
    hints and the grades alike, so each deal is solved (or looked up) once.
    """
    from solver.play.players import player

    text = _TEXT[Lang(lang)]
    describe = describe or _default_describe(lang)
    computer = player(opponent, solver=solver)
    session = Session()
    while True:
        their_cards = tuple(sorted(int(c) for c in theirs))
        table = Table(mine, rules, lang)
        _introduce(table, their_cards, computer, opponent, write)
        hint = partial(_hint, table, their_cards, describe, write, solver)
        if not lay_out(table, read, write, hint):
            return 0
        write(text["thinking"])
        theirs_arrangement = computer.arrange(their_cards, tuple(table.holding), rules, rng)
        result = reveal(table.arrangement(), theirs_arrangement, rules, lang, write)
        grades = _grade_both(
            table.arrangement(), theirs_arrangement, rules, describe, text, write, solver
        )
        session.add(result, *grades)
        write(session.summary(text["session"]))
        if next_deal is None or not _again(read, write, text):
            return 0
        mine, theirs = next_deal(session.games)


def _again(read: Callable[[str], str], write: Callable[[str], None], text: dict[str, str]) -> bool:
    try:
        answer = read(text["again"]).strip().lower()
    except EOFError:
        answer = ""
    if answer in ("y", "yes", "д", "да"):
        return True
    write(text["bye"])
    return False
