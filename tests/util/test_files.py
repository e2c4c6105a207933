"""Output files never lose work.

The one atomic-write helper (:mod:`solver.util.files`) leaves the old file
intact when a write fails, the command line checks output paths before the
work (exit 2, one line) and the tournament CSV and mixture files go through it.
"""

from __future__ import annotations

import errno
import json
import os

import numpy as np
import pytest

from solver.errors import FileError
from solver.game.arrangement import Arrangement
from solver.models.mixture import Mixture, write_mixture
from solver.util.files import atomic_output, atomic_write_text, check_output_path
from tests.support.cli import one_line_error, quintet

VALID = '{"old": "valid"}\n'
MIXTURE = Mixture((Arrangement.from_array(np.arange(25).reshape(5, 5)),), (1.0,))


def _old_file(tmp_path):
    path = tmp_path / "old.json"
    path.write_text(VALID, encoding="utf-8")
    return path


def test_atomic_write_replaces_and_leaves_no_temporary(tmp_path):
    path = _old_file(tmp_path)
    atomic_write_text(path, "new\n")
    assert path.read_text(encoding="utf-8") == "new\n"
    assert os.listdir(tmp_path) == ["old.json"]


def test_a_full_disk_leaves_the_old_file_intact(tmp_path, monkeypatch):
    path = _old_file(tmp_path)

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)  # the write fails at its end
    with pytest.raises(FileError, match="No space left on device") as info:
        write_mixture(MIXTURE, path)
    assert str(path) in str(info.value)
    assert path.read_text(encoding="utf-8") == VALID
    assert os.listdir(tmp_path) == ["old.json"]  # the temporary file is gone


def test_an_error_while_writing_leaves_the_old_file_intact(tmp_path):
    path = _old_file(tmp_path)
    with pytest.raises(RuntimeError), atomic_output(path) as handle:
        handle.write("half")
        raise RuntimeError("the computation failed")
    assert path.read_text(encoding="utf-8") == VALID
    assert os.listdir(tmp_path) == ["old.json"]


def test_an_interrupt_keeps_what_was_written_only_when_asked(tmp_path):
    path = _old_file(tmp_path)
    with pytest.raises(KeyboardInterrupt), atomic_output(path) as handle:
        handle.write("rows so far\n")
        raise KeyboardInterrupt
    assert path.read_text(encoding="utf-8") == VALID
    with pytest.raises(KeyboardInterrupt), atomic_output(path, keep_on_interrupt=True) as handle:
        handle.write("rows so far\n")
        raise KeyboardInterrupt
    assert path.read_text(encoding="utf-8") == "rows so far\n"
    with (
        pytest.raises(KeyboardInterrupt),
        atomic_output(path, keep_on_interrupt=lambda: False) as handle,
    ):
        handle.write("header only\n")  # nothing new finished: keep the old file
        raise KeyboardInterrupt
    assert path.read_text(encoding="utf-8") == "rows so far\n"


def test_a_replaced_file_keeps_its_permissions(tmp_path):
    path = _old_file(tmp_path)
    path.chmod(0o640)
    atomic_write_text(path, "new\n")
    assert path.stat().st_mode & 0o777 == 0o640


@pytest.mark.parametrize(
    "name, fragment",
    [
        ("missing/out.json", "does not exist"),
        (".", "is a directory"),
        ("", "not a file name"),
    ],
)
def test_unwritable_output_paths_are_refused(tmp_path, name, fragment):
    target = tmp_path / name if name else ""
    with pytest.raises(FileError, match=fragment):
        check_output_path(target)


def test_a_device_is_not_an_output_file():
    with pytest.raises(FileError, match="not a regular file"):
        check_output_path("/dev/null")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only directories")
def test_a_read_only_directory_is_refused(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(FileError, match="not writable"):
            check_output_path(folder / "out.json")
    finally:
        folder.chmod(0o700)


# ----------------------------------------------------------------- command line


BAD_OUTPUTS = {
    "missing directory": ("missing-dir/out", "does not exist"),
    "a directory": ("sub", "is a directory"),
    "the current directory": (".", "not a file name"),
    "empty": ("", "not a file name"),
    "a device": ("/dev/full", "not a regular file"),
}


@pytest.mark.parametrize("where, fragment", list(BAD_OUTPUTS.values()), ids=list(BAD_OUTPUTS))
def test_equilibrium_out_is_checked_before_the_solve(tmp_path, where, fragment):
    # Exit 2 with nothing on stdout: the check comes before the equilibrium.
    (tmp_path / "sub").mkdir()
    process = quintet("equilibrium", "--seed", "1", "--out", where, cwd=tmp_path)
    one_line_error(process, fragment)
    assert process.stdout == ""


@pytest.mark.parametrize("where, fragment", list(BAD_OUTPUTS.values()), ids=list(BAD_OUTPUTS))
def test_tournament_csv_is_checked_before_the_games(tmp_path, where, fragment):
    (tmp_path / "sub").mkdir()
    process = quintet(
        "tournament", "--players", "greedy,random", "--deals", "2", "--csv", where, cwd=tmp_path
    )
    one_line_error(process, fragment)
    assert process.stdout == ""


def test_equilibrium_out_writes_a_valid_mixture_over_an_old_file(tmp_path):
    path = _old_file(tmp_path)
    process = quintet("equilibrium", "--seed", "1", "--out", str(path), "--json")
    assert process.returncode == 0, process.stderr
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written["format"] == "quintet-mixture/1"
    assert sorted(os.listdir(tmp_path)) == ["old.json"]
