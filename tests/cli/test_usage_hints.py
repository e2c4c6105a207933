"""The command line's usage errors say what was meant: a bare ``quintet`` lists the commands,
cards typed without quotes get the quoted command line, ``--json`` where there is none says why."""

from __future__ import annotations

import pytest

from solver.cli.main import COMMAND_TABLE, main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_a_bare_quintet_lists_the_commands_and_exits_2(capsys):
    status, out, err = run(capsys)
    assert status == 2 and out == ""
    for name, _, _ in COMMAND_TABLE:
        assert f"\n    {name}" in err
    assert "quintet COMMAND --help" in err.splitlines()[-1]
    assert "the following arguments are required" not in err


def test_help_and_version_still_answer_without_a_command(capsys):
    assert run(capsys, "--version")[0] == 0
    status, out, _ = run(capsys, "--help")
    assert status == 0 and "suggest" in out


@pytest.mark.parametrize(
    ("argv", "quoted"),
    [
        (["suggest", "As", "Kd", "Qh"], 'quintet suggest "As Kd Qh"'),
        (["eval", "As", "Ks", "Qs", "Js", "Ts"], 'quintet eval "As Ks Qs Js Ts"'),
        (
            ["suggest", "As", "Kd", "--opponent-cards", "7c", "8c", "--seed", "3"],
            'quintet suggest "As Kd" --opponent-cards "7c 8c" --seed 3',
        ),
        (["suggest", "Тп", "Дч", "10h"], 'quintet suggest "Тп Дч 10h"'),
    ],
)
def test_unquoted_cards_get_the_command_line_with_them_quoted(capsys, argv, quoted):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1, err
    assert err.startswith(f"quintet {argv[0]}: unrecognized arguments: ")
    assert err.rstrip("\n").endswith(f"quote the cards as one argument: {quoted}")


def test_unquoted_cards_in_russian(capsys):
    status, _, err = run(capsys, "suggest", "As", "Kd", "Qh", "--lang", "ru")
    assert status == 2 and err.count("\n") == 1
    assert err == (
        "quintet suggest: непонятные аргументы: Kd Qh; карты пишутся в кавычках, одним "
        'аргументом: quintet suggest "As Kd Qh" --lang ru\n'
    )


def test_arguments_that_are_not_cards_get_no_quoting_hint(capsys):
    status, _, err = run(capsys, "eval", "As Ks Qs Js Ts", "hello")
    assert status == 2
    assert err == "quintet eval: unrecognized arguments: hello\n"


@pytest.mark.parametrize(
    ("command", "english", "russian"),
    [
        (
            "train",
            "--json is not available in the interactive series "
            "(--history FILE.jsonl keeps its records as JSON)",
            "--json недоступен в интерактивной серии (--history FILE.jsonl хранит записи в JSON)",
        ),
        (
            "play",
            "--json is not available in the interactive game",
            "--json недоступен в интерактивной игре",
        ),
    ],
)
def test_the_interactive_commands_have_no_json_flag_and_say_why(capsys, command, english, russian):
    status, out, _ = run(capsys, command, "--help")
    assert status == 0 and "--json" not in out
    assert run(capsys, command, "--json") == (2, "", f"quintet {command}: {english}\n")
    assert run(capsys, command, "--json", "--lang", "ru") == (
        2,
        "",
        f"quintet {command}: {russian}\n",
    )


def test_the_docs_say_which_commands_lack_json_and_that_training_gives_no_hint():
    import argparse
    from pathlib import Path

    from solver.cli.main import build_parser
    from solver.play.phrases import TEXT
    from solver.util.language import Lang

    docs = Path(__file__).resolve().parents[2] / "docs"
    parser = build_parser(complete=True)
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    without = {n for n, p in commands.choices.items() if "--json" not in p._option_string_actions}
    assert without == {"play", "train"}
    howto = (docs / "how-to.md").read_text(encoding="utf-8")
    assert "Every command but `play` and `train` takes `--json`" in howto
    tutorial = " ".join((docs / "tutorials" / "grading.md").read_text(encoding="utf-8").split())
    assert TEXT[Lang.EN]["no_hint"].startswith("No hints in training")
    assert '`hint` answers "No hints in training"' in tutorial
    assert "`train` has no `--json`" in tutorial
