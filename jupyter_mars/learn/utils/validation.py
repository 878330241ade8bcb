"""Input checks, as scikit-learn's ``sklearn.utils.validation`` makes them, on tensors.

NumPy arrays, lists, pandas objects, tensors and frames all become tensors. What the
shape and dtype say is checked at once, at the user's line, with scikit-learn's messages
and exception types. What needs the values (NaN and infinity) is checked at once for
data in memory, and inside the chunk tasks for a tensor or frame: the error then comes
from the ``fit`` or ``execute`` that computes it, still a ``ValueError``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted

import jupyter_mars.tensor as mt
from jupyter_mars.dataframe.core import FrameBase
from jupyter_mars.executable import Session, execute, fetch
from jupyter_mars.tensor.core import Tensor

__all__ = [
    "NotFittedError",
    "check_X_y",
    "check_array",
    "check_consistent_length",
    "check_is_fitted",
    "column_or_1d",
    "fetch_all",
    "num_samples",
    "to_tensor",
]

_NUMERIC_KINDS = "biufc"


def to_tensor(data: Any, chunk_size: Any = None) -> Tensor:
    """``data`` as a tensor: a tensor itself, a frame's values (``to_tensor``), or a tensor
    of an array-like's values (pandas objects by their ``to_numpy``)."""
    if isinstance(data, Tensor):
        return data if chunk_size is None else data.rechunk(chunk_size)
    if isinstance(data, FrameBase):
        values: Tensor = data.to_tensor()  # type: ignore[attr-defined]
        return values if chunk_size is None else values.rechunk(chunk_size)
    if isinstance(data, pd.DataFrame | pd.Series):
        data = data.to_numpy()
    array = np.asarray(data)
    if array.dtype.kind == "O":
        try:
            array = array.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"could not convert the input's values to numbers: {exc}") from exc
    return mt.tensor(array, chunk_size=chunk_size)


def num_samples(x: Any) -> float:
    """How many samples ``x`` has (its first dimension); NaN where a tensor's is unknown
    until it is computed."""
    shape = getattr(x, "shape", None)
    if shape is None:
        if not hasattr(x, "__len__"):
            raise TypeError(f"Expected sequence or array-like, got {type(x)}")
        return float(len(x))
    if len(shape) == 0:
        raise TypeError(f"Singleton array {x!r} cannot be considered a valid collection.")
    return float(shape[0])


def check_consistent_length(*arrays: Any) -> None:
    """A ``ValueError`` unless every array given (None aside) has the same number of
    samples; lengths still unknown are not compared."""
    lengths = [num_samples(a) for a in arrays if a is not None]
    known = {int(n) for n in lengths if not np.isnan(n)}
    if len(known) > 1:
        shown = [int(n) if not np.isnan(n) else "unknown" for n in lengths]
        raise ValueError(f"Found input variables with inconsistent numbers of samples: {shown}")


def _finite_block(block: np.ndarray, allow_nan: bool, name: str) -> np.ndarray:
    """The block itself, or the ``ValueError`` scikit-learn raises for its NaN or
    infinity."""
    if block.dtype.kind in "fc" and block.size and not np.isfinite(block).all():
        has_nan = bool(np.isnan(block).any())
        if has_nan and not allow_nan:
            raise ValueError(f"Input {name} contains NaN.".replace("Input  ", "Input "))
        if np.isinf(block).any():
            raise ValueError(
                f"Input {name} contains infinity or a value too large for {block.dtype!r}.".replace(
                    "Input  ", "Input "
                )
            )
    return block


def _target_dtype(dtype: Any, current: np.dtype[Any]) -> np.dtype[Any] | None:
    """The dtype the checked tensor is cast to, or None to keep ``current``."""
    if dtype is None:
        return None
    if isinstance(dtype, str) and dtype == "numeric":
        if current.kind in _NUMERIC_KINDS:
            return None
        if current.kind in "OUS":
            return np.dtype(np.float64)
        raise ValueError(f"dtype='numeric' is not compatible with arrays of {current}")
    if isinstance(dtype, list | tuple):
        wanted = [np.dtype(d) for d in dtype]
        return None if current in wanted else wanted[0]
    target = np.dtype(dtype)
    return None if target == current else target


def check_array(
    array: Any,
    *,
    accept_sparse: Any = False,
    dtype: Any = "numeric",
    order: str | None = None,
    copy: bool = False,
    ensure_all_finite: bool | str = True,
    force_all_finite: bool | str | None = None,
    ensure_2d: bool = True,
    allow_nd: bool = False,
    ensure_min_samples: int = 1,
    ensure_min_features: int = 1,
    estimator: Any = None,
    input_name: str = "",
    chunk_size: Any = None,
) -> Tensor:
    """``array`` as a checked tensor, with scikit-learn's arguments and errors: 2-d unless
    ``ensure_2d=False``, numeric (objects and strings cast to float64), at least
    ``ensure_min_samples`` rows and ``ensure_min_features`` columns, and free of NaN and
    infinity unless ``ensure_all_finite`` says otherwise (``"allow-nan"``)."""
    finite = ensure_all_finite if force_all_finite is None else force_all_finite
    if finite not in (True, False, "allow-nan"):
        raise ValueError(
            f"ensure_all_finite should be a bool or 'allow-nan'. Got {finite!r} instead."
        )
    name = input_name
    x = to_tensor(array, chunk_size=chunk_size)
    if x.issparse() and not accept_sparse:
        raise TypeError(
            "Sparse data was passed, but dense data is required. Use '.toarray()' to "
            "convert to a dense numpy array."
        )
    target = _target_dtype(dtype, x.dtype)
    if target is not None:
        x = x.astype(target)
    if ensure_2d:
        if x.ndim == 0:
            raise ValueError(
                "Expected 2D array, got scalar array instead. Reshape your data either using "
                "array.reshape(-1, 1) if your data has a single feature or array.reshape(1, -1) "
                "if it contains a single sample."
            )
        if x.ndim == 1:
            raise ValueError(
                "Expected 2D array, got 1D array instead. Reshape your data either using "
                "array.reshape(-1, 1) if your data has a single feature or array.reshape(1, -1) "
                "if it contains a single sample."
            )
    if not allow_nd and x.ndim >= 3:
        raise ValueError(f"Found array with dim {x.ndim}. Expected <= 2.")
    # scikit-learn names the estimator by its class, or by the string given instead
    named = estimator if isinstance(estimator, str) else type(estimator).__name__
    context = f" by {named}" if estimator is not None else ""
    rows = num_samples(x) if x.ndim else np.nan
    if ensure_min_samples > 0 and not np.isnan(rows) and rows < ensure_min_samples:
        raise ValueError(
            f"Found array with {int(rows)} sample(s) (shape={_shape(x)}) while a minimum of "
            f"{ensure_min_samples} is required{context}."
        )
    if ensure_min_features > 0 and x.ndim == 2 and not np.isnan(x.shape[1]):
        if x.shape[1] < ensure_min_features:
            raise ValueError(
                f"Found array with {int(x.shape[1])} feature(s) (shape={_shape(x)}) while a "
                f"minimum of {ensure_min_features} is required{context}."
            )
    if finite and x.dtype.kind in "fc" and not x.issparse():
        allow_nan = finite == "allow-nan"
        if isinstance(array, Tensor | FrameBase):
            x = mt.elemwise(_finite_block, x, allow_nan, name, dtype=x.dtype, name="check_finite")
        else:
            _finite_block(np.asarray(array, dtype=x.dtype), allow_nan, name)
    if order is not None and order in ("C", "F"):
        x = mt.asarray(x, order=order)
    return x


def _shape(x: Tensor) -> tuple[Any, ...]:
    return tuple(int(n) if not np.isnan(n) else np.nan for n in x.shape)


def column_or_1d(y: Any, *, dtype: Any = None, warn: bool = False) -> Tensor:
    """``y`` as a 1-d tensor: a column of shape ``(n, 1)`` raveled, anything else 2-d a
    ``ValueError``, as scikit-learn's ``column_or_1d``."""
    t = to_tensor(y)
    if dtype is not None:
        t = t.astype(dtype)
    if t.ndim == 1:
        return t
    if t.ndim == 2 and t.shape[1] == 1:
        raveled: Tensor = t.ravel()
        return raveled
    raise ValueError(f"y should be a 1d array, got an array of shape {_shape(t)} instead.")


def check_X_y(  # noqa: N802 - scikit-learn's name
    X: Any,  # noqa: N803
    y: Any,
    *,
    accept_sparse: Any = False,
    dtype: Any = "numeric",
    order: str | None = None,
    copy: bool = False,
    ensure_all_finite: bool | str = True,
    force_all_finite: bool | str | None = None,
    ensure_2d: bool = True,
    allow_nd: bool = False,
    multi_output: bool = False,
    ensure_min_samples: int = 1,
    ensure_min_features: int = 1,
    y_numeric: bool = False,
    estimator: Any = None,
) -> tuple[Tensor, Tensor]:
    """``X`` checked as ``check_array`` checks it and ``y`` as a target: 1-d (or 2-d with
    ``multi_output``), finite, numeric if ``y_numeric``, as long as ``X``."""
    if y is None:
        name = "estimator" if estimator is None else type(estimator).__name__
        raise ValueError(f"{name} requires y to be passed, but the target y is None")
    x = check_array(
        X,
        accept_sparse=accept_sparse,
        dtype=dtype,
        order=order,
        copy=copy,
        ensure_all_finite=ensure_all_finite,
        force_all_finite=force_all_finite,
        ensure_2d=ensure_2d,
        allow_nd=allow_nd,
        ensure_min_samples=ensure_min_samples,
        ensure_min_features=ensure_min_features,
        estimator=estimator,
        input_name="X",
    )
    if multi_output:
        t = check_array(y, ensure_2d=False, dtype=None, input_name="y")
    else:
        t = column_or_1d(y)
        if t.dtype.kind in "fc":
            t = check_array(t, ensure_2d=False, dtype=None, input_name="y")
    if y_numeric and t.dtype.kind == "O":
        t = t.astype(np.float64)
    check_consistent_length(x, t)
    return x, t


def fetch_all(
    *tensors: Any, session: Session | None = None, run_kwargs: dict[str, Any] | None = None
) -> list[Any]:
    """Execute ``tensors`` in one graph on ``session`` (the default one if None) and fetch
    their data, in order: how ``fit`` computes what it keeps."""
    run = dict(run_kwargs or {})
    run.setdefault("show_progress", False)
    tensors_ = [to_tensor(t) if not isinstance(t, Tensor | FrameBase) else t for t in tensors]
    execute(*tensors_, session=session, **run)
    return [fetch(t, session=session) for t in tensors_]
