"""``DataFrame``, ``Series`` and ``Index``: the user's handles on lazy pandas objects.

Each wraps a ``FrameNode``. What pandas knows without data (columns, dtypes, index type
and names) comes from the node's ``meta``; the number of rows is known unless it depends
on the data (``nan`` until executed). Methods are thin calls into the operation modules.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.config import options
from jupyter_mars.dataframe.datasource import dataframe_node, index_node, series_node
from jupyter_mars.dataframe.node import FrameNode
from jupyter_mars.engine.node import Node, Op
from jupyter_mars.executable import LAZY_HINT, Executable


class FrameBase(Executable):
    """What the three kinds share."""

    __slots__ = ("_node", "__weakref__")
    _node: FrameNode

    def __init__(self, node: FrameNode) -> None:
        self._node = node

    @property
    def meta(self) -> Any:
        """An empty pandas object of the result's kind, columns, dtypes and index type."""
        return self._node.meta

    @property
    def op(self) -> Op:
        return self._node.op

    def _nrows(self) -> Any:
        n = self._node.shape[0]
        return math.nan if math.isnan(n) else int(n)

    def __len__(self) -> int:
        n = self._nrows()
        if isinstance(n, float):
            raise ValueError("the length is unknown until the object is executed")
        return int(n)

    def __bool__(self) -> bool:
        # ambiguous, as pandas says: the empty meta raises pandas' own ValueError
        return bool(self.meta)

    def to_pandas(self, session: Any = None) -> Any:
        """The data as a pandas object, executing first if needed."""
        data = self._executed_data() if session is None else None
        if data is None:
            self.execute(session=session)
            return self.fetch(session=session)
        return data

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray[Any, Any]:
        """The values as a NumPy array, executing first if needed."""
        return np.asarray(self.to_pandas(), dtype=dtype)

    def _describe(self) -> str:
        raise NotImplementedError

    def _chunks(self) -> str:
        """How many row chunks the object has (``rows x cols`` when its columns are split
        too), or '?' when that depends on data not yet computed (a groupby's choice of
        plan, say)."""
        nsplits = self._layout()
        if nsplits is None:
            return "?"
        return " x ".join(str(len(axis)) for axis in nsplits)

    def __repr__(self) -> str:
        data = self._executed_data()
        return repr(data) if data is not None else self._describe()

    def __str__(self) -> str:
        data = self._executed_data()
        return str(data) if data is not None else self._describe()

    def _repr_html_(self) -> str | None:
        data = self._executed_data()
        if data is None:
            return None
        html = getattr(data, "_repr_html_", None)
        return html() if html is not None else None


REPR_COLUMNS = 12
"""Columns a lazy frame's repr names; the others are counted."""

LazyInput = Callable[[str, Any, dict[str, Any]], "FrameBase | None"]
LAZY_INPUTS: list[LazyInput] = []
"""Builders for a constructor's lazy data (``initial.py`` registers them):
``build(kind, data, arguments)`` gives the object of ``kind`` (``"frame"``, ``"series"``,
``"index"``), or None where the data is not theirs."""


def _check_placement(gpu: Any, sparse: Any) -> None:
    """Mars's ``gpu=`` and ``sparse=``: frames live in host memory, dense."""
    if gpu:
        raise NotImplementedError(
            "gpu=True: frames live in host memory (pandas); tensors take gpu=True and "
            "md.DataFrame(tensor.to_cpu()) makes a frame of one"
        )
    if sparse:
        raise NotImplementedError("sparse=True: frames are dense; tensors take sparse=True")


def _check_partitions(num_partitions: Any) -> None:
    if num_partitions is None:
        return
    if isinstance(num_partitions, bool) or not isinstance(num_partitions, (int, np.integer)):
        raise TypeError(f"num_partitions must be an int, got {num_partitions!r}")
    if num_partitions < 1:
        raise ValueError(f"num_partitions must be at least 1, got {num_partitions}")


def _built(kind: str, data: Any, arguments: dict[str, Any]) -> FrameNode | None:
    """The node a registered builder makes of lazy ``data``, rebalanced into
    ``num_partitions`` chunks where asked; None for data held in memory."""
    _check_placement(arguments.pop("gpu"), arguments.pop("sparse"))
    parts = arguments["num_partitions"]
    _check_partitions(parts)
    for build in LAZY_INPUTS:
        out: Any = build(kind, data, arguments)
        if out is not None:
            if parts is not None:
                out = out.rebalance(num_partitions=int(parts))
            node = out.node
            assert isinstance(node, FrameNode)
            return node
    return None


class DataFrame(FrameBase):
    """A lazy pandas DataFrame; ``md.DataFrame(data, chunk_size=rows)`` builds one, and
    ``chunk_size=(rows, cols)`` one split by columns too."""

    __slots__ = ()

    def __init__(
        self,
        data: Any = None,
        index: Any = None,
        columns: Any = None,
        dtype: Any = None,
        copy: bool | None = None,
        chunk_size: Any = None,
        gpu: Any = None,
        sparse: Any = None,
        num_partitions: int | None = None,
    ) -> None:
        if not isinstance(data, FrameNode):
            arguments = dict(
                index=index, columns=columns, dtype=dtype, chunk_size=chunk_size, gpu=gpu,
                sparse=sparse, num_partitions=num_partitions,
            )  # fmt: skip
            lazy = _built("frame", data, arguments)
            data = lazy or dataframe_node(data, index, columns, dtype, chunk_size, num_partitions)
        super().__init__(data)

    @property
    def columns(self) -> pd.Index:
        return self.meta.columns

    @property
    def dtypes(self) -> pd.Series:
        return self.meta.dtypes

    @property
    def shape(self) -> tuple[Any, int]:
        return (self._nrows(), len(self.meta.columns))

    @property
    def ndim(self) -> int:
        return 2

    def __getattr__(self, name: str) -> Any:
        """``df.col`` for a column whose name is not an attribute."""
        if not name.startswith("_") and name in self._node.meta.columns:
            return self[name]  # type: ignore[index]
        raise AttributeError(f"'DataFrame' object has no attribute {name!r}")

    def _describe(self) -> str:
        dtypes = self.meta.dtypes
        cols = ", ".join(f"{c}: {t}" for c, t in list(dtypes.items())[:REPR_COLUMNS])
        if len(dtypes) > REPR_COLUMNS:
            cols += f", … {len(dtypes) - REPR_COLUMNS} more"
        return (
            f"DataFrame <op={self.op.label()}, shape={self.shape}, columns=[{cols}], "
            f"chunks={self._chunks()}; {LAZY_HINT}>"
        )


class _Vector(FrameBase):
    """What Series and Index share: one dtype, a name, one dimension."""

    __slots__ = ()

    @property
    def dtype(self) -> Any:
        return self.meta.dtype

    @property
    def name(self) -> Any:
        return self.meta.name

    @property
    def shape(self) -> tuple[Any]:
        return (self._nrows(),)

    @property
    def ndim(self) -> int:
        return 1

    def _describe(self) -> str:
        return (
            f"{type(self).__name__} <op={self.op.label()}, length={self._nrows()}, "
            f"dtype={self.dtype}, name={self.name!r}, chunks={self._chunks()}; {LAZY_HINT}>"
        )


class Series(_Vector):
    """A lazy pandas Series; ``md.Series(data, chunk_size=rows)`` builds one."""

    __slots__ = ()

    def __init__(
        self,
        data: Any = None,
        index: Any = None,
        dtype: Any = None,
        name: Any = None,
        copy: bool | None = None,
        chunk_size: Any = None,
        gpu: Any = None,
        sparse: Any = None,
        num_partitions: int | None = None,
    ) -> None:
        if not isinstance(data, FrameNode):
            arguments = dict(
                index=index, dtype=dtype, name=name, chunk_size=chunk_size, gpu=gpu,
                sparse=sparse, num_partitions=num_partitions,
            )  # fmt: skip
            lazy = _built("series", data, arguments)
            data = lazy or series_node(data, index, dtype, name, chunk_size, num_partitions)
        super().__init__(data)

    @property
    def dtypes(self) -> Any:
        """The Series' dtype, as pandas gives it under this name too."""
        return self.meta.dtype


class Index(_Vector):
    """A lazy pandas Index; ``md.Index(data, chunk_size=rows)`` builds one."""

    __slots__ = ()

    def __init__(
        self,
        data: Any = None,
        dtype: Any = None,
        copy: bool = False,
        name: Any = None,
        chunk_size: Any = None,
        gpu: Any = None,
        sparse: Any = None,
        num_partitions: int | None = None,
        tupleize_cols: bool = True,
        store_data: bool = False,
    ) -> None:
        """``tupleize_cols`` as pandas'; ``store_data`` is Mars's, accepted: an index's
        values are always its chunks' data here."""
        if not isinstance(data, FrameNode):
            arguments = dict(
                dtype=dtype, name=name, chunk_size=chunk_size, gpu=gpu, sparse=sparse,
                num_partitions=num_partitions,
            )  # fmt: skip
            lazy = _built("index", data, arguments)
            data = lazy or index_node(data, dtype, name, chunk_size, num_partitions, tupleize_cols)
        super().__init__(data)
        if isinstance(self.meta, pd.MultiIndex) and type(self) is Index:
            # ``md.Index(pandas_multiindex)`` is a MultiIndex, as pandas' Index is
            self.__class__ = MultiIndex


class MultiIndex(Index):
    """A lazy pandas MultiIndex, what ``df.index`` is when rows are labelled by several
    levels. ``md.MultiIndex(levels, codes, names=..., chunk_size=rows)`` takes pandas'
    arguments; ``from_tuples``, ``from_arrays``, ``from_product`` and ``from_frame`` are
    attached by ``index/multi.py``, with the methods only a MultiIndex has."""

    __slots__ = ()

    def __init__(
        self,
        levels: Any = None,
        codes: Any = None,
        sortorder: Any = None,
        names: Any = None,
        copy: bool = False,
        name: Any = None,
        verify_integrity: bool = True,
        chunk_size: Any = None,
    ) -> None:
        if isinstance(levels, FrameNode):
            super().__init__(levels)
            return
        data = pd.MultiIndex(
            levels=levels,
            codes=codes,
            sortorder=sortorder,
            names=names,
            copy=copy,
            name=name,
            verify_integrity=verify_integrity,
        )
        super().__init__(data, chunk_size=chunk_size)


def wrap(node: FrameNode) -> Any:
    """The handle of the node's kind; in eager mode, executed at once."""
    meta = node.meta
    out: FrameBase
    if isinstance(meta, pd.DataFrame):
        out = DataFrame(node)
    elif isinstance(meta, pd.Series):
        out = Series(node)
    elif isinstance(meta, pd.MultiIndex):
        out = MultiIndex(node)
    else:
        out = Index(node)
    if options.eager_mode:
        out.execute()
    return out


def new_frame(
    op: Op, inputs: list[Any], nrows: float, meta: Any, index_key: str | None = None
) -> Any:
    """A DataFrame, Series or Index (by ``meta``'s kind) computed by ``op``.

    ``index_key``: the input's, when the result keeps its rows, index and chunking.
    """
    nodes: list[Node] = [i.node if isinstance(i, Executable) else i for i in inputs]
    return wrap(FrameNode(op, nodes, nrows, meta, index_key))
