"""Mars's append, backfill, pad, tshift and iteritems, against what pandas does for them
today (concat, bfill, ffill, shift with freq, items)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tests.dataframe.helpers import CHUNKS, lazy_copy

PDF = pd.DataFrame({"a": [1, 2, 3, 4], "b": [0.5, np.nan, np.nan, 2.0]})


@pytest.mark.parametrize("chunk", CHUNKS)
def test_append_is_concat(chunk):
    lazy = lazy_copy(PDF, chunk)
    other = PDF.iloc[1:] * 10
    pd.testing.assert_frame_equal(
        lazy.append(lazy_copy(other, chunk)).to_pandas(), pd.concat([PDF, other])
    )
    pd.testing.assert_frame_equal(
        lazy.append([lazy, other], ignore_index=True).to_pandas(),
        pd.concat([PDF, PDF, other], ignore_index=True),
    )
    pd.testing.assert_series_equal(
        lazy["a"].append(lazy["a"]).to_pandas(), pd.concat([PDF["a"], PDF["a"]])
    )


def test_append_takes_rows_as_dicts_and_series():
    lazy = lazy_copy(PDF, 3)
    row = {"a": 9, "b": 9.5}
    pd.testing.assert_frame_equal(
        lazy.append(row, ignore_index=True).to_pandas(),
        pd.concat([PDF, pd.DataFrame([row])], ignore_index=True),
    )
    named = pd.Series(row, name=7)
    pd.testing.assert_frame_equal(
        lazy.append(named).to_pandas(), pd.concat([PDF, pd.DataFrame([named])])
    )
    pd.testing.assert_frame_equal(
        lazy.append([row, row], ignore_index=True).to_pandas(),
        pd.concat([PDF, pd.DataFrame([row, row])], ignore_index=True),
    )
    flipped = PDF[["b", "a"]]
    pd.testing.assert_frame_equal(
        lazy_copy(flipped, 2).append(lazy, sort=True).to_pandas(),
        pd.concat([flipped, PDF])[["a", "b"]],
    )


def test_append_verify_integrity_refuses_repeated_labels_when_run():
    lazy = lazy_copy(PDF, 2)
    with pytest.raises(ValueError, match="duplicate keys"):
        lazy.append(lazy, verify_integrity=True).execute()
    fine = lazy.append(lazy, ignore_index=True, verify_integrity=True)
    pd.testing.assert_frame_equal(fine.to_pandas(), pd.concat([PDF, PDF], ignore_index=True))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_pad_backfill_and_tshift(chunk):
    dated = PDF.set_index(pd.date_range("2020-01-01", periods=4))
    lazy = lazy_copy(dated, chunk)
    pd.testing.assert_frame_equal(lazy.pad().to_pandas(), dated.ffill())
    pd.testing.assert_frame_equal(lazy.backfill(limit=1).to_pandas(), dated.bfill(limit=1))
    pd.testing.assert_series_equal(lazy["b"].pad().to_pandas(), dated["b"].ffill())
    pd.testing.assert_frame_equal(lazy.tshift(2, freq="D").to_pandas(), dated.shift(2, freq="D"))
    with pytest.raises(ValueError, match="Freq was not given"):
        lazy.tshift(1)


def test_iteritems_is_items():
    lazy = lazy_copy(PDF, 3)
    for (name, got), (want_name, want) in zip(lazy.iteritems(), PDF.items(), strict=True):
        assert name == want_name
        pd.testing.assert_series_equal(got, want)
