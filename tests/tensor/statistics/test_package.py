"""The package as a whole: public names and the helper ``fft`` uses."""

from __future__ import annotations

import importlib

import jupyter_mars.tensor as mt
from jupyter_mars.tensor import statistics

PUBLIC = [
    "bincount",
    "corrcoef",
    "cov",
    "digitize",
    "histogram",
    "histogram_bin_edges",
    "median",
    "nanmedian",
    "nanpercentile",
    "nanquantile",
    "percentile",
    "quantile",
]


def test_public_names_are_the_package_functions_and_mt_functions() -> None:
    assert statistics.__all__ == PUBLIC
    homes = {"bincount": "bincount", "corrcoef": "covariance", "cov": "covariance"}
    homes |= {name: "histogram" for name in ("digitize", "histogram", "histogram_bin_edges")}
    homes |= {name: "quantiles" for name in PUBLIC if "median" in name or "quantile" in name}
    homes |= {"percentile": "quantiles", "nanpercentile": "quantiles"}
    assert sorted(homes) == PUBLIC
    for name in PUBLIC:
        # importlib: the package attribute named like a submodule is the function
        module = importlib.import_module(f"jupyter_mars.tensor.statistics.{homes[name]}")
        function = getattr(statistics, name)
        assert callable(function)
        assert function is getattr(module, name)
        assert getattr(mt, name) is function


def test_apply_whole_axes_is_reexported_for_fft() -> None:
    assert callable(statistics.apply_whole_axes)
