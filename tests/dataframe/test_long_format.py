"""``md.wide_to_long`` and ``md.lreshape`` against pandas, over several chunkings: pandas'
row order (suffix first or row first), dtypes, and its errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md

CHUNKS = [1, 3, None]


def _wide(n: int = 7, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "B1990": rng.choice(list("abc"), n),
            "id": rng.permutation(50)[:n],
            "A1970": rng.integers(0, 5, n),
            "x": rng.normal(size=n),
            "A1980": rng.integers(0, 5, n),
            "B1980": rng.choice(list("abc"), n),
            "id2": rng.integers(0, 3, n),
        }
    )


def _lazy(frame: pd.DataFrame, chunk: int | None) -> md.DataFrame:
    return md.DataFrame(frame, chunk_size=chunk or len(frame))


def _same(got: Any, expected: pd.DataFrame) -> None:
    assert list(got.dtypes) == list(expected.dtypes)
    pd.testing.assert_frame_equal(got.to_pandas(), expected)


WIDE_CASES: list[dict[str, Any]] = [
    {"stubnames": ["A", "B"], "i": "id", "j": "year"},
    {"stubnames": ["A", "B"], "i": ["id", "id2"], "j": "year"},
    {"stubnames": "A", "i": "id", "j": "year"},
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("kwargs", WIDE_CASES)
def test_wide_to_long_matches_pandas(chunk: int | None, kwargs: dict[str, Any]) -> None:
    wide = _wide()
    _same(md.wide_to_long(_lazy(wide, chunk), **kwargs), pd.wide_to_long(wide, **kwargs))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_wide_to_long_with_a_separator_and_word_suffixes(chunk: int | None) -> None:
    wide = pd.DataFrame(
        {
            "famid": [1, 1, 1, 2, 2],
            "birth": [1, 2, 3, 1, 2],
            "ht_one": [2.8, 2.9, 2.2, 2.0, 1.8],
            "ht_two": [3.4, 3.8, 2.9, 3.2, 2.8],
            "wt_two": [10, 11, 12, 13, 14],
        }
    )
    kwargs: dict[str, Any] = dict(
        stubnames=["ht", "wt"], i=["famid", "birth"], j="age", sep="_", suffix=r"\w+"
    )
    _same(md.wide_to_long(_lazy(wide, chunk), **kwargs), pd.wide_to_long(wide, **kwargs))
    one_id = wide.assign(row=range(5)).drop(columns=["famid", "birth"])
    kwargs["i"] = "row"
    _same(md.wide_to_long(_lazy(one_id, chunk), **kwargs), pd.wide_to_long(one_id, **kwargs))


def test_wide_to_long_raises_for_repeated_ids_when_computed() -> None:
    wide = _wide()
    wide.loc[5, "id"] = wide.loc[1, "id"]  # in different chunks
    with pytest.raises(ValueError, match="uniquely identify"):
        pd.wide_to_long(wide, ["A", "B"], i="id", j="year")
    got = md.wide_to_long(_lazy(wide, 2), ["A", "B"], i="id", j="year")
    with pytest.raises(ValueError, match="uniquely identify"):
        got.to_pandas()


@pytest.mark.parametrize(
    "kwargs",
    [
        {"stubnames": ["A"], "i": "missing", "j": "year"},
        {"stubnames": ["x"], "i": "id", "j": "year"},
    ],
)
def test_wide_to_long_raises_pandas_errors_at_the_call(kwargs: dict[str, Any]) -> None:
    wide = _wide()
    with pytest.raises(Exception) as expected:  # noqa: PT011 - the type is pandas' to say
        pd.wide_to_long(wide, **kwargs)
    with pytest.raises(expected.type):
        md.wide_to_long(_lazy(wide, 2), **kwargs)


def _teams() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "hr1": [514, 573, 600, 410],
            "hr2": [545, 526, np.nan, 499],
            "team": ["Red Sox", "Yankees", "Mets", "Cubs"],
            "year1": [2007, 2007, 2006, 2005],
            "year2": [2008, np.nan, 2007, 2006],
            "won": [True, False, True, True],
        }
    )


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("dropna", [True, False])
def test_lreshape_matches_pandas(chunk: int | None, dropna: bool) -> None:
    teams = _teams()
    groups = {"year": ["year1", "year2"], "hr": ["hr1", "hr2"]}
    got = md.lreshape(_lazy(teams, chunk), groups, dropna=dropna)
    _same(got, pd.lreshape(teams, groups, dropna=dropna))


def test_lreshape_casts_each_piece_to_the_stacked_dtype() -> None:
    frame = pd.DataFrame({"a": [1, 2, 3], "b": [0.5, np.nan, 1.5], "c": ["x", "y", "z"]})
    for groups in ({"v": ["a", "b"]}, {"v": ["a", "c"]}, {"v": ["c", "a"], "w": ["b", "a"]}):
        got = md.lreshape(_lazy(frame, 2), groups)
        _same(got, pd.lreshape(frame, groups))


@pytest.mark.parametrize(
    "groups",
    [{"year": ["year1", "year2"], "hr": ["hr1"]}, {"year": ["year1", "missing"]}],
)
def test_lreshape_raises_pandas_errors_at_the_call(groups: dict[str, list[str]]) -> None:
    teams = _teams()
    with pytest.raises(Exception) as expected:  # noqa: PT011 - the type is pandas' to say
        pd.lreshape(teams, groups)
    with pytest.raises(expected.type):
        md.lreshape(_lazy(teams, 2), groups)
