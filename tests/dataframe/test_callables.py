"""Keys and values given as functions of the frame, or as ``pd.col`` expressions: evaluated
on the whole lazy object, as pandas evaluates them on the whole frame."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
import pytest

import jupyter_mars.dataframe as md
from jupyter_mars.dataframe.callables import Expression, resolve
from tests.dataframe.helpers import CHUNKS, assert_same, lazy_copy

needs_col = pytest.mark.skipif(Expression is None, reason="pd.col came with pandas 3.1")

FUNCTIONS: dict[str, Callable[[Any], Any]] = {
    # functions of the whole data: a chunk alone would see its own mean
    "getitem": lambda d: d[lambda f: f.a > f.a.mean()],
    "series getitem": lambda d: d["a"][lambda s: s > s.mean()],
    "iloc": lambda d: d.iloc[lambda f: [0, 2, 4]],
    "iloc pair": lambda d: d.iloc[lambda f: [0, 2], lambda f: [1]],
    "loc": lambda d: d.loc[lambda f: f.a > f.a.median()],
    "loc pair": lambda d: d.loc[lambda f: f.a > f.a.median(), "b"],
    "mask": lambda d: d.mask(lambda f: f > f.mean(), lambda f: -f),
    "assign": lambda d: d.assign(c=lambda f: f.a - f.a.mean()),
    "case_when": lambda d: d["a"].case_when([(lambda s: s > s.mean(), 0)]),
}


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_functions_of_the_whole_frame(chunk: int | None, name: str) -> None:
    df = pd.DataFrame({"a": [1, 9, 3, 7, 5, 2], "b": [3.0, 4, 5, 6, 7, 8]})
    got = FUNCTIONS[name](lazy_copy(df, chunk))
    assert_same(got.to_pandas(), FUNCTIONS[name](df))


@needs_col
@pytest.mark.parametrize("chunk", CHUNKS)
def test_column_expressions(chunk: int | None) -> None:
    col = pd.col
    df = pd.DataFrame({"a": [1, 9, 3, 7, 5, 2], "b": [3.0, 4, 5, 6, 7, 8]})
    cases: list[Callable[[Any], Any]] = [
        lambda d: d[col("a") > 2],
        lambda d: d.loc[col("a") > 1, "b"],
        lambda d: d.where(col("a") > 2),
        lambda d: d.assign(c=col("a") * 2, e=lambda f: f.c + 1),
    ]
    lazy = lazy_copy(df, chunk)
    for case in cases:
        assert_same(case(lazy).to_pandas(), case(df))


def test_resolve_reads_expressions_callables_and_values() -> None:
    assert resolve(lambda x: x * 2, 4) == 8
    assert resolve("a", 4) == "a"
    series = md.Series(pd.Series([1, 2]), chunk_size=1)
    assert resolve(series, None) is series
