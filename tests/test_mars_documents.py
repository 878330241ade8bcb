"""The Mars documents' commands and snippets, run as ``docs/mars-documents.md`` writes them.

Each ``<!-- walk DOC commands -->`` block there is started one process a line (each
awaited until it prints that it started), then the ``<!-- walk DOC python -->`` blocks that
follow it run, each in a fresh interpreter, with a few lines of checks added after the
snippet: the snippet itself is run exactly as the page shows it.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from jupyter_mars.launcher.local import _Process

PAGE = Path(__file__).resolve().parents[1] / "docs" / "mars-documents.md"
BLOCK = re.compile(r"<!-- walk (\d{3}) (commands|python) -->\n```\w*\n(.*?)```", re.DOTALL)
STARTED = re.compile(r"(?:Mars \w+ started at|started at) (\S+)")
BIN = Path(sys.executable).parent


@dataclass
class Walk:
    """One ``commands`` block of a document and the ``python`` blocks after it."""

    document: str
    commands: list[str]
    snippets: list[str] = field(default_factory=list)


def walks() -> list[Walk]:
    found: list[Walk] = []
    for document, role, body in BLOCK.findall(PAGE.read_text()):
        if role == "commands":
            lines = [line.strip() for line in body.splitlines() if line.strip()]
            found.append(Walk(document, lines))
        else:
            assert found, f"{document}: a python block before any commands block"
            assert found[-1].document == document, f"{document}: python after another's commands"
            found[-1].snippets.append(body)
    return found


WALKS = walks()

# Checked after every snippet, in its interpreter, on the names it defined: what the
# documents compute, against NumPy and pandas on the same data.
CHECK = """
import numpy as np
import pandas as pd
_names = dict(globals())
if "b" in _names and "a" in _names:
    _data = a.execute().fetch()
    assert np.allclose(b.fetch(), np.inner(_data, _data))
    if "df" in _names:
        pd.testing.assert_series_equal(df.fetch(), pd.DataFrame(_data).sum())
    print("CHECKED inner")
if "future" in _names:
    assert future.done()
    assert np.isclose(future.result().fetch(), a.execute().fetch().mean())
    print("CHECKED future")
if "o" in _names and "df2" in _names:
    import jupyter_mars
    assert not client.running  # stop_server() stopped it; read what it wrote here
    jupyter_mars.new_session()
    _written = o.get_table("test_mars_persist").to_df().execute().fetch()
    _expected = pd.DataFrame({"col1": [1, 1, 1, 2, 2, 2], "col2": [1, 2, 3, 1, 2, 3]})
    pd.testing.assert_frame_equal(_written.reset_index(drop=True), _expected)
    print("CHECKED tables")
"""


def start(command: str) -> _Process:
    """The command's process, as a shell runs it: ``NAME=value`` words before the
    program set its environment; ``python`` is this interpreter."""
    argv = shlex.split(command)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("MARS_TOKEN", None)  # as a person's shell: the token is generated and found
    while "=" in argv[0]:
        name, _, value = argv.pop(0).partition("=")
        env[name] = value
    program = Path(sys.executable) if argv[0] == "python" else BIN / argv[0]
    assert program.exists(), f"{argv[0]} is not installed beside {sys.executable}"
    process = _Process([str(program), *argv[1:]], env)
    try:
        process.wait_for(STARTED, 60)
    except BaseException:
        process.stop()
        raise
    return process


def run_snippet(snippet: str, cwd: Path) -> str:
    code = snippet + "\n" + CHECK + "\nprint('WALKED')\n"
    env = {**os.environ}
    env.pop("MARS_TOKEN", None)
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=cwd,
        env=env,
        check=False,
    )
    failed = f"the snippet failed ({done.returncode}):\n{snippet}\n--- stderr:\n"
    failed += done.stderr[-3000:]
    assert done.returncode == 0, failed
    assert "WALKED" in done.stdout, failed
    assert "CHECKED" in done.stdout, f"nothing of the snippet was checked:\n{snippet}"
    return done.stdout


def _id(walk: Walk) -> str:
    programs = [next(w for w in shlex.split(c) if "=" not in w) for c in walk.commands]
    return f"{walk.document}-{'+'.join(programs)}"


DISKS = Path("/tmp/mars-walk")
"""Where the page's spill disks are (002's ``/mnt/disk2``, ``/mnt/disk3``): made before a
walk, as the document's machines have them, and removed after it."""


@pytest.mark.parametrize("walk", WALKS, ids=[_id(w) for w in WALKS])
def test_a_document_runs_as_written(walk: Walk, tmp_path: Path) -> None:
    with ExitStack() as stack:
        for disk in ("disk2", "disk3"):
            (DISKS / disk).mkdir(parents=True, exist_ok=True)
        stack.callback(shutil.rmtree, DISKS, ignore_errors=True)
        for command in walk.commands:
            process = start(command)
            stack.callback(process.stop)
        for snippet in walk.snippets:
            run_snippet(snippet, tmp_path)


def test_every_document_is_walked() -> None:
    assert sorted({w.document for w in WALKS}) == ["000", "001", "002", "003", "004"]
    assert all(w.snippets for w in WALKS), "a commands block without a snippet after it"
    json.dumps([w.commands for w in WALKS])  # plain text, nothing left to fill in
    assert not any("<" in c for w in WALKS for c in w.commands), "a placeholder is left"
