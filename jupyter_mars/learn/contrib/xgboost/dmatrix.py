"""``MarsDMatrix``: XGBoost's ``DMatrix`` arguments, lazy: tensors and frames.

Nothing is computed when one is made: ``train`` cuts it into parts held by the workers
(``contrib/parts.py``), and each trainer makes a real ``xgboost.DMatrix`` of the parts it
holds (``MatrixSpec.local``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import xgboost

from jupyter_mars.dataframe.core import DataFrame as LazyFrame
from jupyter_mars.learn.contrib.parts import Part, build_parts, concat_field
from jupyter_mars.learn.utils.validation import (
    check_array,
    check_consistent_length,
    column_or_1d,
    to_tensor,
)
from jupyter_mars.tensor.core import Tensor

__all__ = ["MarsDMatrix", "MatrixSpec"]


def feature_names_of(data: Any) -> list[str] | None:
    """The column names of a frame (as strings), as ``xgboost.DMatrix`` takes them from
    a pandas one; None for anything else."""
    if isinstance(data, LazyFrame | pd.DataFrame):
        return [str(column) for column in data.columns]
    return None


class MarsDMatrix:
    """The data ``train`` trains on, with what XGBoost's ``DMatrix`` takes beside it.

    ``data``: 2-d, an array, a pandas or lazy frame, or a tensor; ``label``, ``weight``:
    1-d, one per row; ``base_margin``: each row's starting score (1-d, or one column per
    class); ``missing``: the value that means missing (NaN when None); ``feature_names``
    (by default a frame's columns) and ``feature_types`` as XGBoost takes them. Lazy:
    nothing is computed until ``train`` (or ``predict``) runs.
    """

    def __init__(
        self,
        data: Any,
        label: Any = None,
        weight: Any = None,
        base_margin: Any = None,
        missing: float | None = None,
        feature_names: Sequence[str] | None = None,
        feature_types: Sequence[str] | None = None,
    ) -> None:
        if isinstance(data, MarsDMatrix):
            raise TypeError("data is a MarsDMatrix already; give its arrays instead")
        self.data: Tensor = check_array(
            data, dtype="numeric", ensure_all_finite=False, input_name="data"
        )
        self.label: Tensor | None = None if label is None else column_or_1d(label)
        self.weight: Tensor | None = None if weight is None else column_or_1d(weight)
        self.base_margin: Tensor | None = (
            None if base_margin is None else _margin(to_tensor(base_margin))
        )
        check_consistent_length(self.data, self.label, self.weight, self.base_margin)
        self.missing = missing
        names = feature_names_of(data) if feature_names is None else list(feature_names)
        n_features = self.data.shape[1]
        if names is not None and len(names) != n_features:
            raise ValueError(
                f"feature_names must have the length of the number of columns, {n_features}: "
                f"got {len(names)}"
            )
        self.feature_names = names
        self.feature_types = None if feature_types is None else list(feature_types)

    @property
    def shape(self) -> tuple[float, ...]:
        return tuple(self.data.shape)

    def num_row(self) -> float:
        return float(self.data.shape[0])

    def num_col(self) -> int:
        return int(self.data.shape[1])

    def parts(self) -> Tensor:
        """Its row blocks as parts (``contrib/parts.py``), not computed yet."""
        return build_parts(self.data, label=self.label, weight=self.weight, margin=self.base_margin)

    def spec(self) -> MatrixSpec:
        return MatrixSpec(self.num_col(), self.missing, self.feature_names, self.feature_types)

    def __repr__(self) -> str:
        return f"<MarsDMatrix shape={self.shape}>"


def _margin(t: Tensor) -> Tensor:
    if t.ndim == 2 and t.shape[1] == 1:
        raveled: Tensor = t.ravel()
        return raveled
    if t.ndim not in (1, 2):
        raise ValueError(f"base_margin must be 1-d or 2-d, got {t.ndim} dimensions")
    return t


@dataclass(frozen=True)
class MatrixSpec:
    """What a trainer needs besides the parts to make its ``xgboost.DMatrix``."""

    n_features: int
    missing: float | None
    feature_names: list[str] | None
    feature_types: list[str] | None

    def local(self, parts: list[Part]) -> xgboost.DMatrix:
        """A ``DMatrix`` of ``parts`` (the rows this worker holds; none: no rows)."""
        if parts:
            data = concat_field(parts, "data")
        else:
            data = np.empty((0, self.n_features))
        label = concat_field(parts, "label")
        if not parts:
            label = np.empty(0)
        return xgboost.DMatrix(
            data,
            label=label,
            weight=concat_field(parts, "weight"),
            base_margin=concat_field(parts, "margin"),
            missing=self.missing,
            feature_names=self.feature_names,
            feature_types=self.feature_types,
        )
