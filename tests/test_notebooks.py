"""The analysis notebooks execute cleanly, headless, with small parameters (issue #6).

Every ``notebooks/*.ipynb`` is run top to bottom by nbclient in a fresh kernel
with the current directory ``notebooks/``.  The heavy parameters are made
small through the environment variables the notebooks read at the top
(``QUINTET_NOTEBOOK_DEALS``, ``QUINTET_NOTEBOOK_EQ_SECONDS``), so each one runs
in well under a minute.

The kernel is this interpreter: a kernel spec running ``sys.executable`` is
installed into a temporary directory put first on ``JUPYTER_PATH``, so neither a
``python3`` spec elsewhere on the machine nor ``python`` on the PATH can pick
another environment (the venv's own ``python3`` spec runs plain ``python``).

Cheap checks come first: the notebooks are stored without outputs and define
no functions or classes (all computation is library calls).
"""

from __future__ import annotations

import ast
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from ipykernel.kernelspec import install
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient

NOTEBOOK_DIR = Path(__file__).resolve().parents[1] / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
EXPECTED = {"01_combinations", "02_best_response", "03_equilibrium", "04_rule_options"}

# Small parameters for every notebook; a few notebooks get smaller ones still.
SMALL = {"QUINTET_NOTEBOOK_DEALS": "2", "QUINTET_NOTEBOOK_EQ_SECONDS": "5"}
SMALLER = {"04_rule_options": {"QUINTET_NOTEBOOK_DEALS": "1"}}  # four frontiers per deal
CELL_TIMEOUT = 600  # seconds; a loaded machine is slow, a hung cell still fails
KERNEL_NAME = "quintet-notebooks-test"


def _read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(str(path), as_version=4)


def test_all_notebooks_present() -> None:
    assert {path.stem for path in NOTEBOOKS} >= EXPECTED


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_stored_without_outputs(path: Path) -> None:
    notebook = _read(path)
    nbformat.validate(notebook)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, "clear the outputs"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_logic_of_their_own(path: Path) -> None:
    """No function or class definitions: computation is done by library calls."""
    for cell in _read(path).cells:
        if cell.cell_type != "code":
            continue
        source = "\n".join(
            line for line in cell.source.splitlines() if not line.lstrip().startswith("%")
        )
        for node in ast.walk(ast.parse(source)):
            assert not isinstance(
                node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda
            ), f"{path.name} defines logic: {ast.unparse(node)[:80]}"
    assert "import solver" in "\n".join(c.source for c in _read(path).cells)


@pytest.fixture(scope="module")
def kernel_name(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A kernel spec that runs this interpreter, found first on JUPYTER_PATH."""
    prefix = tmp_path_factory.mktemp("jupyter-prefix")
    install(kernel_name=KERNEL_NAME, prefix=str(prefix), display_name="quintet notebooks test")
    data_dir = prefix / "share" / "jupyter"
    with pytest.MonkeyPatch.context() as patch:
        previous = os.environ.get("JUPYTER_PATH")
        patch.setenv("JUPYTER_PATH", os.pathsep.join(filter(None, [str(data_dir), previous])))
        spec = KernelSpecManager().get_kernel_spec(KERNEL_NAME)
        assert os.path.samefile(spec.argv[0], sys.executable), spec.argv
        yield KERNEL_NAME


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_executes(path: Path, kernel_name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in {**SMALL, **SMALLER.get(path.stem, {})}.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("MPLBACKEND", "Agg")  # the notebooks switch to inline themselves
    notebook = _read(path)
    client = NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT,
        kernel_name=kernel_name,
        resources={"metadata": {"path": str(NOTEBOOK_DIR)}},
    )
    client.execute()  # raises CellExecutionError on the first failing cell
    outputs = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    figures = [o for o in outputs if "image/png" in o.get("data", {})]
    assert figures, f"{path.name} drew no figure"
