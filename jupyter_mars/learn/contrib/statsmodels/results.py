"""``MarsResults``: the joined statsmodels results of a distributed fit, whose
``predict`` is lazy and runs one task per row block of the new data."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from jupyter_mars.learn.utils.blocks import map_rows
from jupyter_mars.learn.utils.validation import check_array
from jupyter_mars.tensor.core import Tensor

__all__ = ["MarsResults", "design_matrix"]


def design_matrix(data: Any, name: str, ensure_all_finite: bool | str = True) -> Tensor:
    """``data`` as a 2-d numeric tensor of regressors (a 1-d one as its only column)."""
    x = check_array(
        data, ensure_2d=False, allow_nd=True, ensure_all_finite=ensure_all_finite, input_name=name
    )
    if x.ndim == 1:
        column: Tensor = x.reshape(-1, 1)
        return column
    if x.ndim != 2:
        raise ValueError(f"{name} must be 1-d or 2-d, got an array of {x.ndim} dimensions")
    return x


def predict_block(
    results: Any, args: tuple[Any, ...], kwargs: dict[str, Any], block: np.ndarray[Any, Any]
) -> np.ndarray[Any, Any]:
    """The predictions of ``results`` for one row block."""
    return np.asarray(results.predict(block, *args, **kwargs))


class MarsResults:
    """statsmodels' results of a ``MarsDistributedModel`` fit, for its parameters joined
    from the partitions' fits.

    Attributes are statsmodels' (``params``, and where the estimation gives a covariance,
    ``bse``, ``tvalues``, ``pvalues``, ``conf_int()``, ``cov_params()``): they are read
    from the results object, which ``model`` returns, as in Mars. ``predict`` returns a
    lazy tensor.
    """

    def __init__(self, model: Any, n_features: int) -> None:
        self._model = model
        self._n_features = n_features

    @property
    def model(self) -> Any:
        """The statsmodels results object (Mars's name for it)."""
        return self._model

    def __getattr__(self, name: str) -> Any:
        # only called for names not found on this object; copy and pickle look up
        # special names before ``__init__`` has run, when ``_model`` is not there yet
        if name.startswith("__") or name in ("_model", "_n_features"):
            raise AttributeError(name)
        return getattr(self._model, name)

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(dir(self._model)))

    def __repr__(self) -> str:
        return f"<MarsResults of {type(self._model).__name__}>"

    def predict(self, exog: Any, *args: Any, **kwargs: Any) -> Tensor:
        """The model's predictions for the rows of ``exog`` (an array, frame or tensor with
        the fitted number of columns), as a lazy tensor computed one row block per task.

        ``args`` and ``kwargs`` go to statsmodels' ``predict`` for every block as they
        are, so they must not hold one value per row.
        """
        x = design_matrix(exog, "exog")
        if x.shape[1] != self._n_features:
            raise ValueError(
                f"exog has {x.shape[1]} columns, but the model was fitted on {self._n_features}"
            )
        # one row of zeros shows the shape and dtype of a block's predictions (more than
        # one column for a multinomial model), and any error in the arguments, here
        probe = predict_block(self._model, args, kwargs, np.zeros((1, self._n_features)))
        kernel = functools.partial(predict_block, self._model, args, kwargs)
        return map_rows(
            kernel, x, trailing=probe.shape[1:], dtype=probe.dtype, name="statsmodels_predict"
        )
