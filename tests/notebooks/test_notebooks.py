"""The notebooks in ``notebooks/`` run top to bottom on a real kernel (nbclient), and what
they compute is checked from the kernel's own state: a last cell, added here, prints it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def run_notebook(name: str, probe: str, tmp_path: Path) -> dict[str, Any]:
    """Execute ``notebooks/<name>`` with ``probe`` (an expression) as its last cell; the
    probe's value, printed as JSON by the kernel."""
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    nb.cells.append(new_code_cell(f"import json as _json\nprint(_json.dumps({probe}))"))
    client = NotebookClient(
        nb, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    outputs = nb.cells[-1].outputs
    text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    result: dict[str, Any] = json.loads(text.strip().splitlines()[-1])
    result["_cells"] = nb.cells
    return result


def _outputs_text(cell: Any) -> str:
    parts = []
    for out in cell.outputs:
        parts.append(out.get("text", ""))
        parts.append(str(out.get("data", {}).get("text/plain", "")))
        if out.get("output_type") == "error":
            parts.append("\n".join(out.get("traceback", [])))
    return "\n".join(parts)


def test_the_quickstart_runs_the_seed_on_a_local_cluster(tmp_path: Path) -> None:
    result = run_notebook(
        "quickstart.ipynb",
        '{"matches_numpy": matches_numpy, "shape": list(b.shape)}',
        tmp_path,
    )
    assert result["matches_numpy"] is True
    assert result["shape"] == [2000, 2000]
    cells = result["_cells"]
    started = _outputs_text(cells[1])
    assert "Connected to http://127.0.0.1:" in started
    assert "2 workers, 2 cores" in started
    # in a kernel the dashboard is a link to click that logs the browser in, not its text
    links = [o["data"]["text/html"] for o in cells[1].outputs if "text/html" in o.get("data", {})]
    assert len(links) == 1, cells[1].outputs
    assert "Open the dashboard" in links[0]
    assert "/?login=" in links[0]
    assert "?login=" not in started.replace(links[0], "")
    assert "lazy: .execute() computes it" in _outputs_text(cells[2])
    status = _outputs_text(next(c for c in cells if c.source == "%mars status"))
    assert status.count("127.0.0.1:") >= 3  # the cluster and its two workers
    assert "Stopped the cluster" in _outputs_text(
        next(c for c in cells if c.source == "%mars stop")
    )


def test_the_dataframe_notebook_matches_pandas_and_writes_its_table(tmp_path: Path) -> None:
    result = run_notebook(
        "dataframe_analytics.ipynb",
        '{"matches_pandas": matches_pandas, "written": len(written), '
        '"groups": int(sales.assign(m=sales.day.dt.month).groupby(["region", "m"]).ngroups)}',
        tmp_path,
    )
    assert result["matches_pandas"] is True
    assert result["written"] == result["groups"]


@pytest.mark.parametrize("name", sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")))
def test_notebooks_are_kept_without_outputs(name: str) -> None:
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")


def test_the_futures_notebook_awaits_runs_cells_in_the_background_and_cancels(
    tmp_path: Path,
) -> None:
    result = run_notebook(
        "async_futures.ipynb",
        '{"total": int(total), "moments": moments, "cancelled": cancelled, '
        '"doomed_state": repr(doomed)}',
        tmp_path,
    )
    assert result["total"] == sum(i * i for i in range(40))
    mean, spread = result["moments"]
    assert abs(mean - 0.5) < 0.01
    assert abs(spread - (1 / 12) ** 0.5) < 0.01
    assert result["cancelled"] is True
    cells = result["_cells"]
    first_future = cells[1].outputs
    assert any(
        "application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in first_future
    )
