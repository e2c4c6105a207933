"""Helpers shared by the tests: independent reference implementations, the CLI runner, data.

``REPO`` is the checkout's root and ``DATA`` the folder of the tests' fixture files,
so no test needs to know how deep in ``tests/`` it sits.
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
