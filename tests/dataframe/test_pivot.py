"""pivot_table and crosstab of lazy frames against pandas."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

import jupyter_mars as mars
import jupyter_mars.dataframe as md
from jupyter_mars.dataframe.groupby.pivot import crosstab, pivot_table

CHUNKS = [1, 7, None]


def _frame() -> pd.DataFrame:
    rng = np.random.default_rng(1)
    n = 30
    return pd.DataFrame(
        {
            "a": rng.choice(["x", "y", "z"], n),
            "b": rng.choice([1, 2], n),
            "c": rng.choice(["p", "q"], n),
            "v": rng.integers(0, 10, n),
            "w": np.where(rng.random(n) < 0.2, np.nan, rng.random(n)),
        }
    )


PIVOTS: list[dict[str, Any]] = [
    {"values": "v", "index": "a", "columns": "b"},
    {"values": ["v", "w"], "index": ["a", "c"], "columns": "b", "aggfunc": "sum"},
    {"values": "w", "index": "a", "columns": ["b", "c"], "aggfunc": ["mean", "max"]},
    {"values": "v", "index": "a", "columns": "c", "aggfunc": "median", "fill_value": 0},
    {"values": "v", "index": "a", "aggfunc": "sum"},
    {"index": ["a", "b"], "columns": "c", "aggfunc": "count"},
    {"values": "w", "index": "c", "columns": "a", "aggfunc": {"w": "std"}},
]


@pytest.mark.parametrize("chunk", CHUNKS)
def test_pivot_table_matches_pandas(chunk: int | None) -> None:
    df = _frame()
    mdf: Any = md.DataFrame(df, chunk_size=chunk or len(df))
    results = [pivot_table(mdf, **kw) for kw in PIVOTS]
    results.append(mdf.pivot_table(values="v", index="c", columns="a", aggfunc="max"))
    expected = [pd.pivot_table(df, **kw) for kw in PIVOTS]
    expected.append(df.pivot_table(values="v", index="c", columns="a", aggfunc="max"))
    mars.execute(*results)
    for got, exp in zip(results, expected):
        pd.testing.assert_frame_equal(got.to_pandas(), exp)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_crosstab_matches_pandas(chunk: int | None) -> None:
    df = _frame()
    mdf: Any = md.DataFrame(df, chunk_size=chunk or len(df))
    cases: list[tuple[Any, Any]] = []
    for normalize in (False, True, "index", "columns"):
        cases.append(
            (
                crosstab(mdf["a"], mdf["c"], normalize=normalize),
                pd.crosstab(df["a"], df["c"], normalize=normalize),
            )
        )
    cases.append(
        (
            crosstab(mdf["a"], [mdf["b"], mdf["c"]], values=mdf["w"], aggfunc="mean"),
            pd.crosstab(df["a"], [df["b"], df["c"]], values=df["w"], aggfunc="mean"),
        )
    )
    cases.append(
        (
            crosstab(mdf["b"], mdf["a"], rownames=["B"], colnames=["A"]),
            pd.crosstab(df["b"], df["a"], rownames=["B"], colnames=["A"]),
        )
    )
    mars.execute(*(c for c, _ in cases))
    for got, exp in cases:
        pd.testing.assert_frame_equal(got.to_pandas(), exp)


def test_pivot_errors_at_build_time() -> None:
    mdf: Any = md.DataFrame(_frame(), chunk_size=7)
    with pytest.raises(KeyError, match="nope"):
        pivot_table(mdf, values="nope", index="a")
    with pytest.raises(KeyError, match="nope"):
        pivot_table(mdf, values="v", index="a", columns="nope")
    with pytest.raises(TypeError):
        pivot_table(mdf, values="a", index="c", aggfunc="mean")
    with pytest.raises(NotImplementedError):
        pivot_table(mdf, values="v", index="a", margins=True)
    with pytest.raises(ValueError, match="aggfunc"):
        crosstab(mdf["a"], mdf["c"], values=mdf["v"])
