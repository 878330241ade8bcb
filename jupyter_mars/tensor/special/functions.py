"""The ``scipy.special`` functions that are Python functions rather than ufuncs.

They are still element-wise over their array arguments (``polygamma(n, x)``,
``ellip_harm(h2, k2, n, p, s)``, ...), so each chunk is one call of the SciPy function.
Their result dtype comes from calling them on empty arrays of the operands' dtypes, which
also makes SciPy raise at the call for arguments it cannot take.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import scipy.special

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.elemwise import elemwise
from jupyter_mars.tensor.special.outputs import write_outputs
from jupyter_mars.tensor.special.ufunc import meta_operand


def _check_numeric(name: str, names: Sequence[str], args: Sequence[Any]) -> None:
    for arg_name, arg in zip(names, args):
        if arg is None:  # an optional argument left out
            continue
        meta = meta_operand(arg)
        try:
            kind = np.asarray(meta).dtype.kind
        except (TypeError, ValueError):
            kind = "O"
        if kind not in "biufc":
            raise TypeError(
                f"{name}(): argument {arg_name!r} must be numeric, got "
                f"{type(arg).__name__} of dtype {np.asarray(meta).dtype}"
            )


def _result_dtype(func: Callable[..., Any], names: Sequence[str], args: Sequence[Any]) -> Any:
    _check_numeric(func.__name__, names, args)
    with np.errstate(all="ignore"):
        return np.asarray(func(*(meta_operand(a) for a in args))).dtype


def _lazy(func: Callable[..., Any], names: Sequence[str], *args: Any) -> Tensor:
    dtype = _result_dtype(func, names, args)
    return elemwise(func, *args, dtype=dtype, name=func.__name__)


def polygamma(n: Any, x: Any) -> Tensor:
    """Lazy, chunked ``scipy.special.polygamma``: the n-th derivative of the digamma."""
    return _lazy(scipy.special.polygamma, ("n", "x"), n, x)


def multigammaln(a: Any, d: Any) -> Tensor:
    """Lazy, chunked ``scipy.special.multigammaln``: the log of the multivariate gamma.

    ``d`` (an integer) is checked at the call, and so is ``a > (d-1)/2`` when ``a`` is
    data at hand; for a tensor ``a`` that condition is checked as its chunks run.
    """
    if isinstance(d, Tensor):
        raise ValueError("d should be a positive integer (dimension)")
    func = scipy.special.multigammaln
    dtype = _result_dtype(func, ("a", "d"), (a, d))  # SciPy checks d here
    if not isinstance(a, Tensor):
        bound = 0.5 * (np.asarray(d)[()] - 1)
        if np.any(np.asarray(a) <= bound):
            raise ValueError(f"condition a ({np.asarray(a)}) > 0.5 * (d-1) ({bound}) not met")
    return elemwise(func, a, d, dtype=dtype, name="multigammaln")


def ellip_harm(h2: Any, k2: Any, n: Any, p: Any, s: Any, signm: Any = 1, signn: Any = 1) -> Tensor:
    """Lazy, chunked ``scipy.special.ellip_harm``: ellipsoidal harmonics E^p_n(s)."""
    names = ("h2", "k2", "n", "p", "s", "signm", "signn")
    return _lazy(scipy.special.ellip_harm, names, h2, k2, n, p, s, signm, signn)


def ellip_harm_2(h2: Any, k2: Any, n: Any, p: Any, s: Any) -> Tensor:
    """Lazy, chunked ``scipy.special.ellip_harm_2``: ellipsoidal harmonics F^p_n(s)."""
    return _lazy(scipy.special.ellip_harm_2, ("h2", "k2", "n", "p", "s"), h2, k2, n, p, s)


def ellip_normal(h2: Any, k2: Any, n: Any, p: Any) -> Tensor:
    """Lazy, chunked ``scipy.special.ellip_normal``: normalisation constants gamma^p_n."""
    return _lazy(scipy.special.ellip_normal, ("h2", "k2", "n", "p"), h2, k2, n, p)


def zeta(x: Any, q: Any = None, out: Any = None) -> Tensor:
    """Lazy, chunked ``scipy.special.zeta``: Riemann zeta, or Hurwitz zeta with ``q``."""
    result = _lazy(scipy.special.zeta, ("x", "q"), x, q)
    return write_outputs("zeta", [result], out, True, "same_kind")[0]


__all__ = ["ellip_harm", "ellip_harm_2", "ellip_normal", "multigammaln", "polygamma", "zeta"]
