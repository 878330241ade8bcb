"""Chunk sizes for memory accounting: frames of fixed-width columns sized from their dtypes."""

from __future__ import annotations

import numpy as np
import pandas as pd

from jupyter_mars.engine.sizeof import sizeof


def test_frames_of_fixed_width_columns_are_sized_as_pandas_sizes_them() -> None:
    n = 67
    frame = pd.DataFrame(np.zeros((7, n)), index=pd.Index(np.arange(7) * 2, name="k"))
    frame[0] = frame[0].astype("int8")
    frame[1] = pd.Timestamp("2020")
    assert sizeof(frame) == frame.memory_usage(deep=True).sum()
    frame.index = frame.index.astype(str)  # strings in the index are measured too
    assert sizeof(frame) == frame.memory_usage(deep=True).sum()
    frame[2] = "some text"  # an object column: pandas measures the strings
    assert sizeof(frame) == frame.memory_usage(deep=True).sum()
    narrow = pd.DataFrame({"a": [1.0, 2.0]})
    assert sizeof(narrow) == narrow.memory_usage(deep=True).sum()
    nested = pd.DataFrame(
        np.ones((3, 2)), columns=pd.MultiIndex.from_tuples([("v", "s"), ("v", "n")])
    )
    assert sizeof(nested) == nested.memory_usage(deep=True).sum()
    assert sizeof(pd.DataFrame()) == pd.DataFrame().memory_usage(deep=True).sum()


class _Unmeasurable:
    """Like a pandas frame holding objects pandas cannot measure: both ways of asking
    its size raise."""

    def memory_usage(self, deep: bool = False) -> int:
        raise ValueError("'values' must be a NumPy array")

    def __sizeof__(self) -> int:
        raise ValueError("'values' must be a NumPy array")


def test_a_value_that_cannot_be_measured_still_has_a_size() -> None:
    # a raising size stopped the executor thread that recorded the result: the job hung
    assert sizeof(_Unmeasurable()) > 0
