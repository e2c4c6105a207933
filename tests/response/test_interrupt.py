"""Ctrl-C during a CP-SAT solve (:mod:`solver.response.interrupt`).

A real SIGINT stops the search and raises :exc:`KeyboardInterrupt`; a solve
stopped early by its own limit or by ``stop_search`` is an ordinary result,
and Python's SIGINT handling is as it was after every solve.  The command
line's Ctrl-C is in tests/cli/test_interrupts.py.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import threading

from ortools.sat.python import cp_model

from solver.response import interrupt

# A Golomb ruler of 13 marks: CP-SAT finds rulers at once and needs far
# longer than any test to prove the shortest.
GOLOMB = """
from ortools.sat.python import cp_model
model = cp_model.CpModel()
marks = [model.new_int_var(0, 169, f"m{i}") for i in range(13)]
model.add(marks[0] == 0)
for a, b in zip(marks, marks[1:]):
    model.add(a < b)
model.add_all_different([b - a for i, a in enumerate(marks) for b in marks[i + 1:]])
model.minimize(marks[-1])
solver = cp_model.CpSolver()
solver.parameters.num_workers = 1
"""


class _StopAtFirstSolution(cp_model.CpSolverSolutionCallback):
    def __init__(self, solver: cp_model.CpSolver) -> None:
        super().__init__()
        self.solver = solver

    def on_solution_callback(self) -> None:
        self.solver.stop_search()


def _golomb(limit: float):
    scope: dict = {}
    exec(GOLOMB, scope)
    scope["solver"].parameters.max_time_in_seconds = limit
    return scope["solver"], scope["model"]


def _sigint_state() -> tuple:
    wakeup = signal.set_wakeup_fd(-1)
    signal.set_wakeup_fd(wakeup)
    return signal.getsignal(signal.SIGINT), wakeup


def test_a_real_sigint_stops_the_search_and_raises_keyboard_interrupt():
    # SIGINT is sent once CP-SAT's own (C++) log shows a solution, so the main
    # thread is inside the search, running no Python (no callbacks) that could
    # raise KeyboardInterrupt by itself.  The limit is 600 s: a search left
    # running hits the timeout below.
    script = GOLOMB + textwrap.dedent("""
        import signal
        from solver.response import interrupt

        solver.parameters.log_search_progress = True
        solver.parameters.max_time_in_seconds = 600
        try:
            print("returned", interrupt.solve(solver, model))
        except KeyboardInterrupt:
            print("interrupted")
        print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)
        print(signal.set_wakeup_fd(-1))
    """)
    command = [sys.executable, "-c", script]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    for line in process.stdout:
        if line.startswith("#1 "):  # the first solution: searching
            break
    else:
        raise AssertionError(process.communicate())  # ended without searching
    process.send_signal(signal.SIGINT)
    try:
        stdout, stderr = process.communicate(timeout=60)
    finally:
        process.kill()  # no search left running if it did not stop
    assert process.returncode == 0, stderr
    assert stdout.splitlines()[-3:] == ["interrupted", "True", "-1"], stdout[-2000:]


def test_a_search_stopped_by_its_own_tiny_limit_is_a_result():
    before = _sigint_state()
    solver, model = _golomb(0.01)
    status = interrupt.solve(solver, model)
    assert status in (cp_model.FEASIBLE, cp_model.UNKNOWN)
    assert _sigint_state() == before == (signal.default_int_handler, -1)


def test_a_search_stopped_early_by_stop_search_is_a_result():
    # Stopped long before its limit without a proof: the timing guess this
    # replaced took that for Ctrl-C.
    solver, model = _golomb(600)
    original = solver.solve
    solver.solve = lambda model: original(model, _StopAtFirstSolution(solver))
    assert interrupt.solve(solver, model) == cp_model.FEASIBLE
    assert _sigint_state() == (signal.default_int_handler, -1)


def test_off_the_main_thread_a_solve_touches_no_signal_state():
    solver, model = _golomb(0.01)
    seen = []
    worker = threading.Thread(target=lambda: seen.append(interrupt.solve(solver, model)))
    worker.start()
    worker.join()
    assert seen and seen[0] in (cp_model.FEASIBLE, cp_model.UNKNOWN)
    assert _sigint_state() == (signal.default_int_handler, -1)
