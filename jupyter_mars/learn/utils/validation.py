"""Input checks, as scikit-learn's ``sklearn.utils.validation`` makes them, on tensors.

NumPy arrays, lists, pandas objects, SciPy sparse matrices, tensors and frames all become
tensors. What the shape and dtype say is checked at once, at the user's line, with
scikit-learn's messages and exception types. What needs the values (NaN and infinity,
negative or all-zero sample weights) is checked at once for data in memory, and inside
the chunk tasks (or by the caller, once computed) for a tensor or frame: the error then
comes from the ``fit`` or ``execute`` that computes it, still a ``ValueError``.

Besides the checks of data, the estimators' own: ``check_n_features`` (the width a
fitted estimator expects), ``check_sample_weight`` and ``check_random_state``; and
``execute_all`` and ``fetch_all``, how a ``fit`` computes what it keeps or reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.exceptions import NotFittedError
from sklearn.utils import check_random_state as sklearn_check_random_state
from sklearn.utils.validation import check_is_fitted

import jupyter_mars.tensor as mt
from jupyter_mars.dataframe.core import FrameBase
from jupyter_mars.executable import Session, execute, fetch
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.random import RandomState as TensorRandomState

__all__ = [
    "FLOAT_DTYPES",
    "NotFittedError",
    "all_zero",
    "check_X_y",
    "check_array",
    "check_consistent_length",
    "check_is_fitted",
    "check_n_features",
    "check_random_state",
    "check_sample_weight",
    "column_or_1d",
    "execute_all",
    "fetch_all",
    "float_input",
    "is_lazy",
    "num_samples",
    "raise_if_all_zero",
    "to_tensor",
]

_NUMERIC_KINDS = "biufc"

FLOAT_DTYPES = (np.float64, np.float32)
"""The float dtypes an estimator computes in: others are cast to the first."""


def is_lazy(data: Any) -> bool:
    """Whether ``data`` is a tensor or frame: its values are computed, not held."""
    return isinstance(data, Tensor | FrameBase)


def to_tensor(data: Any, chunk_size: Any = None) -> Tensor:
    """``data`` as a tensor: a tensor itself, a frame's values (``to_tensor``), a sparse
    tensor of a SciPy sparse matrix, or a tensor of an array-like's values (pandas
    objects by their ``to_numpy``)."""
    if isinstance(data, Tensor):
        return data if chunk_size is None else data.rechunk(chunk_size)
    if isinstance(data, FrameBase):
        values: Tensor = data.to_tensor()  # type: ignore[attr-defined]
        return values if chunk_size is None else values.rechunk(chunk_size)
    if sp.issparse(data):
        return mt.tensor(data, chunk_size=chunk_size)
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


def _all_finite(block: np.ndarray) -> bool:
    """Whether every value of a float block is finite: a NaN or an infinity makes the
    block's sum one, so a finite sum (one read, no temporary) answers for most blocks;
    only a sum that is not (an overflow, or a value that is not finite) looks closer."""
    with np.errstate(over="ignore", invalid="ignore"):
        if np.isfinite(block.sum()):
            return True
    return bool(np.isfinite(block).all())


def _finite_block(block: np.ndarray, allow_nan: bool, name: str) -> np.ndarray:
    """The block itself, or the ``ValueError`` scikit-learn raises for its NaN or
    infinity."""
    if block.dtype.kind in "fc" and block.size and not _all_finite(block):
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
        if is_lazy(array):
            x = mt.elemwise(_finite_block, x, allow_nan, name, dtype=x.dtype, name="check_finite")
        else:
            _finite_block(np.asarray(array, dtype=x.dtype), allow_nan, name)
    if order is not None and order in ("C", "F"):
        x = mt.asarray(x, order=order)
    return x


def float_input(
    X: Any,  # noqa: N803 - scikit-learn's name
    estimator: Any = None,
    *,
    dtype: Sequence[Any] = FLOAT_DTYPES,
    accept_sparse: bool = False,
    ensure_all_finite: bool | str = True,
) -> Tensor:
    """``X`` as a checked 2-d float tensor: a float dtype of ``dtype`` kept, anything else
    cast to its first; sparse data (a SciPy matrix too) accepted where ``accept_sparse``."""
    return check_array(
        X,
        accept_sparse=accept_sparse,
        dtype=list(dtype),
        ensure_all_finite=ensure_all_finite,
        estimator=estimator,
        input_name="X",
    )


def check_n_features(estimator: Any, x: Tensor) -> None:
    """A ``ValueError`` unless ``x`` has as many columns as the fitted ``estimator`` saw
    (``n_features_in_``; an estimator without one accepts any width)."""
    expected = getattr(estimator, "n_features_in_", None)
    if expected is not None and x.shape[1] != expected:
        raise ValueError(
            f"X has {x.shape[1]} features, but {type(estimator).__name__} is expecting "
            f"{expected} features as input."
        )


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


def _non_negative_block(block: np.ndarray) -> np.ndarray:
    """The block itself, or scikit-learn's ``ValueError`` for a negative weight in it."""
    if block.size and np.min(block) < 0:
        raise ValueError("Negative values in data passed to `sample_weight`")
    return block


def check_sample_weight(
    sample_weight: Any,
    n_samples: float,
    dtype: Any,
    *,
    non_negative: bool = False,
    allow_all_zero_weights: bool = False,
) -> Tensor | None:
    """``sample_weight`` as a 1-d tensor of ``dtype`` and ``n_samples`` items (NaN: not
    known yet), as scikit-learn's ``_check_sample_weight`` makes it: None stays None, a
    number is every sample's weight; the weights must be finite, one a sample, and with
    ``non_negative`` none below zero. Weights in memory are checked at once, all zero
    refused unless ``allow_all_zero_weights``; a tensor's or frame's values when they
    are computed, where the caller checks ``all_zero`` (as the weights' sum is computed
    with the fit)."""
    if sample_weight is None:
        return None
    if isinstance(sample_weight, int | float | np.number) and not isinstance(sample_weight, bool):
        first = dtype[0] if isinstance(dtype, list | tuple) else dtype
        return mt.full(n_samples, sample_weight, dtype=first)
    lazy = is_lazy(sample_weight)
    # data in memory is checked now (check_array does so for an array, not a tensor)
    source = sample_weight if lazy else np.asarray(sample_weight)
    weights = check_array(source, ensure_2d=False, dtype=dtype, input_name="sample_weight")
    length = "unknown" if np.isnan(n_samples) else int(n_samples)
    if weights.ndim != 1:
        raise ValueError(
            f"Sample weights must be 1D array or scalar, got {weights.ndim}D array. Expected "
            f"either a scalar value or a 1D array of length {length}."
        )
    if not (np.isnan(weights.shape[0]) or np.isnan(n_samples)) and weights.shape[0] != n_samples:
        raise ValueError(f"sample_weight.shape == {_shape(weights)}, expected {(length,)}!")
    if not lazy:
        values = np.asarray(source, dtype=weights.dtype)
        if not allow_all_zero_weights:
            raise_if_all_zero(not np.any(values != 0))
        if non_negative:
            _non_negative_block(values)
    elif non_negative:
        weights = mt.elemwise(_non_negative_block, weights, dtype=weights.dtype, name="check")
    return weights


def all_zero(weights: Tensor) -> Tensor:
    """Whether every weight is zero, which scikit-learn refuses: a lazy boolean."""
    return mt.all(mt.equal(weights, 0))


def raise_if_all_zero(flag: Any) -> None:
    """Scikit-learn's ``ValueError`` where ``flag`` (an ``all_zero``, computed) is true."""
    if bool(flag):
        raise ValueError("Sample weights must contain at least one non-zero number.")


def check_random_state(random_state: Any) -> np.random.RandomState:
    """The NumPy ``RandomState`` that ``random_state`` names, as scikit-learn's
    ``check_random_state`` (None: NumPy's global one); a tensor ``RandomState``
    (``mt.random.RandomState``) gives the source of seeds it holds."""
    if isinstance(random_state, TensorRandomState):
        return random_state._state
    state: np.random.RandomState = sklearn_check_random_state(random_state)
    return state


def execute_all(
    *tensors: Any, session: Session | None = None, run_kwargs: dict[str, Any] | None = None
) -> None:
    """Execute ``tensors`` in one graph on ``session`` (the default one if None), with
    no progress bar unless ``run_kwargs`` asks for one: their chunks stay in the session
    while the tensors are referenced, for the graphs that read them next."""
    run = {"show_progress": False, **(run_kwargs or {})}
    execute(*tensors, session=session, **run)


def fetch_all(
    *tensors: Any,
    keep: Sequence[Any] = (),
    session: Session | None = None,
    run_kwargs: dict[str, Any] | None = None,
) -> list[Any]:
    """Execute ``tensors`` in one graph on ``session`` (the default one if None) and fetch
    their data, in order: how ``fit`` computes what it reads. The tensors of ``keep`` are
    computed in the same graph and held in the session (as ``execute_all`` holds them),
    not fetched."""
    tensors_ = [t if is_lazy(t) else to_tensor(t) for t in tensors]
    execute_all(*keep, *tensors_, session=session, run_kwargs=run_kwargs)
    return [fetch(t, session=session) for t in tensors_]
