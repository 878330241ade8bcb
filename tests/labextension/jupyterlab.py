"""A real JupyterLab server in a process of its own, for the panel's browser tests: its own
configuration, settings, workspaces and runtime directories, a token, a base URL other than
``/``, and every process it started gone when it stops."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.cluster.processes import free_port

TOKEN = "lab-test-token"
BASE_URL = "/jl/"
START_SECONDS = 60
PANEL = "#jupyter-mars-panel"
"""The Mars panel in Lab's left sidebar."""
WAIT = 60_000
"""Milliseconds a browser test waits for the page to show something."""


@dataclass
class Lab:
    url: str
    """The server's address with its base URL, ending in ``/``."""
    root: Path
    process: subprocess.Popen[bytes]
    log: Path

    def open_url(self, path: str) -> str:
        return f"{self.url}{path}?token={TOKEN}"

    def descendants(self) -> list[psutil.Process]:
        try:
            return psutil.Process(self.process.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []


def write_notebook(path: Path, cells: list[str]) -> None:
    """A notebook of code cells, for the Python kernel."""
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "id": f"cell-{i}",
                "metadata": {},
                "outputs": [],
                "source": source,
            }
            for i, source in enumerate(cells)
        ],
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(notebook))


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}api/status?token={TOKEN}", timeout=2) as reply:
            return bool(reply.status == 200)
    except OSError:
        return False


NO_NEWS = {"@jupyterlab/apputils-extension/notification": {"fetchNews": "false"}}
"""No "official Jupyter news?" pop-up over the page."""


def write_settings(directory: Path, settings: dict[str, dict[str, Any]]) -> None:
    """User settings as JupyterLab keeps them: ``<package>/<plugin>.jupyterlab-settings``."""
    for plugin, values in settings.items():
        path = directory / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))


@contextmanager
def jupyter_lab(
    root: Path, *args: str, settings: dict[str, dict[str, Any]] | None = None
) -> Iterator[Lab]:
    """``jupyter lab`` serving ``root`` with these user ``settings``; stopped afterwards,
    with whatever it started."""
    port = free_port()
    home = root.parent / f"{root.name}-jupyter"
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
    }
    argv = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        f"--port={port}",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.base_url={BASE_URL}",
        f"--ServerApp.root_dir={root}",
        f"--IdentityProvider.token={TOKEN}",
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        *args,
    ]
    if os.geteuid() == 0:
        argv.append("--allow-root")
    log = home / "lab.log"
    write_settings(home / "settings", {**NO_NEWS, **(settings or {})})
    with log.open("wb") as out:
        process = subprocess.Popen(argv, env=env, stdout=out, stderr=subprocess.STDOUT)
    lab = Lab(f"http://127.0.0.1:{port}{BASE_URL}", root, process, log)
    try:
        deadline = time.monotonic() + START_SECONDS
        while not _answers(lab.url):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"JupyterLab did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.2)
        yield lab
    finally:
        stop(lab)


def stop(lab: Lab, timeout: float = 30) -> list[psutil.Process]:
    """SIGTERM the server and wait for it; returns its processes that outlived it (then
    kills them, so that a failing test leaves none behind)."""
    started = lab.descendants()
    lab.process.terminate()
    try:
        lab.process.wait(timeout)
    except subprocess.TimeoutExpired:
        lab.process.kill()
        lab.process.wait()
    _, alive = psutil.wait_procs(started, timeout=10)
    for p in alive:
        p.kill()
    return alive


def run_cells(page: Any, first: int, count: int, timeout: float = 60_000) -> None:
    """Run ``count`` code cells of the open notebook from cell ``first`` (1-based) with
    Shift+Enter, as a user does, waiting for each press to move to the next cell: a
    press that lands while the notebook is still taking focus would be lost. A press that
    Lab takes before its kernel connection is up clears the cell's prompt and runs nothing
    (Lab's execution indicator already says idle then); such a cell is run again, as a
    user who saw its empty prompt would."""
    cell = ".jp-Notebook .jp-Cell:nth-child({})"
    page.click(f"{cell.format(first)} .jp-InputArea-prompt")
    page.wait_for_selector(f"{cell.format(first)}.jp-mod-active", timeout=timeout)
    for n in range(first, first + count):
        for attempt in range(RUN_ATTEMPTS):
            if attempt:
                page.click(f"{cell.format(n)} .jp-InputArea-prompt")
                page.wait_for_selector(f"{cell.format(n)}.jp-mod-active", timeout=timeout)
            page.keyboard.press("Shift+Enter")
            page.wait_for_selector(f"{cell.format(n + 1)}.jp-mod-active", timeout=timeout)
            if _ran(page, cell.format(n)):
                break
        else:
            raise AssertionError(f"cell {n} did not run after {RUN_ATTEMPTS} presses")


RUN_ATTEMPTS = 3
RAN_SECONDS = 5
"""How long a pressed cell's prompt may stay empty before the press counts as lost."""


def _ran(page: Any, selector: str) -> bool:
    """Whether the code cell at ``selector`` is queued, running or has run: its prompt
    shows ``[*]`` or a count rather than ``[ ]``."""
    prompt = f"{selector} .jp-InputArea-prompt"
    try:
        page.wait_for_function(
            "s => /\\[[*0-9]+\\]/.test(document.querySelector(s)?.textContent ?? '')",
            arg=prompt,
            timeout=RAN_SECONDS * 1000,
        )
    except PlaywrightTimeout:  # the prompt stayed empty
        return False
    return True
