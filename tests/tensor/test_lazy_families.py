"""The families that load heavy libraries are loaded on first use, so that a worker
process running any chunk task does not pay for SciPy's statistics or the file readers."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.tensor import datastore


def test_heavy_families_load_on_first_use() -> None:
    script = textwrap.dedent(
        """
        import sys
        import jupyter_mars.tensor as mt
        heavy = ("scipy.stats", "scipy.spatial", "h5py", "zarr", "PIL", "pandas")
        assert not [m for m in heavy if m in sys.modules], [m for m in heavy if m in sys.modules]
        assert mt.stats.ttest_ind is not None and "scipy.stats" in sys.modules
        assert mt.from_zarr is not None and "zarr" in sys.modules
        print("ok")
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_lazy_names_are_the_datastores_and_unknown_names_raise() -> None:
    assert sorted(mt._DATASTORE) == sorted(datastore.__all__)
    assert set(mt._DATASTORE) <= set(mt.__all__)
    with pytest.raises(AttributeError, match="no_such_function"):
        mt.no_such_function  # noqa: B018
