"""A command a face offers: its name, its arguments and what it runs.

The command line builds its sub-commands from these; a layer above the
command line (the web app's ``serve``) offers its own through the
``quintet.commands`` entry points, without either face importing the other.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Command"]


@dataclass(frozen=True)
class Command:
    """One sub-command: name, help, its arguments and its action.

    ``run`` returns an object with ``text`` and ``payload`` (what is printed,
    or printed as JSON), or None when it printed its own output.  ``flags``
    maps the request's field names to this command's options, so that an
    error about ``time_limit`` reads as one about ``--time-limit``.  ``no_json``:
    why the command has no ``--json`` (None: it has one), said when it is asked for.
    """

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], Any]
    rules: bool = True
    flags: Mapping[str, str] = field(default_factory=dict)
    no_json: str | None = None
