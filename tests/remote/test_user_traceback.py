"""A chunk function's error on a cluster shows the user's lines, as on the embedded runtime.

The kernel test runs a real notebook kernel (nbclient) on a real local cluster
(``%mars start``): the cell's error output names the user's function and line, with the
cell's source, and no frame of this package other than the cell's own call."""

from __future__ import annotations

import re
import traceback
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_notebook

from jupyter_mars.engine.tracebacks import FULL_TRACEBACKS_ENV
from jupyter_mars.remote.errors import rebuild_error
from jupyter_mars.remote.user_traceback import user_traceback

PACKAGE = str(Path(__file__).resolve().parents[2] / "jupyter_mars")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_remote_frames_become_the_errors_traceback() -> None:
    frames = [
        [__file__, 20, "outer", ""],  # this file's line 20, read here
        ["/no/such/file.py", 3, "inner", "x / 0"],
    ]
    tb = user_traceback(frames)
    summary = traceback.extract_tb(tb)
    assert [(f.filename, f.lineno, f.name) for f in summary] == [
        (__file__, 20, "outer"),
        ("/no/such/file.py", 3, "inner"),
    ]
    assert summary[0].line == Path(__file__).read_text().splitlines()[19].strip()


def test_frames_with_impossible_lines_are_left_out() -> None:
    assert user_traceback([["f.py", 0, "f", ""], ["f.py", -3, "g", ""]]) is None
    assert user_traceback([["f.py", 10**9, "f", ""]]) is None


def test_a_rebuilt_error_raises_with_the_users_frames() -> None:
    model = {
        "module": "builtins",
        "type": "ZeroDivisionError",
        "message": "division by zero",
        "notes": [],
        "traceback": [["<cell-4>", 2, "ratio", ""]],
    }
    error = rebuild_error(model)
    assert isinstance(error, ZeroDivisionError)
    frames = traceback.extract_tb(error.__traceback__)
    assert [(f.filename, f.lineno, f.name) for f in frames] == [("<cell-4>", 2, "ratio")]
    assert rebuild_error({**model, "traceback": "not frames"}).__traceback__ is None


CELLS = [
    "%load_ext jupyter_mars\n%mars start --workers 1",
    "import jupyter_mars.tensor as mt\nimport jupyter_mars.dataframe as md\nimport pandas as pd",
    "def scale(block):\n    factor = len(block)\n    return block / missing_factor",
    "mt.elemwise(scale, mt.ones(4, chunk_size=2), dtype=float).execute()",
    "def per_row(row):\n    if row['a'] > 2:\n"
    "        raise ValueError(f'row {row.name} is too big')\n    return row['a']",
    "frame = md.DataFrame(pd.DataFrame({'a': [1, 2, 3, 4]}), chunk_size=2)\n"
    "frame.apply(per_row, axis=1, meta=pd.Series([], dtype='int64')).execute()",
    "%mars stop",
]


def test_a_cells_error_on_a_cluster_names_the_users_function_and_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(FULL_TRACEBACKS_ENV, raising=False)  # as a user's kernel runs
    nb = new_notebook(cells=[new_code_cell(source) for source in CELLS])
    client = NotebookClient(
        nb,
        timeout=120,
        kernel_name="python3",
        allow_errors=True,
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()
    assert "Connected to" in "".join(o.get("text", "") for o in nb.cells[0].outputs)
    elemwise, apply = (_error_text(nb.cells[i]) for i in (3, 5))

    assert "NameError: name 'missing_factor' is not defined" in elemwise
    assert "in scale" in elemwise  # the user's function, at the line that failed
    assert "----> 3     return block / missing_factor" in elemwise
    assert "ValueError: row 2 is too big" in apply
    assert "in per_row" in apply
    assert "----> 3         raise ValueError(f'row {row.name} is too big')" in apply
    for text in (elemwise, apply):
        assert ".execute()" in text  # the call site, the only frame of the cell's own
        assert PACKAGE not in text  # no frame of the library's
    assert "Stopped the cluster" in "".join(o.get("text", "") for o in nb.cells[6].outputs)


def _error_text(cell: nbformat.NotebookNode) -> str:
    errors = [o for o in cell.outputs if o.get("output_type") == "error"]
    assert errors, cell.outputs
    return ANSI.sub("", "\n".join(errors[0]["traceback"]))
