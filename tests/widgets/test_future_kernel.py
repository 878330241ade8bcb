"""An execution future in a real kernel (nbclient): it displays as its widget, can be
awaited in a cell, and its widget moves by itself while the work runs.

The widget state nbclient keeps in the notebook can lag behind the kernel's, so the
checks read the kernel's own state: a later cell prints it as JSON.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_notebook

KERNEL_NAME = "jupyter-mars-tests"
"""A kernel spec of the tests' own, so the kernel runs this interpreter, whatever
``python3`` spec the machine has."""

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"

SETUP = """\
import asyncio, json, threading, time
import numpy as np
import jupyter_mars as mars
import jupyter_mars.tensor as mt

session = mars.new_session(n_cpu=2)

def slow_double(x, seconds):
    time.sleep(seconds)
    return x * 2

def state(view):
    return {
        "state": view.state_label.value, "value": view.bar.value, "max": view.bar.max,
        "chunks": view.progress_label.value, "name": view.name_label.value,
        "detail": view.detail.value, "cancel_disabled": view.cancel_button.disabled,
    }
"""


@pytest.fixture(scope="module")
def kernel_spec_path(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """``JUPYTER_PATH`` pointing at a kernel spec that starts ``sys.executable``."""
    root = tmp_path_factory.mktemp("jupyter-path")
    spec_dir = root / "kernels" / KERNEL_NAME
    spec_dir.mkdir(parents=True)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "jupyter_mars tests",
        "language": "python",
    }
    (spec_dir / "kernel.json").write_text(json.dumps(spec))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JUPYTER_PATH", str(root))
        yield


def run_cells(cells: list[str], tmp_path: Path) -> list[Any]:
    """Execute ``cells`` after ``SETUP`` in a fresh kernel; the executed cells."""
    nb = new_notebook(cells=[new_code_cell(SETUP), *(new_code_cell(c) for c in cells)])
    client = NotebookClient(
        nb, timeout=120, kernel_name=KERNEL_NAME, resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()  # starts the kernel, runs every cell, shuts the kernel down
    for cell in nb.cells:
        errors = [o for o in cell.outputs if o.output_type == "error"]
        assert not errors, "\n".join(errors[0].traceback)
    return list(nb.cells[1:])


def printed_json(cell: Any) -> dict[str, Any]:
    text = "".join(o.text for o in cell.outputs if o.output_type == "stream")
    result: dict[str, Any] = json.loads(text.strip().splitlines()[-1])
    return result


@pytest.mark.usefixtures("kernel_spec_path")
def test_a_future_displays_as_its_widget_and_can_be_awaited(tmp_path: Path) -> None:
    shown, awaited, final = run_cells(
        [
            # 8 chunks of 0.5 s on 2 threads: about 2 s
            "x = mt.tensor(np.arange(8), chunk_size=1)\n"
            "f = mt.elemwise(slow_double, x, 0.5, dtype=np.int64).sum().execute(wait=False)\n"
            "f.name = 'doubling'\n"
            "f",
            "result = await f\nprint(json.dumps({'sum': int(result.fetch())}))",
            "view = f.widget()\n"
            "await view.settled()\n"
            "print(json.dumps({'result_is_immediate': f.result(timeout=0) is result, "
            "'following': view.following, **state(view)}))",
        ],
        tmp_path,
    )
    (display,) = [o for o in shown.outputs if o.output_type == "execute_result"]
    assert WIDGET_MIME in display.data
    assert display.data["text/plain"].startswith("<ExecutionFuture 'doubling' ")
    assert printed_json(awaited) == {"sum": 56}
    state = printed_json(final)
    assert state["result_is_immediate"] is True
    assert state["following"] is False
    assert state["state"] == "succeeded"
    assert state["value"] == state["max"] > 0
    assert state["chunks"] == f"{int(state['max'])} / {int(state['max'])} chunks"
    assert state["name"] == "<b>doubling</b>"
    assert "dtype=int64" in state["detail"]
    assert state["cancel_disabled"] is True
    # the id the display refers to is the widget's
    assert display.data[WIDGET_MIME]["model_id"]


@pytest.mark.usefixtures("kernel_spec_path")
def test_the_widget_moves_on_the_kernel_loop_while_the_work_runs(tmp_path: Path) -> None:
    started, middle, final = run_cells(
        [
            # 8 chunks of 0.75 s on 2 threads: about 3 s
            "x = mt.tensor(np.arange(8), chunk_size=1)\n"
            "f = mt.elemwise(slow_double, x, 0.75, dtype=np.int64).execute(wait=False)\n"
            "view = f.widget()\n"
            "threads = set()\n"
            "view.bar.observe(lambda c: threads.add(threading.current_thread().name), 'value')\n"
            "display(view)\n"
            "print(json.dumps(state(view)))",
            # no refresh(): only the updater task on the kernel's loop moves the widget
            "await asyncio.sleep(1.2)\nprint(json.dumps(state(view)))",
            "await f\nawait view.settled()\n"
            "print(json.dumps({'threads': sorted(threads), **state(view)}))",
        ],
        tmp_path,
    )
    assert any(WIDGET_MIME in o.get("data", {}) for o in started.outputs)
    before = printed_json(started)
    assert before["value"] == 0
    assert before["state"] == "pending"
    during = printed_json(middle)
    assert during["state"] == "running"
    assert 0 < during["value"] < during["max"]
    after = printed_json(final)
    assert after["state"] == "succeeded"
    assert after["value"] == after["max"] > during["value"]
    assert after["threads"] == ["MainThread"]
