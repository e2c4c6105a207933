"""The command table of ``quintet``: every command listed, each imported only when it runs."""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys

import pytest

import solver.cli
from solver.cli.main import COMMAND_TABLE, _command_name, load_command

# What a command's process imported, as JSON: the solver modules and the heavy libraries.
PROBE = """
import json, sys
from solver.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
heavy = ("ortools", "scipy", "dask", "distributed", "fastapi", "multiprocessing", "threadpoolctl",
         "shutil")
loaded = [m for m in sys.modules if m.startswith("solver.")]
loaded += [m for m in heavy if m in sys.modules]
print(json.dumps(sorted(loaded)), file=sys.stderr)
"""


def imported(*argv: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=120
    )
    loaded: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    return loaded


def test_the_table_lists_every_command_of_the_command_modules_with_its_help():
    names = [name for name, _, _ in COMMAND_TABLE]
    assert len(names) == len(set(names))
    for name, help_text, module in COMMAND_TABLE:
        assert load_command(name, module).help == help_text
    listed = {(name, module) for name, _, module in COMMAND_TABLE}
    for info in pkgutil.iter_modules(solver.cli.__path__):
        if info.name.startswith("commands"):
            module = importlib.import_module(f"solver.cli.{info.name}")
            for command in module.COMMANDS:
                assert (command.name, info.name) in listed


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (["eval", "As Ks Qs Js Ts"], "eval"),
        (["--version"], None),
        (["-h"], None),
        (["--", "deal", "--seed", "1"], "deal"),
        (["book", "stats"], "book"),
    ],
)
def test_the_command_is_the_first_word_that_is_not_an_option(argv, name):
    assert _command_name(argv) == name


def test_help_lists_every_command_without_importing_them():
    loaded = imported("--help")
    assert not [m for m in loaded if m.startswith("solver.cli.commands")]
    # None of the heavy libraries (shutil comes with the entry points' importlib.metadata).
    assert all(m.startswith("solver.") or m == "shutil" for m in loaded)
    done = subprocess.run(
        [sys.executable, "-m", "solver.cli", "--help"], capture_output=True, text=True, timeout=60
    )
    for name, help_text, _ in COMMAND_TABLE:
        assert name in done.stdout
        assert help_text.split()[0] in done.stdout
    assert "serve" in done.stdout  # from the entry points


def test_eval_imports_only_its_own_command_module():
    loaded = imported("eval", "As Ks Qs Js Ts")
    assert [m for m in loaded if m.startswith("solver.cli.commands")] == ["solver.cli.commands"]
    assert not {"solver.equilibria.double_oracle", "solver.response.frontier"} & set(loaded)


def test_suggest_imports_neither_cp_sat_nor_the_book_nor_the_equilibrium_solver():
    loaded = imported("suggest", "--seed", "1")
    assert "solver.cli.commands_suggest" in loaded
    assert not {
        "ortools",
        "scipy",
        "multiprocessing",
        "solver.book.build",
        "solver.book.source",
        "solver.book.store",
        "solver.equilibria.double_oracle",
        "solver.equilibria.frontier_game",
        "solver.play.players",
        "shutil",  # argparse's default help formatter's (for the terminal's width)
    } & set(loaded)


def test_equilibrium_play_is_suggest_too():
    loaded = imported("suggest", "--seed", "1", "--against", "equilibrium", "--no-book")
    assert {"solver.cli.commands_suggest", "solver.book.source"} <= set(loaded)


BLAS_PROBE = """
import json, os, sys
before = "numpy" in sys.modules
import solver.cli.main
from threadpoolctl import threadpool_info
blas = [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]
print(json.dumps({"before": before, "blas": blas, "env": os.environ.get("OPENBLAS_NUM_THREADS")}))
"""


@pytest.mark.parametrize(("preset", "threads"), [(None, "1"), ("2", "2")])
def test_the_command_runs_blas_on_one_thread_unless_told(preset, threads):
    # numpy's OpenBLAS pool spins for work as it loads (0.07 s of CPU on two cores):
    # importing solver loads no numpy (tests/test_public_api.py), so the command line
    # chooses first.
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if preset is not None:
        env["OPENBLAS_NUM_THREADS"] = preset
    done = subprocess.run(
        [sys.executable, "-c", BLAS_PROBE], env=env, capture_output=True, text=True, timeout=120
    )
    found = json.loads(done.stdout)
    assert found["env"] == threads
    assert not found["before"]
    assert found["blas"]  # numpy's BLAS, as threadpoolctl finds it
    assert all(n == min(int(threads), os.cpu_count() or 1) for n in found["blas"])
