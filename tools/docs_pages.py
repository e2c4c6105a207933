"""The docs site's generated pages (run by mkdocs-gen-files at every ``mkdocs build``).

* ``reference/commands.md``: from the argument parser (:mod:`solver.cli.reference`);
* ``reference/formats.md``: from the JSON Schema files (:mod:`solver.schemas.render`);
* ``reference/api.md``: one mkdocstrings entry per name of ``solver.__all__``, from
  the module that defines it, so the API reference is every public name of
  ``import solver`` with its docstring and doctests.
"""

from __future__ import annotations

import os

import mkdocs_gen_files

import solver
from solver.cli.reference import command_reference
from solver.schemas.render import formats_page

os.environ.setdefault("XDG_CACHE_HOME", "$XDG_CACHE_HOME")  # the help's default book path


def defined_at(name: str) -> str:
    """The dotted path of the object ``solver.NAME`` in the module that defines it."""
    target = solver._LAZY.get(name)
    if target is not None:
        module, _, attribute = target.partition(":")
        return f"{module}.{attribute or name}"
    if name == "__version__":
        return "solver.version.__version__"
    value = getattr(solver, name)
    return f"{value.__module__}.{value.__name__}"


def api_page() -> str:
    """Every public name of ``solver``, grouped by the module that defines it."""
    by_module: dict[str, list[tuple[str, str]]] = {}
    for name in solver.__all__:
        path = defined_at(name)
        by_module.setdefault(path.rsplit(".", 1)[0], []).append((name, path))
    lines = [
        "# API reference",
        "",
        "Everything `import solver` offers (`solver.__all__`), with its docstring and "
        "examples (every example is a doctest the test suite runs), grouped by the module "
        "that defines it; `from solver import NAME` imports each. Generated from the "
        "docstrings when this site was built.",
    ]
    for module in sorted(by_module):
        lines += ["", f"## `{module}`", ""]
        for name, path in sorted(by_module[module], key=lambda item: item[0].lower()):
            lines += [f"::: {path}", "    options:", f"      heading: solver.{name}", ""]
    return "\n".join(lines) + "\n"


with mkdocs_gen_files.open("reference/commands.md", "w") as page:
    page.write(command_reference())
with mkdocs_gen_files.open("reference/formats.md", "w") as page:
    page.write(formats_page())
with mkdocs_gen_files.open("reference/api.md", "w") as page:
    page.write(api_page())
