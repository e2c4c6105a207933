"""A real headless Chromium on a live ``quintet serve`` app (Selenium, the system's chromedriver).

Shared by the browser tests (tests/e2e): :func:`install_chromium` (Debian's
packages, installed when missing), :func:`serve` (uvicorn on a free loopback
port, in a thread), :func:`open_browser`, waits, sizes, screenshots
(``$QUINTET_SCREENSHOTS``, default ``tests/artifacts/``, not committed), the
sideways-scroll check and axe-core (``tests/support/axe.min.js``, axe-core
4.14.1 under the MPL 2.0, injected into the page; never served by the app).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.support import REPO

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SHOTS = Path(os.environ.get("QUINTET_SCREENSHOTS") or REPO / "tests" / "artifacts")
AXE = Path(__file__).resolve().parent / "axe.min.js"
WAIT = 60  # seconds a page may take to show something (solves included)
SIZES = {"desktop": (1366, 900), "laptop": (1280, 800), "phone": (390, 844)}


def install_chromium() -> None:
    """Debian's chromium and chromium-driver, installed when missing (as root), else a failure."""
    if Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists():
        return
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.fail(
            f"{CHROMIUM} and {CHROMEDRIVER} are needed: apt-get install chromium chromium-driver"
        )
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for command in (
        ["apt-get", "update"],
        ["apt-get", "install", "-y", "chromium", "chromium-driver"],
    ):
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=1200)
        if done.returncode != 0:
            pytest.fail(f"{' '.join(command)} failed: {done.stderr.strip()[-500:]}")
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.fail(f"apt-get installed chromium, but {CHROMIUM} or {CHROMEDRIVER} is missing")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serve() -> Iterator[str]:
    """The app on a free loopback port: its base URL."""
    import uvicorn

    from solver.web.app import create_app

    port = _free_port()
    config = uvicorn.Config(
        create_app(time_limit=60), host="127.0.0.1", port=port, log_level="warning"
    )
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 300  # a generous bound, not an expected duration
    while not instance.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert instance.started, "uvicorn did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        instance.should_exit = True
        thread.join(timeout=30)


@contextmanager
def open_browser() -> Iterator[Any]:
    """A headless Chromium with its own profile, logging the page's console."""
    install_chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="quintet-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--window-size=1400,1300",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    options.add_experimental_option("prefs", {"download.default_directory": profile})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(WAIT)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def set_size(driver: Any, size: str) -> None:
    """The viewport of ``size`` (desktop 1366 x 900, laptop 1280 x 800; phone 390 x 844, a touch screen)."""
    width, height = SIZES[size]
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": size == "phone"},
    )


def until(driver: Any, condition: Any, message: str) -> Any:
    """Wait (at most :data:`WAIT` seconds) for ``condition(driver)`` to be true; its value."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    # An element found and then re-rendered by the page between two calls is looked at again.
    return WebDriverWait(
        driver, WAIT, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,)
    ).until(lambda d: condition(d), message=message)


def ready(driver: Any) -> None:
    """Wait until the page says it is ready (its body's ``data-ready``)."""
    until(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-ready"), "page")


def css(driver: Any, selector: str) -> list[Any]:
    """The elements matching ``selector``."""
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, selector)


def shot(driver: Any, name: str, element_id: str | None = None) -> None:
    """A screenshot to the screenshot folder, ``element_id`` scrolled to the top first."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    if element_id:
        driver.execute_script(
            "const e = document.getElementById(arguments[0]); if (e) e.scrollIntoView();",
            element_id,
        )
    until(
        driver,
        lambda d: d.execute_script(
            "return document.getAnimations().every(a => a.playState !== 'running' "
            "|| a.effect.getTiming().iterations === Infinity)"
        ),
        "the page's animations to end",
    )
    driver.save_screenshot(str(SHOTS / f"{name}.png"))


def sideways(driver: Any) -> list[str]:
    """What sticks out of the viewport sideways: the page's width, and elements wider."""
    return driver.execute_script(
        """
        const width = document.documentElement.clientWidth;
        const out = [];
        if (document.documentElement.scrollWidth > width) out.push("page " + document.documentElement.scrollWidth + " > " + width);
        for (const e of document.querySelectorAll("body *")) {
            const r = e.getBoundingClientRect();
            if (r.width && r.right > width + 0.5 && getComputedStyle(e).position !== "fixed"
                && !e.closest(".scroll")) out.push((e.id || e.className || e.tagName) + " " + Math.round(r.right));
        }
        return out.slice(0, 10);
        """
    )


def small_targets(driver: Any) -> list[str]:
    """Visible buttons, links, selects and inputs under 44 x 44 px (tap targets)."""
    return driver.execute_script(
        """
        const out = [];
        for (const e of document.querySelectorAll("button, select, input, a, summary, #hand .card, .button-like")) {
            if (e.classList.contains("sr-only")) continue;  // a file input inside its .button-like label
            const r = e.getBoundingClientRect();
            if (!r.width || getComputedStyle(e).visibility === "hidden") continue;
            if (e.type === "checkbox") continue;  // inside a 44 px label
            if (r.height < 43.5 || r.width < 43.5) out.push((e.id || e.textContent.trim() || e.tagName) + " " + Math.round(r.width) + "x" + Math.round(r.height));
        }
        return out;
        """
    )


def axe_violations(driver: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is."""
    if not driver.execute_script("return typeof window.axe !== 'undefined'"):
        driver.execute_script(AXE.read_text(encoding="utf-8"))
    result = driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        axe.run(document, {resultTypes: ["violations"]}).then(r => done(r.violations.map(v => ({
            id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))}))),
            e => done([{id: "axe failed: " + e, impact: "critical", nodes: []}]));
        """
    )
    return [
        f"{v['id']} ({v['impact']}): {v['nodes']}"
        for v in result
        if v["impact"] in ("serious", "critical")
    ]


def script_errors(driver: Any) -> list[str]:
    """The page's uncaught script errors since the last call (Chromium's console log)."""
    return [e["message"] for e in driver.get_log("browser") if e.get("source") == "javascript"]
