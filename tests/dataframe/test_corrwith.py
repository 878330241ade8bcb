"""DataFrame.corrwith against pandas over several chunkings."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tests.dataframe.helpers import CHUNKS, lazy_copy


def _frames() -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(0)
    left = pd.DataFrame(rng.normal(size=(9, 3)), columns=list("abc"))
    left["s"] = list("pqrstuvwx")
    right = pd.DataFrame(rng.normal(size=(9, 3)), columns=list("bdc"))
    right.iloc[2, 0] = np.nan
    return left, right


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("drop", [False, True])
def test_corrwith_frame_and_series_match_pandas(chunk: int | None, drop: bool) -> None:
    left, right = _frames()
    lazy_left = lazy_copy(left, chunk)
    lazy_right = lazy_copy(right, chunk)
    got = lazy_left.corrwith(lazy_right, drop=drop, numeric_only=True).execute().fetch()
    pd.testing.assert_series_equal(got, left.corrwith(right, drop=drop, numeric_only=True))
    got = lazy_left.corrwith(lazy_right["b"], numeric_only=True).execute().fetch()
    pd.testing.assert_series_equal(got, left.corrwith(right["b"], numeric_only=True))


def test_corrwith_bad_input_raises_at_the_call() -> None:
    left, right = _frames()
    lazy = lazy_copy(left, 4)
    with pytest.raises(TypeError, match="other"):
        lazy.corrwith(3)
    with pytest.raises(NotImplementedError, match="method"):
        lazy.corrwith(lazy_copy(right, 4), method="kendall", numeric_only=True)
