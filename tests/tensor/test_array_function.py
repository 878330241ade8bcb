"""``np.<func>(tensor, ...)`` stays lazy for every NumPy function ``mt`` has: NumPy hands
the call to ``Tensor.__array_function__`` (or ``__array_ufunc__``), which calls ``mt``'s
function, and nothing is computed. The main namespace's functions come from
``scripts/api_coverage.py`` and ``numpy.fft``/``numpy.linalg``'s from ``mt.fft``/``mt.linalg``,
so a function added to ``mt`` is checked here at once."""

from __future__ import annotations

import importlib.util
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.tensor.core import Tensor

_SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "api_coverage.py"


def _present() -> list[str]:
    spec = importlib.util.spec_from_file_location("api_coverage", _SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return list(module.numpy_section().present)


PRESENT = _present()

# functions whose arguments hold no array, so NumPy has nothing to dispatch on
NO_ARRAY = {
    "bartlett": "takes a length",
    "blackman": "takes a length",
    "broadcast_shapes": "takes shapes",
    "diag_indices": "takes a length",
    "from_dlpack": "reads the DLPack protocol, which a lazy tensor does not offer",
    "geomspace": "takes numbers",
    "geterr": "takes nothing",
    "hamming": "takes a length",
    "hanning": "takes a length",
    "indices": "takes a shape",
    "kaiser": "takes a length",
    "linspace": "takes numbers",
    "logspace": "takes numbers",
    "mask_indices": "takes a length and a function",
    "seterr": "takes error modes",
    "tril_indices": "takes lengths",
    "triu_indices": "takes lengths",
}
# conversions to NumPy: ``np.asarray(tensor)`` computes the tensor by design; they dispatch
# only with ``like=``
CONVERSIONS = {"array", "asanyarray", "asarray", "ascontiguousarray", "asfortranarray", "require"}
NOT_DISPATCHED = {"asarray_chkfinite": "NumPy converts its argument before any dispatch"}
# answers from shape and dtype, computed without executing: name -> expected type
METADATA: dict[str, type | tuple[type, ...]] = {
    "common_type": type,
    "iscomplexobj": bool,
    "isrealobj": bool,
    "ndim": int,
    "result_type": np.dtype,
    "size": int,
}
# creation functions, which dispatch through ``like=``
LIKE = {
    "arange": ((5,), {}),
    "empty": ((3,), {}),
    "eye": ((3,), {}),
    "fromfunction": ((lambda i: i * 2, (4,)), {}),
    "fromiter": ((range(4), int), {}),
    "full": ((3, 1.5), {}),
    "identity": ((3,), {}),
    "ones": ((3,), {}),
    "tri": ((3,), {}),
    "zeros": ((3,), {}),
}


def _fixtures() -> dict[str, Tensor]:
    data = np.arange(1.0, 13.0).reshape(3, 4) / 13
    return {
        "F": mt.tensor(data, chunk_size=2),
        "G": mt.tensor(data[::-1].copy(), chunk_size=2),
        "I": mt.tensor(np.arange(12).reshape(3, 4), chunk_size=2),
        "V": mt.tensor(np.linspace(0, 1, 4), chunk_size=3),
        "S": mt.tensor(np.arange(9.0).reshape(3, 3), chunk_size=2),
        "C": mt.tensor(np.arange(24.0).reshape(2, 3, 4), chunk_size=2),
        "X": mt.tensor(np.arange(6.0).reshape(2, 3), chunk_size=2),
        "N": mt.tensor(np.array([3, 0, 7, 1]), chunk_size=3),
        "T": mt.tensor(np.array(["2020-01-01", "NaT"], dtype="M8[D]")),
    }


Args = Callable[[dict[str, Tensor]], tuple[tuple[Any, ...], dict[str, Any]]]

# arguments where one tensor is not enough; every other function gets ``F`` (a ufunc
# gets ``nin`` float tensors, or integer ones where it has no float loop)
ARGS: dict[str, Args] = {
    "allclose": lambda t: ((t["F"], t["G"]), {}),
    "append": lambda t: ((t["F"], t["G"]), {}),
    "apply_along_axis": lambda t: ((np.sum, 1, t["F"]), {}),
    "apply_over_axes": lambda t: ((np.sum, t["F"], [0]), {}),
    "argpartition": lambda t: ((t["F"], 1), {}),
    "array_equal": lambda t: ((t["F"], t["G"]), {}),
    "array_equiv": lambda t: ((t["F"], t["G"]), {}),
    "array_split": lambda t: ((t["F"], 2), {}),
    "astype": lambda t: ((t["F"], np.int32), {}),
    "bincount": lambda t: ((t["N"],), {}),
    "broadcast_to": lambda t: ((t["V"], (3, 4)), {}),
    "choose": lambda t: ((t["I"] % 2, [t["F"], t["G"]]), {}),
    "clip": lambda t: ((t["F"], 0.2, 0.5), {}),
    "compress": lambda t: (([True, False, True], t["F"]), {"axis": 0}),
    "convolve": lambda t: ((t["V"], t["V"][:2]), {}),
    "copyto": lambda t: ((t["F"], t["G"]), {}),
    "correlate": lambda t: ((t["V"], t["V"][:2]), {}),
    "cross": lambda t: ((t["X"], t["X"][::-1]), {}),
    "cumulative_prod": lambda t: ((t["F"],), {"axis": 0}),
    "cumulative_sum": lambda t: ((t["F"],), {"axis": 1}),
    "delete": lambda t: ((t["F"], 1), {}),
    "diag_indices_from": lambda t: ((t["S"],), {}),
    "digitize": lambda t: ((t["F"], [0.2, 0.5]), {}),
    "dot": lambda t: ((t["F"], t["G"].T), {}),
    "dsplit": lambda t: ((t["C"], 2), {}),
    "einsum": lambda t: (("ij->i", t["F"]), {}),
    "einsum_path": lambda t: (("ij,jk->ik", t["F"], t["G"].T), {}),
    "expand_dims": lambda t: ((t["F"], 0), {}),
    "extract": lambda t: ((t["F"] > 0.5, t["F"]), {}),
    "fill_diagonal": lambda t: ((t["S"], 0.0), {}),
    "full_like": lambda t: ((t["F"], 2.0), {}),
    "histogram2d": lambda t: ((t["V"], t["V"]), {}),
    "histogramdd": lambda t: ((t["F"],), {"bins": 3}),
    "hsplit": lambda t: ((t["F"], 2), {}),
    "inner": lambda t: ((t["F"], t["G"]), {}),
    "insert": lambda t: ((t["F"], 1, 0.0), {}),
    "interp": lambda t: ((t["F"], t["V"], t["V"] * 2), {}),
    "intersect1d": lambda t: ((t["F"], t["G"]), {}),
    "isclose": lambda t: ((t["F"], t["G"]), {}),
    "isin": lambda t: ((t["F"], [0.5]), {}),
    "isnat": lambda t: ((t["T"],), {}),
    "ix_": lambda t: ((t["N"], t["V"] > 0.5), {}),
    "kron": lambda t: ((t["X"], t["X"]), {}),
    "matmul": lambda t: ((t["F"], t["G"].T), {}),
    "matvec": lambda t: ((t["F"], t["V"]), {}),
    "moveaxis": lambda t: ((t["F"], 0, 1), {}),
    "nanpercentile": lambda t: ((t["F"], 50), {}),
    "nanquantile": lambda t: ((t["F"], 0.5), {}),
    "outer": lambda t: ((t["V"], t["V"]), {}),
    "packbits": lambda t: ((t["F"] > 0.5,), {}),
    "pad": lambda t: ((t["F"], 1), {"mode": "reflect"}),
    "partition": lambda t: ((t["F"], 1), {}),
    "piecewise": lambda t: ((t["F"], [t["F"] > 0.5], [0.0, 1.0]), {}),
    "place": lambda t: ((t["F"], t["F"] > 0.5, [0.0, 1.0]), {}),
    "put": lambda t: ((t["F"], [0, 5], [1.0, 2.0]), {}),
    "put_along_axis": lambda t: ((t["F"], t["I"] % 4, 0.0, 1), {}),
    "putmask": lambda t: ((t["F"], t["F"] > 0.5, [0.0, 1.0]), {}),
    "percentile": lambda t: ((t["F"], 50), {}),
    "quantile": lambda t: ((t["F"], 0.5), {}),
    "repeat": lambda t: ((t["F"], 2), {}),
    "ravel_multi_index": lambda t: (((t["N"], t["N"]), (8, 8)), {}),
    "reshape": lambda t: ((t["F"], (4, 3)), {}),
    "resize": lambda t: ((t["F"], (2, 2)), {}),
    "roll": lambda t: ((t["F"], 1), {}),
    "rollaxis": lambda t: ((t["F"], 1), {}),
    "searchsorted": lambda t: ((t["V"], 0.5), {}),
    "select": lambda t: (([t["F"] > 0.5], [t["G"]]), {}),
    "setdiff1d": lambda t: ((t["F"], t["G"]), {}),
    "setxor1d": lambda t: ((t["F"], t["G"]), {}),
    "split": lambda t: ((t["F"], 3), {}),
    "swapaxes": lambda t: ((t["F"], 0, 1), {}),
    "take": lambda t: ((t["F"], [0, 1]), {}),
    "take_along_axis": lambda t: ((t["F"], t["I"] % 4, 1), {}),
    "tensordot": lambda t: ((t["F"], t["G"]), {}),
    "tile": lambda t: ((t["F"], 2), {}),
    "union1d": lambda t: ((t["F"], t["G"]), {}),
    "unpackbits": lambda t: ((t["I"].astype(np.uint8),), {}),
    "unravel_index": lambda t: ((t["N"], (3, 4)), {}),
    "vander": lambda t: ((t["V"],), {}),
    "vdot": lambda t: ((t["F"], t["G"]), {}),
    "vecdot": lambda t: ((t["F"], t["G"]), {}),
    "vecmat": lambda t: ((t["V"], t["G"].T), {}),
    "vsplit": lambda t: ((t["F"], 3), {}),
}


IN_PLACE = {"copyto", "fill_diagonal", "place", "put", "put_along_axis", "putmask"}


def _default_args(func: Any, t: dict[str, Tensor]) -> tuple[tuple[Any, ...], dict[str, Any]]:
    if isinstance(func, np.ufunc):
        floats = any(sig.split("->")[0] == "d" * func.nin for sig in func.types)
        return (t["F"] if floats else t["I"],) * func.nin, {}
    return (t["F"],), {}


def _lazy(result: Any) -> bool:
    if isinstance(result, Tensor):
        return True
    return isinstance(result, (tuple, list)) and all(_lazy(r) for r in result)


def _none_executed(tensors: dict[str, Tensor]) -> bool:
    return all(t._executed_data() is None for t in tensors.values())


DISPATCHED = sorted(
    set(PRESENT) - set(NO_ARRAY) - CONVERSIONS - set(NOT_DISPATCHED) - set(METADATA) - set(LIKE)
)


@pytest.mark.parametrize("name", DISPATCHED)
def test_numpy_function_of_a_tensor_is_lazy(name: str) -> None:
    func = getattr(np, name)
    tensors = _fixtures()
    args, kwargs = ARGS[name](tensors) if name in ARGS else _default_args(func, tensors)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the dtype probes of log(0) etc.
        result = func(*args, **kwargs)
    if name in IN_PLACE:  # in place: the tensor is rebound lazily
        assert result is None
        result = args[0]
    if name == "histogramdd":  # the counts, and a list of edges
        result = (result[0], *result[1])
    if name == "einsum_path":  # a contraction plan, from shapes alone
        assert isinstance(result[1], str)
    else:
        assert _lazy(result), f"np.{name} gave {type(result).__name__}"
    assert _none_executed(tensors)


@pytest.mark.parametrize("name", sorted(METADATA))
def test_numpy_metadata_question_of_a_tensor_computes_nothing(name: str) -> None:
    tensors = _fixtures()
    result = getattr(np, name)(tensors["F"])
    assert isinstance(result, METADATA[name])
    assert _none_executed(tensors)


def test_numpy_shape_size_and_can_cast_of_a_tensor() -> None:
    tensors = _fixtures()
    x = tensors["F"]
    assert np.shape(x) == (3, 4)
    assert np.size(x) == 12
    assert np.size(x, 1) == 4
    assert np.can_cast(x, np.complex128) is True
    assert np.can_cast(x, np.int8) is False
    assert _none_executed(tensors)


@pytest.mark.parametrize("name", sorted(set(LIKE) & set(PRESENT)))
def test_numpy_creation_with_like_a_tensor_is_lazy(name: str) -> None:
    args, kwargs = LIKE[name]
    like = mt.ones(2)
    assert isinstance(getattr(np, name)(*args, like=like, **kwargs), Tensor)


@pytest.mark.parametrize("name", sorted(CONVERSIONS))
def test_numpy_conversion_with_like_a_tensor_is_lazy(name: str) -> None:
    tensors = _fixtures()
    result = getattr(np, name)(tensors["F"], like=tensors["G"])
    assert isinstance(result, Tensor)
    assert _none_executed(tensors)


def test_every_function_mt_has_is_checked() -> None:
    listed = set(NO_ARRAY) | CONVERSIONS | set(NOT_DISPATCHED) | set(METADATA) | set(LIKE)
    assert listed <= set(PRESENT) | {"shape"}
    assert set(ARGS) <= set(DISPATCHED)


def _submodule_functions(name: str) -> list[str]:
    numpy_module, mt_module = getattr(np, name), getattr(mt, name)
    return sorted(
        f"{name}.{n}"
        for n in dir(numpy_module)
        if not n.startswith("_")
        and callable(getattr(numpy_module, n))
        and not isinstance(getattr(numpy_module, n), type)
        and callable(getattr(mt_module, n, None))
    )


# arguments where one tensor (a vector for fft, a square matrix for linalg) is not enough
SUBMODULE_ARGS: dict[str, Args] = {
    "fft.fft2": lambda t: ((t["S"],), {}),
    "fft.ifft2": lambda t: ((t["S"],), {}),
    "fft.rfft2": lambda t: ((t["S"],), {}),
    "fft.irfft2": lambda t: ((t["S"],), {}),
    "linalg.lstsq": lambda t: ((t["S"], t["S"][:, 0]), {}),
    "linalg.matmul": lambda t: ((t["S"], t["S"]), {}),
    "linalg.solve": lambda t: ((t["S"], t["S"][:, 0]), {}),
    "linalg.tensordot": lambda t: ((t["S"], t["S"]), {}),
}
# they take lengths, not arrays
SUBMODULE_NO_ARRAY = {"fft.fftfreq", "fft.rfftfreq"}


@pytest.mark.parametrize(
    "name",
    sorted(set(_submodule_functions("fft") + _submodule_functions("linalg")) - SUBMODULE_NO_ARRAY),
)
def test_numpy_fft_and_linalg_function_of_a_tensor_is_lazy(name: str) -> None:
    module, function = name.split(".")
    func = getattr(getattr(np, module), function)
    tensors = _fixtures()
    spd = tensors["S"] @ tensors["S"].T + 3 * mt.eye(3)  # invertible and positive definite
    tensors["S"] = spd
    if name in SUBMODULE_ARGS:
        args, kwargs = SUBMODULE_ARGS[name](tensors)
    else:
        args, kwargs = ((tensors["V"] if module == "fft" else spd),), {}
    result = func(*args, **kwargs)
    assert _lazy(result), f"np.{name} gave {type(result).__name__}"
    assert _none_executed(tensors)
