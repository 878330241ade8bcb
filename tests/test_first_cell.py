"""A notebook's first cells load only what they use: ``%load_ext jupyter_mars`` and a
tensor-only ``%%mars`` cell, its future and its preview, import neither pandas (the
frames' package) nor SciPy (sparse chunks, decompositions), which took most of a fresh
kernel's first cell; the frames' package loads SQLAlchemy only for SQL. Checked in a
fresh interpreter: this one has loaded everything."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCENARIO = """
import json, sys
from IPython.core.interactiveshell import InteractiveShell
import jupyter_mars.widgets  # as a kernel imports it with jupyter_mars
from jupyter_mars.widgets.preview import result_html
shell = InteractiveShell.instance()
shell.run_line_magic("load_ext", "jupyter_mars")
shell.run_cell("import jupyter_mars.tensor as mt")
future = shell.run_cell_magic("mars", "", "x = mt.ones((40, 40), chunk_size=20)\\n(x + 1).sum()")
value = future.result()
preview = result_html(value)
heavy = ("pandas", "scipy", "sqlalchemy", "pyarrow")
print(json.dumps({"loaded": [m for m in heavy if m in sys.modules], "preview": preview}))
"""


def _last_line_of(code: str) -> str:
    """The last line ``code`` prints in a fresh interpreter, which must exit 0."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[1],
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


def test_a_tensor_only_first_cell_loads_neither_pandas_nor_scipy() -> None:
    found = json.loads(_last_line_of(SCENARIO))
    assert found["loaded"] == []
    assert "Tensor shape=()" in found["preview"]  # the preview still knows a tensor
    assert "array(3200.)" in found["preview"]


def test_the_dataframe_package_loads_sqlalchemy_and_scipy_only_when_used() -> None:
    code = (
        "import sys, pandas as pd\n"
        "import jupyter_mars.dataframe as md\n"
        "df = md.DataFrame(pd.DataFrame({'a': [1, 2, 3]}), chunk_size=2)\n"
        "assert (df.a * 2).sum().execute().fetch() == 12\n"
        "print([m for m in ('sqlalchemy', 'scipy') if m in sys.modules])\n"
    )
    assert _last_line_of(code) == "[]"
