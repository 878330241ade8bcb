"""``train_test_split``: tensors and frames split into random train and test subsets.

The sizes follow scikit-learn's rules (a float test size rounds up, a float train size
down, the default test size is a quarter) and bad sizes raise its messages. With
``shuffle`` the rows are picked by the permutation of scikit-learn's ``ShuffleSplit``,
drawn in the driver from the same ``random_state``, so each subset holds the rows
scikit-learn's would, in the same order; they are then moved chunk to chunk
(``utils.shuffle.take_rows``). Without it the subsets are two row slices. ``stratify``
keeps the classes' proportions: the labels (one value a row) are fetched, and
scikit-learn's ``StratifiedShuffleSplit`` picks the rows from them.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
from sklearn.model_selection import StratifiedShuffleSplit

from jupyter_mars.dataframe.core import FrameBase
from jupyter_mars.learn.utils.chunks import with_known_rows
from jupyter_mars.learn.utils.shuffle import as_lazy, take_rows
from jupyter_mars.learn.utils.validation import (
    check_consistent_length,
    check_random_state,
    fetch_all,
    is_lazy,
)

__all__ = ["train_test_split"]

_SIZE_RULE = "a float in the range (0.0, 1.0), an int in the range [1, inf) or None"


def _check_size_type(name: str, value: Any) -> None:
    """The ``ValueError`` scikit-learn raises for a size of the wrong type or range."""
    if value is None:
        return
    if isinstance(value, numbers.Integral):
        ok = int(value) >= 1
    elif isinstance(value, float):
        ok = 0.0 < value < 1.0
    else:
        ok = False
    if not ok:
        raise ValueError(
            f"The '{name}' parameter of train_test_split must be {_SIZE_RULE}. "
            f"Got {value!r} instead."
        )


def split_sizes(
    n_samples: int, test_size: Any, train_size: Any, default_test_size: float | None = None
) -> tuple[int, int]:
    """The train and test sizes for ``n_samples`` rows, by scikit-learn's rules and with
    its messages: a float is a fraction (test rounded up, train down), an int a count,
    and a size left None is the rest."""
    if test_size is None and train_size is None:
        test_size = default_test_size
    test_kind = np.asarray(test_size).dtype.kind
    train_kind = np.asarray(train_size).dtype.kind
    for name, value, kind in (
        ("test_size", test_size, test_kind),
        ("train_size", train_size, train_kind),
    ):
        if (kind == "i" and (value >= n_samples or value <= 0)) or (
            kind == "f" and (value <= 0 or value >= 1)
        ):
            raise ValueError(
                f"{name}={value} should be either positive and smaller than the number of "
                f"samples {n_samples} or a float in the (0, 1) range"
            )
    if train_size is not None and train_kind not in ("i", "f"):
        raise ValueError(f"Invalid value for train_size: {train_size}")
    if test_size is not None and test_kind not in ("i", "f"):
        raise ValueError(f"Invalid value for test_size: {test_size}")
    if train_kind == "f" and test_kind == "f" and train_size + test_size > 1:
        raise ValueError(
            f"The sum of test_size and train_size = {train_size + test_size}, should be in "
            "the (0, 1) range. Reduce test_size and/or train_size."
        )
    n_test = n_train = 0.0
    if test_kind == "f":
        n_test = math.ceil(test_size * n_samples)
    elif test_kind == "i":
        n_test = float(test_size)
    if train_kind == "f":
        n_train = math.floor(train_size * n_samples)
    elif train_kind == "i":
        n_train = float(train_size)
    if train_size is None:
        n_train = n_samples - n_test
    elif test_size is None:
        n_test = n_samples - n_train
    if n_train + n_test > n_samples:
        raise ValueError(
            f"The sum of train_size and test_size = {int(n_train + n_test)}, should be "
            f"smaller than the number of samples {n_samples}. Reduce test_size and/or "
            "train_size."
        )
    if int(n_train) == 0:
        raise ValueError(
            f"With n_samples={n_samples}, test_size={test_size} and train_size={train_size}, "
            "the resulting train set will be empty. Adjust any of the aforementioned "
            "parameters."
        )
    return int(n_train), int(n_test)


def _labels_in_memory(labels: Any) -> np.ndarray[Any, Any]:
    """The class labels as a NumPy array, fetched where they are a tensor or frame."""
    if is_lazy(labels):
        (labels,) = fetch_all(labels)
    return np.asarray(labels.to_numpy() if hasattr(labels, "to_numpy") else labels)


def _rows(data: Any, start: int, stop: int) -> Any:
    if isinstance(data, FrameBase):
        return data.iloc[start:stop]  # type: ignore[attr-defined]
    return data[start:stop]


def train_test_split(
    *arrays: Any,
    test_size: Any = None,
    train_size: Any = None,
    random_state: Any = None,
    shuffle: bool = True,
    stratify: Any = None,
) -> list[Any]:
    """Split ``arrays`` (same number of rows) into train and test subsets, as
    scikit-learn's ``train_test_split``: ``[a_train, a_test, b_train, b_test, ...]``,
    lazy. Tensors stay tensors and frames frames, with their index; arrays and lists
    become tensors, pandas objects frames."""
    if not arrays:
        raise ValueError("At least one array required as input")
    _check_size_type("test_size", test_size)
    _check_size_type("train_size", train_size)
    if not isinstance(shuffle, bool | np.bool_):
        raise ValueError(
            "The 'shuffle' parameter of train_test_split must be an instance of 'bool' or "
            f"an instance of 'numpy.bool'. Got {shuffle!r} instead."
        )
    lazy = [None if a is None else as_lazy(a) for a in arrays]
    check_consistent_length(*lazy)
    first = next((a for a in lazy if a is not None), None)
    if first is None:
        raise ValueError("At least one array required as input")
    n_samples = int(with_known_rows(first).shape[0])
    n_train, n_test = split_sizes(n_samples, test_size, train_size, default_test_size=0.25)
    if not shuffle:
        if stratify is not None:
            raise ValueError("Stratified train/test split is not implemented for shuffle=False")
        return [
            part
            for a in lazy
            for part in (
                (None, None)
                if a is None
                else (_rows(a, 0, n_train), _rows(a, n_train, n_train + n_test))
            )
        ]
    rng = check_random_state(random_state)
    if stratify is None:
        permutation = rng.permutation(n_samples)
        test, train = permutation[:n_test], permutation[n_test : n_test + n_train]
    else:
        classes = _labels_in_memory(stratify)
        check_consistent_length(first, classes)
        splitter = StratifiedShuffleSplit(test_size=n_test, train_size=n_train, random_state=rng)
        train, test = next(splitter.split(np.zeros((n_samples, 1)), classes))
    return [
        part
        for a in lazy
        for part in ((None, None) if a is None else (take_rows(a, train), take_rows(a, test)))
    ]
