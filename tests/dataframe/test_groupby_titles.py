"""Executions of grouped operations are named as the user wrote them, not by the words of
their chunk keys (``groupby_agg(groupby_partial)``)."""

from __future__ import annotations

import pandas as pd
import pytest

import jupyter_mars.dataframe as md
from jupyter_mars.engine.naming import describe

PDF = pd.DataFrame({"k": [1, 2, 1, 2], "v": [1.0, 2.0, 3.0, 4.0], "w": [1, 2, 3, 4]})


def ratio(frame: pd.DataFrame) -> pd.Series:
    return frame.v / frame.v.sum()


@pytest.mark.parametrize(
    ("build", "name"),
    [
        (lambda df: df.groupby("k").sum(), "groupby(k).sum"),
        (lambda df: df.groupby("k").agg("sum"), "groupby(k).sum"),
        (lambda df: df.groupby("k").agg(["sum", "mean"]), "groupby(k).agg(sum, mean)"),
        (lambda df: df.groupby("k").agg({"v": "sum", "w": "max"}), "groupby(k).agg(sum, max)"),
        (lambda df: df.groupby("k").v.mean(), "groupby(k)[v].mean"),
        (lambda df: df.groupby(["k", "w"])["v"].sum(), "groupby(k, w)[v].sum"),
        (lambda df: df.groupby("k").size(), "groupby(k).size"),
        (lambda df: df.groupby("k").v.nunique(), "groupby(k)[v].nunique"),
        (lambda df: df.groupby("k").median(), "groupby(k).median"),
        (lambda df: df.v.groupby(df.k).sum(), "groupby(k)[v].sum"),
        (lambda df: df.groupby("k").apply(ratio), "groupby(k).apply(ratio)"),
        (lambda df: df.groupby("k").cumsum(), "groupby(k).cumsum"),
        (lambda df: df.groupby("k").transform("sum"), "groupby(k).transform(sum)"),
        (lambda df: df.groupby("k").v.transform("mean"), "groupby(k)[v].transform(mean)"),
        (lambda df: df.groupby("k").sum().sum(), "sum(groupby(k).sum)"),
    ],
)
def test_grouped_operations_are_named_as_written(build, name) -> None:
    df = md.DataFrame(PDF, chunk_size=2)
    assert describe([build(df).node]) == name


def test_chunk_keys_keep_their_one_word_names() -> None:
    df = md.DataFrame(PDF, chunk_size=2)
    assert df.groupby("k").sum().node.key.startswith("groupby_agg-")


def test_the_future_of_a_grouped_sum_carries_its_name(session: object) -> None:
    df = md.DataFrame(PDF, chunk_size=2)
    future = df.groupby("k").v.sum().execute(wait=False)
    assert future.name == "groupby(k)[v].sum"
    pd.testing.assert_series_equal(future.result().fetch(), PDF.groupby("k").v.sum())
