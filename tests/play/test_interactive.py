"""Interactive play: :class:`solver.play.interactive.Table` and ``quintet play``.

The command is run as a real subprocess with scripted standard input: a full
game typed packet by packet, a whole arrangement on one line, every kind of
bad entry (explained, asked again, nothing typed before lost), ``undo``,
``hint``, end of input at any prompt, Russian, and a bad ``--opponent``.
Final scores are recomputed here with :func:`solver.game.arrangement.score`
against the computer's (deterministic) greedy arrangement.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pytest

from solver.analysis.grade import grade
from solver.equilibria.equilibrium import solve
from solver.game.arrangement import Arrangement, score
from solver.game.cards import format_cards, parse_cards
from solver.game.deal import deal
from solver.game.rules import Rules
from solver.models.heuristics import greedy_arrangement, random_arrangement
from solver.play.interactive import Table, play
from solver.play.players import player

CLI = [sys.executable, "-m", "solver.cli", "play", "--seed", "1", "--opponent", "greedy"]
RULES = Rules()
HOLDING = deal(1).holdings[0]  # mirror: the computer holds the same cards
# A game for deal 1: four packets typed, the fifth laid out by itself.
P1 = "7c 7h 7s 8c 8d"
P2 = "9c 9d 9h 9s Tc"
P3 = "Td Th Ts Jc Jd"
P4 = "Jh Qc Qd Qh Kc"
P5 = "Kd Kh Ad Ah As"
NOT_MINE = "Ks"  # deal 1 turns up K♠

PROMPT = re.compile(r"^(?:packet|пакет) (\d) \((\d) (?:points|очк\.)\)> (.*)$")


def test_the_scripted_deal_is_what_the_tests_expect():
    assert sorted(parse_cards(" ".join([P1, P2, P3, P4, P5]))) == sorted(HOLDING)
    assert parse_cards(NOT_MINE)[0] not in HOLDING
    assert deal(1).holdings[1] == HOLDING


# ======================================================================= helpers


def session(stdin: str, *extra: str, command: list[str] | None = None):
    return subprocess.run(
        [*(command or CLI), *extra],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=dict(os.environ, PYTHONIOENCODING="utf-8"),
        timeout=120,
    )


def lines_in(*entries: str) -> str:
    return "".join(f"{entry}\n" for entry in entries)


def transcript(stdout: str) -> list[tuple[int, str]]:
    """(packet number asked, first line answered) for every prompt."""
    out = []
    for line in stdout.splitlines():
        match = PROMPT.match(line)
        if match:
            out.append((int(match.group(1)), match.group(3)))
    return out


def final_line(lines: list[str]) -> str:
    """The line with the game's points (the grades and the session summary follow it)."""
    finals = [line for line in lines if re.match(r"^(Points|Очки): ", line)]
    assert len(finals) == 1, lines
    return finals[0]


def finished(proc) -> tuple[list[str], str]:
    """The five reveal lines and the points line of a finished game."""
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "Traceback" not in proc.stdout
    lines = proc.stdout.splitlines()
    reveal = [line for line in lines if re.match(r"^(pos|поз) \d \(", line)]
    assert len(reveal) == 5
    assert lines[-1] == "Another game? (y/n)> Bye."  # end of input declines another game
    return reveal, final_line(lines)


def expected_final(packets: list[str]) -> str:
    mine = Arrangement.parse(" | ".join(packets))
    result = score(mine, greedy_arrangement(HOLDING, RULES), RULES)
    verdict = {1: "You win!", -1: "The opponent wins.", 0: "A draw."}[int(np.sign(result.margin))]
    return f"Points: you {result.points[0]}, opponent {result.points[1]}. {verdict}"


def check_reveal(reveal: list[str], packets: list[str]) -> None:
    theirs = greedy_arrangement(HOLDING, RULES)
    mine = Arrangement.parse(" | ".join(packets))
    outcomes = score(mine, theirs, RULES).outcomes
    words = {1: "you win it", 0: "tie", -1: "opponent wins it"}
    for i, line in enumerate(reveal):
        assert line.startswith(f"pos {i + 1} ({RULES.position_points[i]}): you ")
        assert f"you {format_cards(parse_cards(packets[i]))} (" in line
        assert f" vs {format_cards(theirs.packets[i])} (" in line
        assert line.endswith(f": {words[int(outcomes[i])]}")


# ======================================================================= full games


def test_full_game_typed_packet_by_packet():
    proc = session(lines_in(P1, P2, P3, P4))
    reveal, last = finished(proc)
    assert proc.stdout.startswith("seed 1\n")
    assert "You play against: greedy" in proc.stdout
    assert [n for n, _ in transcript(proc.stdout)] == [1, 2, 3, 4]
    assert "the last five cards make packet 5: K♦ K♥ A♦ A♥ A♠ (full house)" in proc.stdout
    check_reveal(reveal, [P1, P2, P3, P4, P5])
    assert last == expected_final([P1, P2, P3, P4, P5])


def test_whole_arrangement_on_one_line():
    packets = [P5, P4, P3, P2, P1]  # another order, so another score
    proc = session(lines_in(" | ".join(packets)))
    reveal, last = finished(proc)
    assert [n for n, _ in transcript(proc.stdout)] == [1]
    check_reveal(reveal, packets)
    assert last == expected_final(packets)


def test_bad_entries_are_explained_asked_again_and_nothing_is_lost():
    bad = [
        ("Zz Td Th Ts Jc", "bad entry: card 'Zz'"),  # not a card
        (f"{NOT_MINE} Td Th Ts Jc", "bad entry: K♠ is not one of your cards"),
        ("Td Th Ts Jc", "bad entry: a packet is five cards, got 4"),
        ("Td Th Ts Jc Jd Jh", "bad entry: a packet is five cards, got 6"),
        ("7c Td Th Ts Jc", "bad entry: 7♣ is already in packet 1"),
        ("Td Th Ts Jc 9s", "bad entry: 9♠ is already in packet 2"),
        ("Td Td Th Ts Jc", "bad entry: card 'Td': duplicate"),  # twice in one entry
        ("xyzzy", "Unknown command 'xyzzy'"),
        ("foo", "bad entry: card 'foo'"),
        (f"{P1} | {P2}", "bad entry: expected 5 packets"),  # a bad whole arrangement
        (
            f"{P3} | {P4} | {P5} | {P1} | {NOT_MINE} 9c 9d 9h 9s",
            "bad entry: the arrangement uses K♠, not in the holding; it leaves out 10♣",
        ),
    ]
    proc = session(lines_in(P1, P2, *[entry for entry, _ in bad], P3, P4))
    reveal, last = finished(proc)
    asked = transcript(proc.stdout)
    assert [n for n, _ in asked] == [1, 2] + [3] * len(bad) + [3, 4]
    for (_, answer), (entry, explanation) in zip(asked[2:], bad, strict=False):
        assert answer.startswith(explanation), (entry, answer)
    # Packets 1 and 2 were kept through all of it.
    check_reveal(reveal, [P1, P2, P3, P4, P5])
    assert last == expected_final([P1, P2, P3, P4, P5])


def test_undo_takes_back_the_last_packet():
    entries = ["undo", P1, P2, "undo", P3, "undo", "undo", "undo", P4, P3, P1, "cards", P2]
    proc = session(lines_in(*entries))
    reveal, last = finished(proc)
    asked = transcript(proc.stdout)
    assert asked == [
        (1, "nothing to undo"),
        (1, f"packet 1: {format_cards(parse_cards(P1))} (full house)"),
        (2, f"packet 2: {format_cards(parse_cards(P2))} (four of a kind)"),
        (3, "took back packet 2"),
        (2, f"packet 2: {format_cards(parse_cards(P3))} (full house)"),
        (3, "took back packet 2"),
        (2, "took back packet 1"),
        (1, "nothing to undo"),
        (1, f"packet 1: {format_cards(parse_cards(P4))} (three of a kind)"),
        (2, f"packet 2: {format_cards(parse_cards(P3))} (full house)"),
        (3, f"packet 3: {format_cards(parse_cards(P1))} (full house)"),
        (4, "left: " + format_cards(sorted(parse_cards(P2 + " " + P5), reverse=True))),
        (4, f"packet 4: {format_cards(parse_cards(P2))} (four of a kind)"),
    ]
    check_reveal(reveal, [P4, P3, P1, P2, P5])
    assert last == expected_final([P4, P3, P1, P2, P5])


def hint_lines(stdout: str) -> list[str]:
    return [line.split("> ", 1)[-1] for line in stdout.splitlines() if "Hint (" in line]


def test_hint_is_an_equilibrium_arrangement_with_its_grade():
    # Ask for a hint, then play it: it is in the deal's equilibrium support (loss 0).
    equilibrium = solve(HOLDING, HOLDING, RULES)
    game = session(lines_in("hint", "hint"))  # the same hint twice, then end of input
    hints = hint_lines(game.stdout)
    assert len(hints) == 2 and hints[0] == hints[1]
    assert hints[0].startswith("Hint (an equilibrium arrangement): ")
    text = hints[0].split(": ", 1)[1]
    hinted = Arrangement.parse(text)
    hinted.check(HOLDING, RULES)
    support = {tuple(map(frozenset, a.packets)) for a in equilibrium.row.arrangements}
    assert tuple(map(frozenset, hinted.packets)) in support
    assert "  verdict: best; equilibrium loss 0.000 points" in game.stdout
    played = session(lines_in("hint", text))
    reveal, last = finished(played)
    packets = [p.strip() for p in text.split("|")]
    check_reveal(reveal, packets)
    assert last == expected_final(packets)


def test_hint_keeps_the_packets_laid_out():
    game = session(lines_in(P1, "hint"))
    [hint] = hint_lines(game.stdout)
    hinted = Arrangement.parse(hint.split(": ", 1)[1])
    assert set(hinted.packets[0]) == set(parse_cards(P1))
    hinted.check(HOLDING, RULES)
    loss = grade(hinted, HOLDING, RULES).equilibrium_loss
    if hint.startswith("Hint (an equilibrium arrangement)"):
        assert loss == 0.0
    else:
        assert hint.startswith("Hint (the best completion of your packets against the equilibrium)")
    assert f"equilibrium loss {loss:.3f} points" in game.stdout


def test_both_arrangements_are_graded_and_the_session_summed():
    # Game 1 is deal 1 (seed 1), game 2 deal 2 (seed 2); the computer plays greedy.
    second_holding = deal(2).holdings[0]
    games = [
        (Arrangement.parse(" | ".join([P5, P4, P3, P2, P1])), HOLDING),
        (random_arrangement(second_holding, np.random.default_rng(0)), second_holding),
    ]
    entries = [games[0][0].format(ascii=True), "y", games[1][0].format(ascii=True), "n"]
    proc = session(lines_in(*entries))
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    out = proc.stdout
    assert out.startswith("seed 1\n") and "Another game? (y/n)> seed 2\n" in out
    assert out.count("Your arrangement:") == 2 and out.count("The opponent's arrangement:") == 2
    assert out.splitlines()[-1] == "Another game? (y/n)> Bye."
    expected, points, losses, their_losses = [], [0, 0], [], []
    for mine, holding in games:
        theirs = greedy_arrangement(holding, RULES)
        result = score(mine, theirs, RULES)
        points = [points[0] + result.points[0], points[1] + result.points[1]]
        losses.append(grade(mine, holding, RULES).equilibrium_loss)
        their_losses.append(grade(theirs, holding, RULES).equilibrium_loss)
        expected.append(
            f"Session: {len(losses)} game(s), points {points[0]} : {points[1]}, mean equilibrium "
            f"loss {np.mean(losses):.3f} (opponent {np.mean(their_losses):.3f})"
        )
    assert [line for line in out.splitlines() if line.startswith("Session: ")] == expected
    assert f"  verdict: {grade(games[0][0], HOLDING, RULES).verdict.value}; " in out


@pytest.mark.parametrize(
    "stdin",
    [
        "",
        lines_in(P1),
        lines_in(P1, P2, P3),
        lines_in(P1, "Td Th Ts"),
        lines_in(P1, "undo", "undo"),
        lines_in(P1, "cards", "xyzzy"),
        lines_in(P1, "") + "\n\n",
        P1,  # no newline at the end
        lines_in(P1, P2) + "Td Th",  # a bad entry cut off by the end of input
    ],
    ids=[
        "nothing",
        "one",
        "three",
        "after-bad",
        "after-undo",
        "after-words",
        "blank",
        "no-eol",
        "cut",
    ],
)
def test_end_of_input_at_any_prompt_quits_cleanly(stdin):
    proc = session(stdin)
    assert proc.returncode == 0
    assert proc.stderr == ""
    assert "Traceback" not in proc.stdout
    assert proc.stdout.splitlines()[-1] == "Bye."
    assert "Points:" not in proc.stdout


@pytest.mark.parametrize("word", ["quit", "QUIT", "exit", "q"])
def test_quit(word):
    proc = session(lines_in(P1, word, P2, P3, P4))
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.splitlines()[-1] == "packet 2 (4 points)> Bye."
    assert [n for n, _ in transcript(proc.stdout)] == [1, 2]
    assert "Points:" not in proc.stdout


def test_russian_game():
    entries = [
        "7т 7ч 7п 8т 8б",
        "Кп 10б 10ч 10п Вт",  # К♠ is not in the hand
        "9т 9б 9ч 9п 10т",
        "10б 10ч 10п Вт Вб",
        "Вч Дт Дб Дч Кт",
    ]
    proc = session(lines_in(*entries), "--lang", "ru")
    assert proc.returncode == 0 and proc.stderr == ""
    out = proc.stdout
    assert "Квинтет: разложите 25 карт" in out
    assert "Ваши карты:" in out and "Карты противника:" in out
    assert "Т♠ Т♥ Т♦ К♥ К♦" in out  # Russian ranks
    asked = transcript(out)
    assert [n for n, _ in asked] == [1, 2, 2, 3, 4]
    assert asked[0][1] == "пакет 1: 7♣ 7♥ 7♠ 8♣ 8♦ (Фул)"
    assert asked[1][1] == "ошибка ввода: К♠ не из ваших карт"
    assert "пакет 2 (4 очк.)> " in out
    assert "последние пять карт образуют пакет 5" in out
    reveal = [line for line in out.splitlines() if line.startswith("поз ")]
    assert len(reveal) == 5 and all(" против " in line for line in reveal)
    result = score(
        Arrangement.parse(" | ".join([P1, P2, P3, P4, P5])), greedy_arrangement(HOLDING), RULES
    )
    assert final_line(out.splitlines()).startswith(
        f"Очки: вы {result.points[0]}, противник {result.points[1]}. "
    )
    assert out.splitlines()[-1] == "Ещё партию? (y/n)> До свидания."
    assert "Points" not in out and "Bye" not in out


def test_russian_output_describes_the_opponent_in_russian():
    # BUG: with --lang ru the opponent's description stays English:
    # "Ваш противник: greedy (strongest packet first, weakest at position 1)."
    proc = session("", "--lang", "ru")
    line = next(x for x in proc.stdout.splitlines() if x.startswith("Ваш противник: greedy"))
    description = line.split("(", 1)[1]
    assert re.search("[а-яА-Я]", description), line
    assert "packet" not in proc.stdout


def test_russian_end_of_input():
    proc = session("", "--lang", "ru")
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.splitlines()[-1] == "До свидания."


@pytest.mark.parametrize("opponent", ["clever", "greedy,random", ""])
def test_bad_opponent_exits_2_with_one_line(opponent):
    command = [sys.executable, "-m", "solver.cli", "play", "--seed", "1", "--opponent", opponent]
    proc = session(lines_in(P1), command=command)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "unknown player" in lines[0]


def test_independent_deal_against_br_greedy():
    # The computer plays its own cards; br-greedy answers our greedy arrangement.
    rules = Rules(discard_mode="independent")
    mine, theirs = deal(4, rules).holdings
    ours = greedy_arrangement(mine, rules)
    command = [sys.executable, "-m", "solver.cli", "play", "--seed", "4", "--mode", "independent"]
    proc = session(lines_in(ours.format(ascii=True)), "--opponent", "br-greedy", command=command)
    assert proc.returncode == 0, proc.stderr
    assert f"Opponent holds: {format_cards(sorted(theirs, reverse=True))}" in proc.stdout
    computer = player("br-greedy").arrange(theirs, mine, rules, np.random.default_rng(0))
    result = score(ours, computer, rules)
    assert final_line(proc.stdout.splitlines()).startswith(
        f"Points: you {result.points[0]}, opponent {result.points[1]}."
    )


# ======================================================================= play() in process


def scripted(entries: list[str]):
    queue = list(entries)
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if not queue:
            raise EOFError
        return queue.pop(0)

    return read, prompts


def test_play_function_on_two_packets():
    rules = Rules(position_points=(6, 7), discard_mode="independent")
    mine, theirs = deal(2, rules).holdings
    packet = " ".join(format_cards([c], ascii=True) for c in mine[:5])
    read, prompts = scripted([packet])
    written: list[str] = []
    status = play(mine, theirs, rules, "greedy", np.random.default_rng(0), read, written.append)
    assert status == 0
    assert prompts == ["packet 1 (6 points)> "]
    ours = Arrangement((tuple(mine[:5]), tuple(mine[5:])))
    result = score(ours, greedy_arrangement(theirs, rules), rules)
    assert final_line(written).startswith(
        f"Points: you {result.points[0]}, opponent {result.points[1]}."
    )
    assert written[-1].startswith("Session: 1 game(s), points ")
    assert "Positions score 6, 7 points." in written


def test_play_function_end_of_input_returns_0():
    read, prompts = scripted([])
    written: list[str] = []
    status = play(HOLDING, HOLDING, RULES, "random", np.random.default_rng(0), read, written.append)
    assert status == 0 and written[-1] == "Bye." and len(prompts) == 1


# ======================================================================= Table


@pytest.fixture
def table() -> Table:
    return Table(np.array(HOLDING)[::-1], RULES)


def test_table_holding_and_remaining(table):
    assert table.holding == tuple(sorted(HOLDING))
    assert all(type(c) is int for c in table.holding)
    assert table.remaining == sorted(HOLDING, reverse=True)
    assert not table.complete and table.packets == []
    assert table.show() == "left: " + format_cards(sorted(HOLDING, reverse=True))


def test_table_lays_out_packets_and_the_last_by_itself(table):
    assert table.enter(P1) == "packet 1: 7♣ 7♥ 7♠ 8♣ 8♦ (full house)"
    assert table.packets == [parse_cards(P1)]
    assert sorted(table.remaining) == sorted(set(HOLDING) - set(parse_cards(P1)))
    table.enter(P2)
    table.enter(P3)
    assert not table.complete
    answer = table.enter(P4)
    assert answer.splitlines() == [
        "packet 4: J♥ Q♣ Q♦ Q♥ K♣ (three of a kind)",
        "the last five cards make packet 5: K♦ K♥ A♦ A♥ A♠ (full house)",
    ]
    assert table.complete and table.remaining == []
    arrangement = table.arrangement()
    arrangement.check(HOLDING, RULES)
    assert arrangement == Arrangement.parse(" | ".join([P1, P2, P3, P4, P5]))
    assert table.undo() == "took back packet 5" and not table.complete
    assert len(table.packets) == 4


@pytest.mark.parametrize(
    "entry,message",
    [
        ("Zz Td Th Ts Jc", "bad entry: card 'Zz'"),
        ("Ks Td Th Ts Jc", "bad entry: K♠ is not one of your cards"),
        ("Td Th Ts Jc", "bad entry: a packet is five cards, got 4"),
        ("", "bad entry: a packet is five cards, got 0"),
        ("Td Th Ts Jc Jd Jh", "bad entry: a packet is five cards, got 6"),
        ("8d Td Th Ts Jc", "bad entry: 8♦ is already in packet 1"),
        ("Td Th Ts Jc Td", "bad entry: card 'Td': duplicate"),
        (f"{P2} | {P3}", "bad entry: expected 5 packets separated by '|', got 2"),
        (f"{P2} | {P3} | {P4} | {P5} | {P2}", "bad entry: "),
        (f"{P2} | {P3} | {P4} | {P5} | Ks 7c 7h 7s 8c", "bad entry: "),
    ],
)
def test_table_bad_entry_changes_nothing(table, entry, message):
    table.enter(P1)
    before = (list(table.packets), table.remaining)
    answer = table.enter(entry)
    assert answer.startswith(message), answer
    assert (list(table.packets), table.remaining) == before


def test_table_whole_arrangement(table):
    table.enter(P1)
    answer = table.enter(" | ".join([P5, P4, P3, P2, P1]))
    assert answer.splitlines()[0] == "packet 1: K♦ K♥ A♦ A♥ A♠ (full house)"
    assert len(answer.splitlines()) == 5
    assert table.complete
    assert table.arrangement() == Arrangement.parse(" | ".join([P5, P4, P3, P2, P1]))


def test_table_undo_and_nothing_to_undo(table):
    assert table.undo() == "nothing to undo"
    table.enter(P1)
    table.enter(P2)
    assert table.undo() == "took back packet 2"
    assert table.packets == [parse_cards(P1)]
    assert table.enter(P2).startswith("packet 2: ")  # the cards are free again


def test_table_in_russian():
    table = Table(HOLDING, RULES, "ru")
    assert table.undo() == "нечего отменять"
    assert table.enter("7т 7ч 7п 8т 8б") == "пакет 1: 7♣ 7♥ 7♠ 8♣ 8♦ (Фул)"
    assert table.enter("Кп 9т 9б 9ч 9п") == "ошибка ввода: К♠ не из ваших карт"
    assert table.enter("8б 9т 9б 9ч 9п") == "ошибка ввода: 8♦ уже в пакете 1"
    assert table.enter("9т 9б 9ч 9п") == "ошибка ввода: в пакете пять карт, получено 4"
    assert table.show().startswith("осталось: Т♠")
    assert table.undo() == "возвращён пакет 1"


def test_table_on_two_packets():
    rules = Rules(position_points=(6, 7))
    holding = deal(3, rules).holdings[0]
    table = Table(holding, rules)
    first = holding[5:]
    answer = table.enter(" ".join(format_cards([c], ascii=True) for c in first))
    assert answer.splitlines()[1].startswith("the last five cards make packet 2: ")
    assert table.complete
    table.arrangement().check(holding, rules)
    assert table.arrangement().packets[1] == tuple(sorted(holding[:5]))
