"""The browser tests' page server and headless Chromium, one of each per test module."""

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.browser import open_browser, serve


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with serve() as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with open_browser() as driver:
        yield driver
