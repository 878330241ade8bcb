"""``DataFrame.select`` against pandas 3.1: labels, ``pd.col`` expressions and computed
keywords, over several chunkings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
import pytest

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, lazy_copy

pytestmark = pytest.mark.skipif(
    not hasattr(pd.DataFrame, "select"), reason="DataFrame.select came with pandas 3.1"
)


def _frame() -> pd.DataFrame:
    return pd.DataFrame({"a": [1, 9, 3, 7, 5], "b": [3.0, 4, 5, 6, 7], "c": list("vwxyz")})


def _cases() -> dict[str, Callable[[Any], Any]]:
    col = pd.col
    return {
        "labels": lambda d: d.select("a", "c"),
        "a list": lambda d: d.select(["c", "a"]),
        "twice": lambda d: d.select("a", "a"),
        "keyword expression": lambda d: d.select("b", z=col("a") * 2),
        "named expression, then used": lambda d: d.select((col("a") + 1).rename("a1"), "a1"),
        "replaced after selected": lambda d: d.select("a", (col("a") * 10).rename("a"), "a"),
        "function of the whole frame": lambda d: d.select(q=lambda f: f.a - f.a.mean()),
        "expression keeps its name": lambda d: d.select(col("a") > 3),
        "nothing": lambda d: d.select(),
        "scalar keyword": lambda d: d.select("b", w=1),
    }


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("name", list(_cases()))
def test_select_matches_pandas(chunk: int | None, name: str) -> None:
    df = _frame()
    case = _cases()[name]
    pd.testing.assert_frame_equal(case(lazy_copy(df, chunk)).to_pandas(), case(df))


def test_select_raises_pandas_errors_at_the_call() -> None:
    lazy = md.DataFrame(_frame(), chunk_size=2)
    with pytest.raises(KeyError):
        lazy.select("nope")
    with pytest.raises(TypeError, match="sets"):
        lazy.select({"a"})
    with pytest.raises(TypeError, match="not both"):
        lazy.select(["a"], "b")
