"""Debian's Chromium driven by Playwright, for the browser tests: never a downloaded
browser. Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def browser_or_skip() -> str:
    """Chromium's path; a skip without it, a failure in CI (whose set-up installs it)."""
    if os.path.exists(CHROMIUM) and shutil.which(CHROMIUM):
        return CHROMIUM
    message = f"{CHROMIUM} is missing: scripts/install-chromium installs it"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@contextmanager
def chromium_page(width: int = 1100, height: int = 900) -> Iterator[Any]:
    """A page of a fresh headless Chromium, closed afterwards."""
    executable = browser_or_skip()
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=FLAGS, headless=True)
        try:
            yield browser.new_page(viewport={"width": width, "height": height})
        finally:
            browser.close()
