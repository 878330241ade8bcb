"""``einsum``, in the string form and the interleaved (sublist) form.

The subscripts become labels (an ellipsis's axes get negative labels) and the einsum one
``Contract`` node: each output chunk sums ``numpy.einsum`` over the chunks that meet at it
(NumPy checks the subscripts, dtypes and sizes on tiny and zero-memory arrays first).
Matrix products, transposed products and batched products use the ``dot``/``matmul``
kernels instead.
"""

from __future__ import annotations

import functools
import math
import string
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.gpu_kernels import NotOnGPU, on_gpu
from jupyter_mars.tensor.products.checks import check_out
from jupyter_mars.tensor.products.contraction import Labels, contract
from jupyter_mars.tensor.products.kernels import einsum_kernel, matmul_kernel, pair_kernel


def _sublist_to_str(sublist: Sequence[Any]) -> str:
    chars = []
    for item in sublist:
        if item is Ellipsis:
            chars.append("...")
        elif isinstance(item, (int, np.integer)) and not isinstance(item, bool) and 0 <= item < 52:
            chars.append(string.ascii_letters[int(item)])
        else:
            raise ValueError(f"einsum: subscript {item!r} is not an int in [0, 52) or Ellipsis")
    return "".join(chars)


def _einsum_args(args: Sequence[Any]) -> tuple[str, list[Any]]:
    """Subscripts string and operands, from the string form or the interleaved form."""
    if not args:
        raise TypeError("einsum() needs at least the subscripts")
    if isinstance(args[0], str):
        return args[0], list(args[1:])
    body, out = (args[:-1], args[-1]) if len(args) % 2 else (args, None)
    operands, sublists = list(body[0::2]), list(body[1::2])
    spec = ",".join(_sublist_to_str(s) for s in sublists)
    if out is not None:
        spec += "->" + _sublist_to_str(out)
    return spec, operands


def _parse_einsum(spec: str, ndims: Sequence[int]) -> tuple[list[Labels], Labels]:
    """Labels of each operand's axes and of the output (ellipsis axes get negative labels)."""
    spec = spec.replace(" ", "")
    lhs, arrow, rhs = spec.partition("->")
    terms = lhs.split(",")

    def labels(term: str, ndim: int | None) -> list[int]:
        if "..." in term:
            before, _, after = term.partition("...")
            n_ell = (ndim if ndim is not None else 0) - len(before) - len(after)
            return (
                [ord(c) for c in before]
                + [-j for j in range(n_ell, 0, -1)]
                + [ord(c) for c in after]
            )
        return [ord(c) for c in term]

    in_labels = [tuple(labels(term, nd)) for term, nd in zip(terms, ndims)]
    n_ell = max((sum(1 for lab in labs if lab < 0) for labs in in_labels), default=0)
    if arrow:
        if "..." in rhs:
            before, _, after = rhs.partition("...")
            out = (
                [ord(c) for c in before]
                + [-j for j in range(n_ell, 0, -1)]
                + [ord(c) for c in after]
            )
        else:
            out = [ord(c) for c in rhs]
    else:
        counts: dict[int, int] = {}
        for labs in in_labels:
            for lab in labs:
                counts[lab] = counts.get(lab, 0) + 1
        out = [-j for j in range(n_ell, 0, -1)] + sorted(
            lab for lab, c in counts.items() if c == 1 and lab >= 0
        )
    return list(in_labels), tuple(out)


def _fake(shape: Sequence[Any], dtype: Any) -> np.ndarray[Any, Any]:
    """A zero-memory array of ``shape`` (nan lengths become 1), for shape checks."""
    real = tuple(1 if isinstance(n, float) and math.isnan(n) else int(n) for n in shape)
    return np.broadcast_to(np.zeros((), dtype=dtype), real)


def _einsum_fast_path(
    in_labels: Sequence[Labels], out: Labels, operands: Sequence[Tensor]
) -> tuple[Callable[..., Any], bool, bool] | None:
    """A tensordot/matmul kernel when the einsum is one, and whether the operands swap."""
    if len(in_labels) != 2:
        return None
    la, lb = in_labels
    if len(set(la)) != len(la) or len(set(lb)) != len(lb) or len(set(out)) != len(out):
        return None
    shared = [lab for lab in la if lab in lb]
    for labs, t in ((la, operands[0]), (lb, operands[1])):
        for lab, n in zip(labs, t.shape):
            if n == 1 and any(lab in other for other in in_labels if other is not labs):
                return None  # possible size-1 broadcasting: leave it to einsum
    only_a = [lab for lab in la if lab not in lb]
    only_b = [lab for lab in lb if lab not in la]
    if not all(lab in out for lab in only_a + only_b):
        return None
    batch = [lab for lab in shared if lab in out]
    if not batch:
        if out == tuple(only_a) + tuple(only_b):
            swap = False
        elif out == tuple(only_b) + tuple(only_a):
            swap = True
        else:
            return None
        first, second = (lb, la) if swap else (la, lb)
        axes_a = tuple(first.index(lab) for lab in shared)
        axes_b = tuple(second.index(lab) for lab in shared)
        func, accepts_out = pair_kernel(len(first), len(second), axes_a, axes_b)
        return func, accepts_out, swap
    # batched matrix product: (batch..., i, j), (batch..., j, k) -> (batch..., i, k)
    if len(la) >= 3 and len(lb) >= 3 and la[:-2] == lb[:-2] == out[:-2] == tuple(batch):
        i, j = la[-2:]
        j2, k = lb[-2:]
        if j == j2 and out[-2:] == (i, k) and i != k:
            return matmul_kernel, True, False
    return None


def einsum(
    *args: Any,
    out: Any = None,
    dtype: Any = None,
    order: str = "K",
    casting: str = "safe",
    optimize: Any = False,
) -> Tensor:
    """Lazy, chunked ``numpy.einsum`` (string or interleaved sublist form).

    Each output chunk sums ``numpy.einsum`` over the chunks that meet at it; matrix
    products, transposed products and batched products use the ``dot``/``matmul`` kernels.
    """
    check_out("einsum", out)
    spec, raw = _einsum_args(args)
    if not isinstance(spec, str):
        raise TypeError(f"einsum: subscripts must be a string, got {spec!r}")
    operands = [astensor(x) for x in raw]
    kwargs: dict[str, Any] = {}
    if dtype is not None:
        kwargs["dtype"] = np.dtype(dtype)
    if casting != "safe":
        kwargs["casting"] = casting
        if on_gpu(*operands):
            raise NotOnGPU(
                "einsum(casting=...) does not run on a GPU: CuPy's einsum takes no casting; "
                "call .to_cpu() on its GPU inputs first"
            )
    # numpy checks the subscripts and the dtype on tiny arrays, and the sizes on fakes
    result_dtype = np.asarray(
        np.einsum(spec, *(np.ones((1,) * t.ndim, dtype=t.dtype) for t in operands), **kwargs)
    ).dtype
    path, _ = np.einsum_path(spec, *(_fake(t.shape, t.dtype) for t in operands), optimize="greedy")
    in_labels, out_labels = _parse_einsum(spec, [t.ndim for t in operands])
    if any(len(labs) != t.ndim for labs, t in zip(in_labels, operands)):
        raise NotImplementedError(f"einsum: subscripts {spec!r} are not supported")
    fast = _einsum_fast_path(in_labels, out_labels, operands) if not kwargs else None
    if fast is not None:
        func, accepts_out, swap = fast
        ops, op_labels = (operands[::-1], in_labels[::-1]) if swap else (operands, in_labels)
        return contract(ops, op_labels, out_labels, result_dtype, func, "einsum", accepts_out)
    letters: dict[int, str] = {}
    free = iter(
        c for c in string.ascii_letters if ord(c) not in {lab for ls in in_labels for lab in ls}
    )
    for labs in [*in_labels, out_labels]:
        for lab in labs:
            if lab not in letters:
                letters[lab] = chr(lab) if lab >= 0 else next(free)
    explicit = (
        ",".join("".join(letters[lab] for lab in labs) for labs in in_labels)
        + "->"
        + "".join(letters[lab] for lab in out_labels)
    )
    func = functools.partial(einsum_kernel, explicit, path, kwargs)
    return contract(operands, in_labels, out_labels, result_dtype, func, "einsum")
