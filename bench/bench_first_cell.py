"""The first cells of a fresh notebook kernel, and the imports behind them.

Each round starts a new kernel (nbclient, timing recorded by Jupyter itself) and runs
``%load_ext jupyter_mars`` with ``import jupyter_mars.tensor as mt``, a ``%%mars --block``
cell, then ``import jupyter_mars.dataframe as md``; then times the imports alone in fresh
interpreters. The minimum over the rounds is printed: other work on the machine only ever
adds to a figure. The trees compared must have their bytecode cached (run once first, or
set ``PYTHONPYCACHEPREFIX``), or compiling the sources is what gets measured.

    .venv/bin/python bench/bench_first_cell.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import datetime
import subprocess
import sys

from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_notebook

CELLS = [
    "%load_ext jupyter_mars\nimport jupyter_mars.tensor as mt",
    "%%mars --block\nx = mt.random.rand(1000, 1000, chunk_size=500)\n(x @ x).sum()",
    "import jupyter_mars.dataframe as md",
]
IMPORTS = {
    "import jupyter_mars": "import jupyter_mars",
    "a kernel's import (with widgets, magics)": (
        "import jupyter_mars, jupyter_mars.widgets, jupyter_mars.magics"
    ),
    "import jupyter_mars.tensor": "import jupyter_mars.tensor",
    "import jupyter_mars.dataframe": "import jupyter_mars.dataframe",
}
SETUP = "import IPython, ipykernel.ipkernel"  # loaded in a kernel before any cell


def _seconds(stamp: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def cell_times() -> list[float]:
    """Seconds each of ``CELLS`` took in a new kernel."""
    nb = new_notebook(cells=[new_code_cell(source) for source in CELLS])
    NotebookClient(nb, timeout=120, kernel_name="python3", record_timing=True).execute()
    times = []
    for cell in nb.cells:
        stamps = cell.metadata.execution
        done, began = stamps["shell.execute_reply"], stamps["iopub.execute_input"]
        times.append((_seconds(done) - _seconds(began)).total_seconds())
    return times


def import_time(statement: str) -> float:
    """Seconds ``statement`` takes in a fresh interpreter, after the kernel's own imports."""
    code = (
        f"{SETUP}\nimport time\nstart = time.perf_counter()\n{statement}\n"
        "print(time.perf_counter() - start)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rounds = [cell_times() for _ in range(args.rounds)]
    print("| | seconds (minimum) |\n|---|---|")
    for i, source in enumerate(CELLS):
        first = source.splitlines()[0] + (" …" if "\n" in source else "")
        print(f"| cell {i + 1}: `{first}` | {min(r[i] for r in rounds):.3f} |")
    for label, statement in IMPORTS.items():
        best = min(import_time(statement) for _ in range(max(args.rounds, 5)))
        print(f"| {label} | {best:.3f} |")


if __name__ == "__main__":
    main()
