"""``predict``: a booster's predictions, one task per row block of the data."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pandas as pd
import xgboost

from jupyter_mars.dataframe.core import DataFrame as LazyFrame
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.learn.contrib.xgboost.dmatrix import MarsDMatrix
from jupyter_mars.learn.utils.blocks import map_rows
from jupyter_mars.tensor.core import Tensor

__all__ = ["predict"]

PREDICTION_NAME = "predictions"
"""The name of the series ``predict`` gives for a frame."""


def _block_matrix(
    names: list[str] | None,
    types: list[str] | None,
    missing: float | None,
    block: Any,
    margin: Any = None,
) -> xgboost.DMatrix:
    if isinstance(block, pd.DataFrame):
        return xgboost.DMatrix(block, base_margin=margin, missing=missing)
    return xgboost.DMatrix(
        block, base_margin=margin, missing=missing, feature_names=names, feature_types=types
    )


def predict_block(
    booster: xgboost.Booster,
    matrix: tuple[list[str] | None, list[str] | None, float | None],
    kwargs: dict[str, Any],
    block: Any,
    margin: Any = None,
) -> np.ndarray[Any, Any]:
    """The booster's predictions for one row block (and its base margin)."""
    if len(block) == 0:
        # XGBoost predicts nothing for no rows, in the shape of nothing: give the columns
        return np.empty((0, *_trailing(booster, matrix, kwargs)), dtype=np.float32)
    return np.asarray(booster.predict(_block_matrix(*matrix, block, margin), **kwargs))


def predict_frame_block(
    booster: xgboost.Booster,
    matrix: tuple[list[str] | None, list[str] | None, float | None],
    kwargs: dict[str, Any],
    block: pd.DataFrame,
) -> pd.Series | pd.DataFrame:
    """The predictions for one row chunk of a frame, on its index."""
    values = predict_block(booster, matrix, kwargs, block)
    if values.ndim == 1:
        return pd.Series(values, index=block.index, name=PREDICTION_NAME)
    return pd.DataFrame(values, index=block.index)


def _trailing(
    booster: xgboost.Booster,
    matrix: tuple[list[str] | None, list[str] | None, float | None],
    kwargs: dict[str, Any],
) -> tuple[int, ...]:
    """The shape of one row's prediction, found by predicting a row of zeros."""
    names, types, missing = matrix
    n_features = booster.num_features()
    probe = xgboost.DMatrix(
        np.zeros((1, n_features)),
        missing=missing,
        feature_names=booster.feature_names if names is None else names,
        feature_types=booster.feature_types if types is None else types,
    )
    shape: tuple[int, ...] = np.shape(booster.predict(probe, **kwargs))[1:]
    return shape


def predict(
    model: xgboost.Booster,
    data: Any,
    output_margin: bool = False,
    session: Any = None,
    run_kwargs: dict[str, Any] | None = None,
    **kwargs: Any,
) -> Any:
    """``model``'s predictions for ``data``, computed one row block at a time: a lazy
    tensor (``.execute()`` computes it), or for a lazy frame a lazy series named
    ``"predictions"`` on its index (a frame of one column per class where each row has
    several values).

    ``data``: an array, a pandas or lazy frame, a tensor or a ``MarsDMatrix`` (whose
    ``base_margin`` is added). ``output_margin`` and the other keywords
    (``pred_leaf``, ``pred_contribs``, ``iteration_range``, ``validate_features``,
    ``strict_shape``, ...) are ``Booster.predict``'s. ``session`` and ``run_kwargs``
    are accepted for Mars's signature and not used: nothing runs until executed.
    """
    if not isinstance(model, xgboost.Booster):
        raise TypeError(f"model has to be a xgboost.Booster, got {type(model).__name__} instead")
    options = {"output_margin": output_margin, **kwargs}
    frame = data if isinstance(data, LazyFrame) else None
    matrix = data if isinstance(data, MarsDMatrix) else MarsDMatrix(data)
    n_features = model.num_features()
    if n_features and matrix.num_col() != n_features:
        raise ValueError(f"Feature shape mismatch, expected: {n_features}, got {matrix.num_col()}")
    described = (matrix.feature_names, matrix.feature_types, matrix.missing)
    trailing = _trailing(model, described, options)
    if frame is not None and matrix.base_margin is None:
        kernel = functools.partial(predict_frame_block, model, described, options)
        index = frame.node.meta.index  # type: ignore[attr-defined]
        meta: Any = (
            pd.DataFrame(np.empty((0, *trailing), dtype=np.float32), index=index)
            if trailing
            else pd.Series(np.empty(0, dtype=np.float32), index=index, name=PREDICTION_NAME)
        )
        return map_chunks(kernel, [frame], (Slot(0),), meta, name="xgb_predict")
    kernel = functools.partial(predict_block, model, described, options)
    inputs = [matrix.data] if matrix.base_margin is None else [matrix.data, matrix.base_margin]
    result: Tensor = map_rows(
        kernel, *inputs, trailing=trailing, dtype=np.float32, name="xgb_predict"
    )
    return result
