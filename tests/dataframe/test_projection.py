"""Readers of tables read only the columns that the rest of the plan uses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md
from jupyter_mars.dataframe.io.parquet_chunks import ReadParquetChunks
from jupyter_mars.engine.node import TILE_RULES
from jupyter_mars.engine.plan import plan_context


def _columns_read(*results: Any) -> list[list[str] | None]:
    """The columns each Parquet chunk task of the plan of ``results`` asks pyarrow for."""
    ctx, order = plan_context([r.node for r in results], {})
    (reader,) = [n for n in order if isinstance(n.op, ReadParquetChunks)]
    tiled = TILE_RULES[ReadParquetChunks](reader, [], ctx)
    return [ctx.graph[k].args[3] for k in tiled.flat_keys()]


@pytest.fixture
def table(tmp_path: Path) -> tuple[str, pd.DataFrame]:
    rng = np.random.default_rng(3)
    n = 60
    pdf = pd.DataFrame(
        {
            "k": rng.integers(0, 5, n),
            "s": rng.choice(["x", "y"], n),
            "v": rng.normal(size=n),
            "w": rng.normal(size=n),
        }
    )
    path = str(tmp_path / "t.parquet")
    pdf.to_parquet(path, row_group_size=16, index=False)
    return path, pdf


def test_filter_then_groupby_reads_only_keys_values_and_the_mask(table: Any) -> None:
    path, pdf = table
    df = md.read_parquet(path)
    result = df[df.w > 0].groupby("k").v.agg(["mean", "sum"])
    assert _columns_read(result) == [["k", "v", "w"]] * 4
    pd.testing.assert_frame_equal(
        result.to_pandas(), pdf[pdf.w > 0].groupby("k").v.agg(["mean", "sum"])
    )


def test_a_column_selection_reads_its_columns(table: Any) -> None:
    path, pdf = table
    df = md.read_parquet(path)
    result = df[["v", "s"]].head(7)
    assert _columns_read(result) == [["s", "v"]] * 4
    pd.testing.assert_frame_equal(result.to_pandas(), pdf[["v", "s"]].head(7))


@pytest.mark.parametrize(
    "use",
    [
        lambda df: [df],  # the whole frame is asked for
        lambda df: [df.sum(numeric_only=True)],  # a reader with no column rule
        lambda df: [df.v, df],  # one result takes a column, another all of them
        lambda df: [df[df.v > 0]],  # a filter whose result is asked for whole
    ],
)
def test_every_column_is_read_when_anything_may_use_it(table: Any, use: Any) -> None:
    path, _ = table
    results = use(md.read_parquet(path))
    assert _columns_read(*results) == [None] * 4


def test_the_same_reader_in_another_plan_reads_what_that_plan_needs(table: Any) -> None:
    path, pdf = table
    df = md.read_parquet(path)
    by_k = df.groupby("k").v.sum()
    pd.testing.assert_series_equal(by_k.to_pandas(), pdf.groupby("k").v.sum())
    pd.testing.assert_frame_equal(df.to_pandas(), pdf)  # not a pruned chunk reused
    pd.testing.assert_series_equal(df.w.to_pandas(), pdf.w)
