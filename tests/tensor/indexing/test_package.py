"""The package as a whole: public names, ``__all__``, attached ``Tensor`` methods."""

from __future__ import annotations

import types

import jupyter_mars.tensor as mt
from jupyter_mars.tensor import indexing
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.indexing.getitem import getitem
from jupyter_mars.tensor.indexing.nonzero import argwhere, flatnonzero, nonzero
from jupyter_mars.tensor.indexing.setitem import setitem
from jupyter_mars.tensor.indexing.take import compress, extract, take


def test_public_functions_are_reexported_under_the_package_and_mt() -> None:
    assert indexing.__all__ == ["argwhere", "compress", "extract", "flatnonzero", "nonzero", "take"]
    functions = [argwhere, compress, extract, flatnonzero, nonzero, take]
    for name, func in zip(indexing.__all__, functions):
        assert getattr(indexing, name) is func
        assert getattr(mt, name) is func
    assert indexing.getitem is getitem
    assert indexing.setitem is setitem


def test_names_shared_with_submodules_are_the_functions_not_the_modules() -> None:
    for name in ("nonzero", "take", "getitem", "setitem"):
        assert not isinstance(getattr(indexing, name), types.ModuleType)


def test_tensor_methods_are_attached() -> None:
    for name in ("__getitem__", "__setitem__", "nonzero", "take", "compress"):
        method = getattr(Tensor, name)
        assert method.__module__ == "jupyter_mars.tensor.indexing"
