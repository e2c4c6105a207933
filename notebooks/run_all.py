"""Execute every analysis notebook in place, so that its stored outputs are current.

    python notebooks/run_all.py            # all notebooks/*.ipynb, in name order
    python notebooks/run_all.py 03 05      # only the notebooks whose names start so

Each notebook runs top to bottom in a fresh kernel with the current
directory ``notebooks/`` and its own documented parameters (the defaults
at its top, stated in its first markdown cell); environment variables
such as ``QUINTET_NOTEBOOK_DEALS`` override them, which is how the tests
run copies on small parameters.

The kernel is this interpreter: a kernel spec running ``sys.executable`` is
installed into a temporary directory put first on ``JUPYTER_PATH``
(:func:`this_interpreter_kernel`), so neither a ``python3`` spec elsewhere on
the machine nor ``python`` on the PATH can pick another environment.  The
tests import this module for that kernel and for :func:`execute`.

Outputs are kept small and stable: execution counts and timing metadata
are stripped from what is written, figures are PNG.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import nbformat
from ipykernel.kernelspec import install
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient

NOTEBOOK_DIR = Path(__file__).resolve().parent
KERNEL_NAME = "quintet-notebooks"
CELL_TIMEOUT = 3600  # seconds; a loaded machine is slow, a hung cell still fails
MAX_BYTES = 1_000_000  # a committed notebook stays under 1 MB


@contextmanager
def this_interpreter_kernel(name: str = KERNEL_NAME) -> Iterator[str]:
    """A kernel spec running ``sys.executable``, found first on ``JUPYTER_PATH``."""
    previous = os.environ.get("JUPYTER_PATH")
    with tempfile.TemporaryDirectory(prefix="quintet-kernel-") as prefix:
        install(kernel_name=name, prefix=prefix, display_name=f"{name} ({sys.executable})")
        data_dir = str(Path(prefix) / "share" / "jupyter")
        os.environ["JUPYTER_PATH"] = os.pathsep.join(filter(None, [data_dir, previous]))
        try:
            spec = KernelSpecManager().get_kernel_spec(name)
            if not os.path.samefile(spec.argv[0], sys.executable):
                raise RuntimeError(f"kernel {name} runs {spec.argv[0]}, not {sys.executable}")
            yield name
        finally:
            if previous is None:
                os.environ.pop("JUPYTER_PATH", None)
            else:
                os.environ["JUPYTER_PATH"] = previous


def execute(notebook: nbformat.NotebookNode, kernel_name: str) -> nbformat.NotebookNode:
    """Run ``notebook`` (in memory) in ``notebooks/`` with the Agg backend; return it."""
    os.environ.setdefault("MPLBACKEND", "Agg")  # the notebooks switch to inline themselves
    client = NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT,
        kernel_name=kernel_name,
        resources={"metadata": {"path": str(NOTEBOOK_DIR)}},
    )
    client.execute()  # raises CellExecutionError on the first failing cell
    return notebook


def _stable(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Drop what changes on every run without saying anything: timings, kernel paths."""
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
    notebook.metadata.pop("widgets", None)
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    return notebook


def run(paths: list[Path]) -> None:
    """Execute ``paths`` in place, one after the other, printing what each took."""
    with this_interpreter_kernel() as kernel_name:
        for path in paths:
            started = time.perf_counter()
            notebook = execute(nbformat.read(str(path), as_version=4), kernel_name)
            nbformat.write(_stable(notebook), str(path))
            size = path.stat().st_size
            print(f"{path.name}: {time.perf_counter() - started:.0f} s, {size:,} bytes", flush=True)
            if size > MAX_BYTES:
                raise SystemExit(f"{path.name} is {size:,} bytes, over {MAX_BYTES:,}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("prefixes", nargs="*", help="only notebooks whose names start so")
    args = parser.parse_args(argv)
    paths = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
    if args.prefixes:
        paths = [p for p in paths if any(p.name.startswith(x) for x in args.prefixes)]
    if not paths:
        raise SystemExit("no notebook matches")
    run(paths)


if __name__ == "__main__":
    main()
