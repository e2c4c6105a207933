"""Shared fixtures: no test writes to the user's real cache directory."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Point XDG_CACHE_HOME (the default solution book's home) at a fresh directory.

    Subprocesses started by tests inherit ``os.environ``, so the CLI's default
    book lands there too.
    """
    cache = tmp_path_factory.mktemp("xdg-cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    return cache
