"""The ``quintet`` command line, run as a real subprocess: eval, deal, score, help, errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from solver.game.cards import parse_cards
from solver.game.deal import deal
from solver.game.rules import Rules

CLI = [sys.executable, "-m", "solver.cli"]
SCRIPT = Path(sys.executable).with_name("quintet")

ARR_A = "7c 7d 7h 7s 8c | 8d 8h 8s 9c 9d | 9h 9s Tc Td Th | Ts Jc Jd Jh Js | Qc Qd Qh Qs Kc"
ARR_B = "Ac Ad Ah As Kd | Kh Ks Qc Qd Qh | Qs Jc Jd Jh Js | Tc Td Th Ts 9c | 9d 9h 9s 8c 8d"


def run(*args: str, command: list[str] | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [*(command or CLI), *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=60,
    )


def ok(*args: str) -> str:
    proc = run(*args)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "Traceback" not in proc.stdout
    return proc.stdout


def ok_json(*args: str) -> dict:
    return json.loads(ok(*args, "--json"))


# ======================================================================= entry points


def test_module_entry_point_works():
    proc = run("eval", "As Ks Qs Js Ts")
    assert proc.returncode == 0
    assert proc.stdout.strip() == "A♠ K♠ Q♠ J♠ 10♠: straight flush (strength 839 of 839)"


@pytest.mark.skipif(not SCRIPT.exists(), reason="no quintet console script next to python")
def test_console_script_same_as_module():
    args = ("eval", "Дч Дп Дб Дт 7п", "--lang", "ru")
    script = run(*args, command=[str(SCRIPT)])
    module = run(*args)
    assert script.returncode == module.returncode == 0
    assert script.stdout == module.stdout
    bad = run("eval", "5s 6s 7s 8s 9s", command=[str(SCRIPT)])
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_version():
    assert "quintet-solver" in ok("--version")


# ======================================================================= eval


def test_eval_english():
    out = ok("eval", "Kh Kc Kd 7s 7c")
    assert out.startswith("K♥ K♣ K♦ 7♠ 7♣: full house (strength ")
    assert out.rstrip().endswith("of 839)")


def test_eval_russian():
    out = ok("eval", "Тч Кч Дч Вч 10ч", "--lang", "ru")
    assert out.strip() == "Т♥ К♥ Д♥ В♥ 10♥: Покер (сила 839 из 839)"
    assert "Две двойки" in ok("eval", "10б 10п 7п 7ч Тб", "--lang", "ru")
    assert "Шанс" in ok("eval", "A♥ K♠ 10♥ 8♠ 7♦", "--lang", "ru")


def test_eval_json_uses_ascii_codes():
    payload = ok_json("eval", "Тп 10ч Дб Вт 9п")
    assert payload["cards"] == ["As", "Th", "Qd", "Jc", "9s"]
    assert payload["category"] == "high_card"
    assert payload["category_name"] == "high card"
    assert payload["max_strength"] == 839
    assert isinstance(payload["strength"], int) and 0 <= payload["strength"] <= 839
    assert payload["rules"] == {
        "position_points": [3, 4, 5, 6, 7],
        "discard_mode": "mirror",
        "ace_low_straight": False,
        "flush_beats_full_house": False,
    }
    # JSON output is ASCII-only for cards even with --lang ru (which it ignores, saying so).
    proc_ru = run("eval", "Тп 10ч Дб Вт 9п", "--json", "--lang", "ru")
    assert proc_ru.returncode == 0 and "предупреждение: --lang" in proc_ru.stderr  # in Russian
    assert json.loads(proc_ru.stdout)["cards"] == payload["cards"]


def test_eval_json_strengths_order_hands():
    a = ok_json("eval", "Th Tc Td 7s 7c")["strength"]
    b = ok_json("eval", "9s 9h 9d Ks Kh")["strength"]
    assert a > b  # 002: three tens and two sevens beat three nines and two kings


def test_eval_ace_low_straight_flag():
    hand = "Ac 7d 8h 9s Th"
    assert "high card" in ok("eval", hand)
    assert ": straight (" in ok("eval", hand, "--ace-low-straight")
    default = ok_json("eval", hand)
    low = ok_json("eval", hand, "--ace-low-straight")
    assert (default["category"], low["category"]) == ("high_card", "straight")
    assert low["rules"]["ace_low_straight"] is True
    # The lowest straight: below J-10-9-8-7.
    jack = ok_json("eval", "Jc Td 9h 8s 7c", "--ace-low-straight")["strength"]
    assert low["strength"] == jack - 1
    suited = ok_json("eval", "Ac 7c 8c 9c Tc", "--ace-low-straight")
    assert suited["category"] == "straight_flush"


def test_eval_flush_beats_full_house_flag():
    flush = "As Qs Ts 9s 8s"
    full = "Kh Kd Kc 7h 7d"
    default = ok_json("eval", flush)["strength"], ok_json("eval", full)["strength"]
    manila = (
        ok_json("eval", flush, "--flush-beats-full-house")["strength"],
        ok_json("eval", full, "--flush-beats-full-house")["strength"],
    )
    assert default[0] < default[1]
    assert manila[0] > manila[1]


# ======================================================================= deal


def test_deal_seed_reproducible_and_matches_library():
    first = ok("deal", "--seed", "42")
    assert first == ok("deal", "--seed", "42")
    assert first != ok("deal", "--seed", "43")
    assert "seed 42" in first and "mirror" in first
    payload = ok_json("deal", "--seed", "42")
    d = deal(42, Rules())
    assert payload["seed"] == 42
    assert payload["dealer"] == d.dealer + 1
    for player in (0, 1):
        assert sorted(parse_cards(payload["holdings"][player])) == list(d.holdings[player])
        assert sorted(parse_cards(payload["exposed"][player])) == list(d.exposed[player])
        assert len(payload["holdings"][player]) == 25 and len(payload["exposed"][player]) == 7
        assert all(len(code) == 2 and code.isascii() for code in payload["holdings"][player])
    assert payload["holdings"][0] == payload["holdings"][1]
    assert payload["rules"]["discard_mode"] == "mirror"


def test_deal_independent_mode():
    payload = ok_json("deal", "--seed", "42", "--mode", "independent")
    assert payload["rules"]["discard_mode"] == "independent"
    assert payload["exposed"][0] != payload["exposed"][1]
    assert len(payload["cuts"]) == 2
    d = deal(42, Rules(discard_mode="independent"))
    assert sorted(parse_cards(payload["exposed"][0])) == list(d.exposed[0])
    assert sorted(parse_cards(payload["exposed"][1])) == list(d.exposed[1])
    for player in (0, 1):
        held = set(parse_cards(payload["holdings"][player]))
        assert held | set(parse_cards(payload["exposed"][player])) == set(range(32))
    assert "independent" in ok("deal", "--seed", "42", "--mode", "independent")


def test_deal_without_seed_prints_a_seed():
    payload = ok_json("deal")
    assert isinstance(payload["seed"], int)
    # The printed seed reproduces the deal.
    again = ok_json("deal", "--seed", str(payload["seed"]))
    assert again["holdings"] == payload["holdings"]


def test_deal_russian():
    out = ok("deal", "--seed", "5", "--lang", "ru")
    assert "Сдача" in out and "зеркальный" in out
    assert out.count("\n") == 5  # header, 2 turned-up lines, 2 holdings


# ======================================================================= score


def test_score_human():
    out = ok("score", ARR_A, ARR_B)
    lines = out.strip().splitlines()
    assert len(lines) == 7  # header, five positions, total
    assert "13 : 12" in lines[-1] and "player 1 wins by 1" in lines[-1]
    assert lines[1].split()[:2] == ["1", "3"] and lines[1].rstrip().endswith("loss")
    assert lines[5].split()[:2] == ["5", "7"] and lines[5].rstrip().endswith("win")
    ru = ok("score", ARR_A, ARR_B, "--lang", "ru")
    assert "итого" in ru and "Каре" in ru


def test_score_json():
    payload = ok_json("score", ARR_A, ARR_B)
    assert payload["outcomes"] == [-1, -1, -1, 1, 1]
    assert payload["points"] == [13, 12]
    assert payload["margin"] == 1
    assert payload["result"] == "win"
    assert payload["arrangements"][0][0] == ["7c", "7d", "7h", "7s", "8c"]
    reverse = ok_json("score", ARR_B, ARR_A)
    assert reverse["points"] == [12, 13] and reverse["result"] == "loss"
    assert reverse["outcomes"] == [1, 1, 1, -1, -1]


def test_score_rule_flag_changes_result():
    # Flush against full house at every position: the option turns a loss into a win.
    flushes = "As Qs Ts 9s 8s | Ah Qh Th 9h 8h | Ad Qd Td 9d 8d | Ac Qc Tc 9c 8c | Ks Js 7s 7h 7d"
    fulls = "Kh Kd Kc 7h 7d | Qh Qd Qc 8h 8d | Jh Jd Jc 9h 9d | Th Td Tc 8s 8c | As Ad Ah Ac Ks"
    default = ok_json("score", flushes, fulls)
    manila = ok_json("score", flushes, fulls, "--flush-beats-full-house")
    assert default["outcomes"][:4] == [-1, -1, -1, -1]
    assert manila["outcomes"][:4] == [1, 1, 1, 1]


# ======================================================================= help


NOTATION_MARKERS = ("card notation", "В Д К Т", "c d h s", "♣ ♦ ♥ ♠")


def test_main_help_mentions_notation():
    out = ok("--help")
    for marker in NOTATION_MARKERS:
        assert marker in out
    for command in ("eval", "deal", "score"):
        assert command in out


@pytest.mark.parametrize("command", ["eval", "deal", "score"])
def test_command_help_mentions_notation(command):
    out = ok(command, "--help")
    assert f"usage: quintet {command}" in out
    for marker in NOTATION_MARKERS:
        assert marker in out
    for flag in ("--json", "--lang", "--mode", "--ace-low-straight", "--flush-beats-full-house"):
        assert flag in out


# ======================================================================= bad input


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (("eval", "As Ks Qs Js 5s"), ["'5s'", "not in a 32-card deck"]),
        (("eval", "Тп Кп Дп Вп 6п"), ["'6п'", "not in a 32-card deck"]),
        (("eval", "As Ks Qs Js Tx"), ["'Tx'", "unknown suit"]),
        (("eval", "As Ks Qs Js Xs"), ["'Xs'", "unknown rank"]),
        (("eval", "As Ks Qs Js As"), ["'As'", "duplicate"]),
        (("eval", "As Ks Qs Js A♠"), ["'A♠'", "duplicate"]),
        (("eval", "As Ks Qs Js"), ["expected 5 cards, got 4"]),
        (("eval", "As Ks Qs Js Ts 9s"), ["expected 5 cards, got 6"]),
        (("eval", ""), ["expected 5 cards, got 0"]),
        (("score", ARR_A, "As Ks Qs Js Ts"), ["expected 5 packets", "got 1"]),
        (("score", ARR_A, ARR_B + " | 7c 7d 7h 7s 8c"), ["expected 5 packets", "got 6"]),
        (
            ("score", ARR_A.replace("Kc", "5c"), ARR_B),
            ["packet 5", "'5c'", "not in a 32-card deck"],
        ),
        (("score", ARR_A.replace("Kc", "Kz"), ARR_B), ["packet 5", "'Kz'", "unknown suit"]),
        (("score", ARR_A.replace("Kc", "Qc"), ARR_B), ["'Qc'", "duplicate"]),
        (("score", ARR_A.replace("Kc", "7c"), ARR_B), ["7♣", "twice"]),
        (("score", ARR_A.replace(" Kc", ""), ARR_B), ["packet 5", "4 cards"]),
        (("score", ARR_A), ["ARRANGEMENT2"]),
        (("frobnicate",), ["'frobnicate'", "invalid choice"]),
        # A bare ``quintet`` lists the commands instead: tests/cli/test_usage_hints.py.
        (("deal", "--seed", "x"), ["'x'", "--seed"]),
        (("deal", "--seed", "-1"), ["'-1'", "--seed"]),
        (("deal", "--seed", "1.5"), ["'1.5'", "--seed"]),
        (("deal", "--mode", "shuffle"), ["'shuffle'", "--mode"]),
        (("eval", "As Ks Qs Js Ts", "--lang", "de"), ["'de'", "--lang"]),
        (("eval", "As Ks Qs Js Ts", "--frob"), ["--frob"]),
    ],
)
def test_bad_input_one_line_exit_2(args, fragments):
    proc = run(*args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert proc.stderr.endswith("\n")
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    assert lines[0].startswith("quintet")


def test_main_function_returns_status(capsys):
    from solver.cli.main import main

    assert main(["eval", "As Ks Qs Js Ts"]) == 0
    assert "straight flush" in capsys.readouterr().out
    assert main(["eval", "As Ks Qs Js 5s"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "'5s'" in captured.err and captured.err.count("\n") == 1
    assert main(["nope"]) == 2


@pytest.mark.parametrize(
    "args",
    [
        ("eval", "As Ks Qs Js Ts", "extra\nargument"),  # unrecognized positional
        ("eval", "As Ks Qs Js Ts", "--fr\nob"),  # unrecognized option
    ],
)
def test_unrecognized_argument_with_newline_still_one_line(args):
    # solver/cli.py: "Any input error prints one line on stderr and exits with status 2."
    # argparse's "unrecognized arguments: ..." message joins the raw arguments, so an
    # argument containing a newline spreads the error over two lines (other messages
    # quote the bad value with repr() and stay on one line).
    proc = run(*args)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stdout + proc.stderr
    assert len(proc.stderr.splitlines()) == 1, proc.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("frob\nnicate",),
        ("deal", "--seed", "1\n2"),
        ("eval", "As Ks Qs Js Ts", "--lang", "e\nn"),
        ("eval", "As\nKs Qs Js 5s"),
        ("score", ARR_A, ARR_B.replace(" | ", "\n| ", 1).replace("Kd", "K\u2028d")),
    ],
)
def test_newlines_in_values_stay_one_line(args):
    proc = run(*args)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stdout + proc.stderr
    assert len(proc.stderr.split("\n")) == 2 and proc.stderr.endswith("\n"), proc.stderr
