"""Write the notebooks in notebooks/ from the cells below (run it after editing them):
``.venv/bin/python scripts/make-notebooks.py``. The notebooks are kept without outputs and
formatted by ruff."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parents[1] / "notebooks"
Cells = list[tuple[str, str]]
"""("md" or "code", source) per cell."""

QUICKSTART: Cells = [
    (
        "md",
        """# jupyter_mars quickstart

Start a local cluster of two worker processes owned by this kernel, run the Mars seed
example on it, and look at what ran. `%mars embedded` would run the same code in this
process instead.""",
    ),
    ("code", "%load_ext jupyter_mars\n%mars start --workers 2 --n-cpu 1"),
    (
        "code",
        """import numpy as np

import jupyter_mars.tensor as mt

a = mt.random.rand(2000, 2000, chunk_size=200)
a  # lazy: nothing ran yet""",
    ),
    ("code", "b = mt.inner(a, a).execute()\nb"),
    ("md", "The result equals NumPy's on the same data:"),
    (
        "code",
        """data = a.execute().fetch()
matches_numpy = bool(np.allclose(b.fetch(), np.inner(data, data)))
matches_numpy""",
    ),
    ("code", "%mars status"),
    (
        "md",
        "The dashboard (the address `%mars start` printed) shows the workers and each "
        "execution's operators. Stop the cluster when done:",
    ),
    ("code", "%mars stop"),
]

ANALYTICS: Cells = [
    (
        "md",
        """# DataFrame analytics

Read sales from Parquet and a region table from CSV, aggregate and join them, and write
the summary as a table, all in chunks. The data is generated first.""",
    ),
    (
        "code",
        """import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

import jupyter_mars as mars
import jupyter_mars.dataframe as md

mars.new_session()  # the embedded runtime; %mars connect would use a cluster
folder = Path(tempfile.mkdtemp())
rng = np.random.default_rng(0)
days = pd.to_timedelta(rng.integers(0, 365, 20_000), "D")
sales = pd.DataFrame({
    "region": rng.choice(["north", "south", "east", "west"], 20_000),
    "amount": rng.gamma(2.0, 50.0, 20_000).round(2),
    "day": pd.Timestamp("2026-01-01") + days,
})
(folder / "sales").mkdir()
for i in range(4):  # four files of 5,000 rows
    part = sales.iloc[i * 5_000 : (i + 1) * 5_000]
    part.to_parquet(folder / "sales" / f"part-{i}.parquet", index=False)
regions = pd.DataFrame({
    "region": ["north", "south", "east", "west"],
    "manager": ["Ada", "Grace", "Linus", "Guido"],
})
regions.to_csv(folder / "regions.csv", index=False)""",
    ),
    (
        "code",
        """df = md.read_parquet(folder / "sales", columns=["region", "amount", "day"])
df["month"] = df.day.dt.month
summary = df.groupby(["region", "month"]).agg(total=("amount", "sum"), n=("amount", "count"))
summary.execute().head()""",
    ),
    (
        "code",
        """managers = md.read_csv(folder / "regions.csv")
by_manager = (
    summary.reset_index()
    .merge(managers, on="region")
    .groupby("manager")
    .total.sum()
    .sort_values(ascending=False)
)
by_manager.execute()""",
    ),
    ("md", "The same computed by pandas on the same data, for comparison:"),
    (
        "code",
        """expected = (
    sales.assign(month=sales.day.dt.month)
    .groupby(["region", "month"])
    .agg(total=("amount", "sum"), n=("amount", "count"))
    .reset_index()
    .merge(regions, on="region")
    .groupby("manager")
    .total.sum()
)
matches_pandas = bool(np.allclose(by_manager.fetch().sort_index(), expected.sort_index()))
matches_pandas""",
    ),
    (
        "code",
        """summary.reset_index().to_parquet(folder / "summary.parquet")
written = pd.read_parquet(folder / "summary.parquet")
len(written)""",
    ),
]

FUTURES: Cells = [
    (
        "md",
        """# Work in the background

`execute(wait=False)` and `%%mars` return at once with a future: it shows the progress of
chunks, the state and the time taken, and a button that cancels the work. The kernel stays
free meanwhile; `await` waits for a future without blocking the notebook's event loop.""",
    ),
    (
        "code",
        """%load_ext jupyter_mars
import asyncio
import time

import jupyter_mars as mars
import jupyter_mars.tensor as mt

mars.new_session()


def slow_square(block):  # a chunk function that takes its time
    time.sleep(0.3)
    return block**2


x = mt.arange(40, chunk_size=4)
future = mt.elemwise(slow_square, x, dtype=x.dtype).sum().execute(wait=False)
future""",
    ),
    ("md", "The kernel is free while it runs; `await` takes the result when it is ready:"),
    ("code", "total = (await future).fetch()\ntotal"),
    (
        "md",
        "A `%%mars` cell runs its lazy results together as one graph, in the background:",
    ),
    (
        "code",
        """%%mars --name moments
y = mt.random.rand(2000, 2000, chunk_size=500)
mean = y.mean()
spread = y.std()
mean, spread""",
    ),
    (
        "code",
        """cell_future = _  # noqa: F821 - the last cell's value: its future
m, s = await cell_future
moments = (float(m.fetch()), float(s.fetch()))
moments""",
    ),
    ("md", "Work that is no longer wanted is cancelled, running chunks included:"),
    (
        "code",
        """endless = mt.elemwise(slow_square, mt.arange(400, chunk_size=1), dtype=x.dtype)
doomed = endless.execute(wait=False)
await asyncio.sleep(0.5)
doomed.cancel()
doomed""",
    ),
    ("code", "cancelled = doomed.cancelled()\ncancelled"),
]


def write(name: str, cells: Cells) -> None:
    make = {"md": new_markdown_cell, "code": new_code_cell}
    nb = new_notebook(cells=[make[kind](source) for kind, source in cells])
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(nb, HERE / name)
    # the code cells in the project's style, as ruff checks them
    subprocess.run([sys.executable, "-m", "ruff", "format", "-q", str(HERE / name)], check=True)


if __name__ == "__main__":
    HERE.mkdir(exist_ok=True)
    write("quickstart.ipynb", QUICKSTART)
    write("dataframe_analytics.ipynb", ANALYTICS)
    write("async_futures.ipynb", FUTURES)
