"""``pip install`` puts both halves in place: the JupyterLab panel, prebuilt from ``src/``,
and the server extension, each enabled, as ``jupyter`` lists them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import jupyter_mars

ROOT = Path(jupyter_mars.__file__).resolve().parents[1]


def _listing(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "jupyter", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return re.sub(r"\x1b\[[0-9;]*m", "", done.stdout + done.stderr)  # no colours


def test_jupyterlab_lists_the_panel_enabled_and_ok() -> None:
    version = json.loads((ROOT / "package.json").read_text())["version"]
    listing = _listing("labextension", "list")
    assert re.search(
        rf"jupyter_mars v{re.escape(version)} enabled\s+OK \(python, jupyter_mars\)", listing
    ), listing


def test_the_server_extension_is_enabled_and_loads() -> None:
    listing = _listing("server", "extension", "list")
    assert re.search(r"jupyter_mars\.server\s+enabled", listing), listing
    assert re.search(r"jupyter_mars\.server\s+OK", listing), listing
