"""Reduction nodes: a tree reduction down the rows, or a row-wise blockwise map.

Down the rows, each chunk becomes per-column partial states that are merged
``options.combine_size`` at a time (the engine's ``Reduction`` tiling) and finished into
a scalar (a Series input, returned as a 0-d tensor) or a Series indexed by the columns.
Across the columns (``axis=1``) every row chunk is reduced on its own by pandas.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.config import options
from jupyter_mars.dataframe.axes import axis_number
from jupyter_mars.dataframe.core import DataFrame, Series, new_frame
from jupyter_mars.dataframe.map_chunks import map_chunks
from jupyter_mars.dataframe.reduction.args import (
    check_ddof,
    check_flag,
    is_numeric,
    probe_frame,
)
from jupyter_mars.dataframe.reduction.kernels import MOMENTS, SHAPES, ReduceSpec, reduce_rows
from jupyter_mars.engine.node import TILE_RULES, Node, TileContext, Tiled, tile_rule
from jupyter_mars.engine.primitives.blockwise import Slot
from jupyter_mars.engine.primitives.reduction import Reduction
from jupyter_mars.tensor.core import Tensor

NEEDS_NUMBERS = MOMENTS | SHAPES | {"prod"}
"""Reductions that only make sense on numbers (and booleans)."""


@dataclass(frozen=True, eq=False)
class FrameReduction(Reduction):
    """A row reduction whose single output chunk is a Series of ``out_rows`` rows."""

    out_rows: int = 0


@tile_rule(FrameReduction)
def _tile_frame_reduction(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    tiled = TILE_RULES[Reduction](node, inputs, ctx)  # keepdims: one chunk, grid (1,)
    op = node.op
    assert isinstance(op, FrameReduction)
    return Tiled(((op.out_rows,),), tiled.keys)


def reduction_op(spec: Any, out_rows: int | None, name: str) -> Reduction:
    """The tree reduction down the rows of ``spec``'s chunk, combine and aggregate kernels:
    a scalar result (``out_rows`` None) or one chunk of ``out_rows`` rows."""
    common: dict[str, Any] = dict(
        chunk=spec.chunk,
        combine=spec.combine,
        aggregate=spec.aggregate,
        axis=(0,),
        combine_size=options.combine_size,
        name=name,
    )
    if out_rows is None:
        return Reduction(keepdims=False, **common)
    return FrameReduction(keepdims=True, out_rows=out_rows, **common)


def _takes(how: str, dtype: Any) -> bool:
    """Whether reduction ``how`` takes values of ``dtype`` (means and standard deviations
    take dates and spans too)."""
    if how not in NEEDS_NUMBERS or is_numeric(dtype):
        return True
    return how in ("mean", "std") and getattr(dtype, "kind", "") in "mM"


def _check_numbers(how: str, dtypes: pd.Series) -> None:
    # each distinct dtype once: a wide frame has thousands of columns and a few dtypes
    refused = {t for t in set(dtypes.tolist()) if not _takes(how, t)}
    if refused:
        bad = [str(c) for c, t in dtypes.items() if t in refused]
        raise TypeError(
            f"{how} needs numeric or boolean data; column(s) {', '.join(bad)} are not "
            "(pass numeric_only=True to leave them out)"
        )


def _numpy_bool(dtype: Any) -> bool:
    """pandas' ``bool_only`` keeps NumPy bool columns only (not ``boolean`` or Arrow's)."""
    return isinstance(dtype, np.dtype) and dtype.kind == "b"


def _kept_positions(dtypes: list[Any], only: bool, only_name: str) -> list[int]:
    """The positions of the columns a reduction keeps: those of a number (or, with
    ``bool_only``, a boolean) dtype when ``only``, else all. Each distinct dtype is
    judged once, however many columns have it."""
    if not only:
        return list(range(len(dtypes)))
    judge = _numpy_bool if only_name == "bool_only" else is_numeric
    kept = {t: judge(t) for t in set(dtypes)}
    return [i for i, t in enumerate(dtypes) if kept[t]]


def _pandas_kwargs(
    how: str, skipna: bool, ddof: int, numeric_only: bool, min_count: int = 0
) -> dict[str, Any]:
    if how == "count":
        return {"numeric_only": numeric_only}
    kwargs: dict[str, Any] = {"skipna": skipna}
    if how in ("any", "all"):
        kwargs["bool_only"] = numeric_only
    else:
        kwargs["numeric_only"] = numeric_only
    if how in ("var", "std", "sem"):
        kwargs["ddof"] = ddof
    if min_count:
        kwargs["min_count"] = min_count
    return kwargs


def check_min_count(min_count: Any) -> int:
    """``min_count`` of ``sum``/``prod``: an integer (0 or less: no minimum)."""
    if isinstance(min_count, (bool, np.bool_)) or not isinstance(min_count, (int, np.integer)):
        raise TypeError(f"min_count must be an integer, got {min_count!r}")
    return max(int(min_count), 0)


def _scalar(op: Any, source: Any, dtype: np.dtype[Any]) -> Tensor:
    out = Tensor(Node(op, [source.node], (), dtype))
    if options.eager_mode:
        out.execute()
    return out


def frame_reduce(
    df: DataFrame,
    how: str,
    axis: Any,
    skipna: Any,
    numeric_only: Any,
    ddof: Any = 1,
    min_count: Any = 0,
) -> Any:
    """``df.<how>(axis, skipna, numeric_only[, ddof][, min_count])`` as a lazy Series (a
    lazy 0-d tensor with ``axis=None``)."""
    flat = axis is None and how != "count"
    ax = 0 if flat else axis_number(df.meta, axis)
    mc = check_min_count(min_count)
    skip = check_flag(skipna, "skipna")
    only_name = "bool_only" if how in ("any", "all") else "numeric_only"
    only = check_flag(numeric_only, only_name)
    dd = check_ddof(ddof)
    meta: pd.DataFrame = df.meta
    keep = _kept_positions(meta.dtypes.tolist(), only, only_name)
    kept = meta if len(keep) == meta.shape[1] else meta.iloc[:, keep]
    _check_numbers(how, kept.dtypes)
    kwargs = _pandas_kwargs(how, skip, dd, only, mc)
    probe = probe_frame(meta)
    dtypes = tuple(kept.dtypes.tolist())
    if flat:
        value = getattr(probe, how)(axis=None, **kwargs)
        dtype = np.asarray(value).dtype if np.asarray(value).dtype.kind in "biuf" else object
        spec = ReduceSpec(how, skip, dd, tuple(keep), kept.columns, dtypes, mc, True, dtype)
        return _scalar(reduction_op(spec, None, spec.how), df, np.dtype(dtype))
    if ax == 1:
        out_meta = getattr(probe, how)(axis=1, **kwargs).iloc[:0]
        # the same rows, index and chunking as ``df``
        return map_chunks(reduce_rows, [df], (Slot(0), how, kwargs), out_meta, name=how)
    out_meta = getattr(probe, how)(**kwargs).iloc[:0]
    spec = ReduceSpec(how, skip, dd, tuple(keep), kept.columns, dtypes, mc, False, out_meta.dtype)
    return new_frame(reduction_op(spec, len(keep), spec.how), [df], len(keep), out_meta)


def series_reduce(
    s: Series,
    how: str,
    axis: Any,
    skipna: Any,
    numeric_only: Any,
    ddof: Any = 1,
    min_count: Any = 0,
) -> Tensor:
    """``s.<how>(...)`` as a lazy 0-d tensor that executes to pandas' scalar."""
    axis_number(s.meta, axis, default=0)
    skip = check_flag(skipna, "skipna")
    # pandas checks, then ignores, numeric_only / bool_only for a Series
    check_flag(numeric_only, "bool_only" if how in ("any", "all") else "numeric_only")
    dd = check_ddof(ddof)
    mc = check_min_count(min_count)
    meta: pd.Series = s.meta
    if not _takes(how, meta.dtype):
        raise TypeError(f"{how} needs numeric or boolean data, got a Series of {meta.dtype}")
    probe = probe_frame(meta.to_frame()).iloc[:, 0]
    kwargs: dict[str, Any] = {"skipna": skip} if how != "count" else {}
    if how in ("var", "std", "sem"):
        kwargs["ddof"] = dd
    if mc:
        kwargs["min_count"] = mc
    dtype = np.asarray(getattr(probe, how)(**kwargs)).dtype
    spec = ReduceSpec(how, skip, dd, None, None, (meta.dtype,), mc)
    return _scalar(reduction_op(spec, None, spec.how), s, dtype)
