"""XGBoost and LightGBM stay optional: imported by their subpackage only, and missing
ones say how to install them."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

SCENARIO = textwrap.dedent(
    """
    import sys
    import jupyter_mars.learn
    import jupyter_mars.learn.contrib
    import jupyter_mars.learn.contrib.parts
    print("loaded:", sorted({"xgboost", "lightgbm"} & set(sys.modules)))
    sys.modules["xgboost"] = None  # as if it were not installed
    sys.modules["lightgbm"] = None
    for name in ("xgboost", "lightgbm"):
        try:
            __import__(f"jupyter_mars.learn.contrib.{name}")
        except ImportError as exc:
            print(f"{name}:", exc)
    """
)


def test_the_libraries_are_imported_by_their_subpackage_only_and_missing_ones_say_so() -> None:
    ran = subprocess.run(
        [sys.executable, "-c", SCENARIO],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=Path(__file__).resolve().parents[3],  # the repository: its package first
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    lines = ran.stdout.splitlines()
    assert lines[0] == "loaded: []"
    assert "xgboost: jupyter_mars.learn.contrib.xgboost needs XGBoost: pip install xgboost" in lines
    assert (
        "lightgbm: jupyter_mars.learn.contrib.lightgbm needs LightGBM: pip install lightgbm"
        in lines
    )
