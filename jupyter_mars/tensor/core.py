"""``Tensor``: the user's handle on a lazy array expression.

A tensor wraps an expression ``Node``; ``__setitem__`` rebinds it to a new node, as in
Mars. Shape and dtype are known without computing (a data-dependent length is ``nan``
until executed). Operators and methods are thin calls into the tensor functions.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from jupyter_mars.config import options
from jupyter_mars.engine.devices import GPU, is_device_array, to_device, to_host
from jupyter_mars.engine.node import GpuNode, Node, Op
from jupyter_mars.engine.primitives.blockwise import Blockwise, Slot
from jupyter_mars.engine.sparse import SparseNode, is_sparse_chunk, to_dense
from jupyter_mars.executable import LAZY_HINT, Executable


def _shape_of(a: Any) -> tuple[Any, ...]:
    return tuple(a.shape) if isinstance(a, Tensor) else np.shape(a)


def _can_cast(from_: Any, to: Any, casting: str = "safe") -> bool:
    return bool(np.can_cast(from_.dtype if isinstance(from_, Tensor) else from_, to, casting))  # type: ignore[arg-type]


# NumPy functions answered here rather than by ``mt.<name>``: ``mt.shape`` is the package
# of shape functions, and ``can_cast`` needs only a tensor's dtype
_ARRAY_FUNCTION_OVERRIDES: dict[str, Any] = {"shape": _shape_of, "can_cast": _can_cast}


_namespace: Any = None
"""Where NumPy's protocols find a tensor's function: the ``jupyter_mars.tensor`` package,
which registers itself here (``use_namespace``) when it loads, so that this base module
never imports the package built on it."""


def use_namespace(namespace: Any) -> None:
    """Dispatch ``np.func(tensor)`` and ufuncs to the functions of ``namespace``."""
    global _namespace
    _namespace = namespace


class Tensor(Executable):
    __slots__ = ("_node", "__weakref__")
    __array_priority__ = 20

    def __init__(self, node: Node) -> None:
        self._node = node

    # ---- meta ---------------------------------------------------------------------------

    @property
    def shape(self) -> tuple[Any, ...]:
        return tuple(int(n) if not math.isnan(n) else math.nan for n in self._node.shape)

    @property
    def dtype(self) -> np.dtype[Any]:
        return self._node.dtype

    @property
    def ndim(self) -> int:
        return len(self._node.shape)

    @property
    def size(self) -> Any:
        return math.prod(self.shape)

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> Any:
        return self.size * self.itemsize

    @property
    def op(self) -> Op:
        return self._node.op

    @property
    def inputs(self) -> list[Tensor]:
        return [Tensor(n) for n in self._node.inputs]

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        n = self.shape[0]
        if isinstance(n, float) and math.isnan(n):
            raise ValueError("the length is unknown until the tensor is executed")
        return int(n)

    # ---- execution ---------------------------------------------------------------------

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray[Any, Any]:
        data = self._executed_data()
        if data is None:
            self.execute()
            data = self._executed_data()
        if is_device_array(data):  # as CuPy: copies off the GPU are asked for
            raise TypeError(
                "a GPU tensor does not turn into a NumPy array implicitly: "
                "call .to_cpu() first, or fetch() it for a CuPy array"
            )
        arr = np.asarray(to_dense(data))
        return arr.astype(dtype) if dtype is not None else arr

    def _scalar(self) -> np.ndarray[Any, Any]:
        """The value of a one-element tensor, in host memory: as CuPy turns a one-element
        array into a Python number, a GPU tensor's one value is copied off the device."""
        data = self._executed_data()
        if data is None:
            self.execute()
            data = self._executed_data()
        return np.asarray(to_host(to_dense(data)))

    def to_numpy(self) -> np.ndarray[Any, Any]:
        return self.__array__()

    def __repr__(self) -> str:
        data = self._executed_data()
        if data is not None:
            keep = is_sparse_chunk(data) or is_device_array(data)
            return repr(data if keep else np.asarray(data))
        label = self._node.op.label()
        return (
            f"Tensor <op={label}, shape={self.shape}, dtype={self.dtype}, "
            f"chunks={self._chunks()}; {LAZY_HINT}>"
        )

    def _chunks(self) -> str:
        """Chunks per axis (``4x4``), or '?' when that depends on data not computed yet."""
        nsplits = self._layout()
        return "?" if nsplits is None else "x".join(str(len(axis)) for axis in nsplits)

    def __str__(self) -> str:
        data = self._executed_data()
        if data is not None and (is_sparse_chunk(data) or is_device_array(data)):
            return str(data)
        return str(np.asarray(data)) if data is not None else repr(self)

    def __bool__(self) -> bool:
        if self.size != 1:
            raise ValueError(
                "The truth value of a tensor with more than one element is ambiguous. "
                "Use a.any() or a.all()"
            )
        return bool(self._scalar())

    def __float__(self) -> float:
        return float(self._scalar())

    def __int__(self) -> int:
        return int(self._scalar())

    def __index__(self) -> int:
        if self.dtype.kind not in "iub":
            raise TypeError("only integer tensors can be used as an index")
        return int(self._scalar())

    def __complex__(self) -> complex:
        return complex(self._scalar())

    def __iter__(self) -> Any:
        for i in range(len(self)):
            yield self[i]

    def __hash__(self) -> int:
        return id(self)

    # ---- numpy protocols -----------------------------------------------------------------

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        # the tensor namespace, not the ufuncs module: generalised ufuncs such as matmul
        # are implemented with the products
        func = getattr(_namespace, ufunc.__name__, None)
        if method != "__call__":
            # reduce, accumulate, outer, at: methods of mt's ufunc objects
            func = getattr(func, method, None)
        if func is None:
            return NotImplemented
        out = kwargs.get("out")
        if isinstance(out, tuple) and len(out) == 1:
            # NumPy always passes ``out`` as a tuple
            kwargs["out"] = out[0]
        return func(*inputs, **kwargs)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        target: Any = _namespace
        for part in func.__module__.split(".")[1:]:
            target = getattr(target, part, None)
            if target is None:
                break
        impl = getattr(target, func.__name__, None) if target is not None else None
        if func.__module__ == "numpy" and func.__name__ in _ARRAY_FUNCTION_OVERRIDES:
            impl = _ARRAY_FUNCTION_OVERRIDES[func.__name__]
        if impl is None or not callable(impl):  # a package such as mt.linalg is no function
            return NotImplemented
        if kwargs.get("device") in (None, "cpu"):
            # NumPy 2 passes ``device`` on to ``like=`` creation; a tensor has one kind
            kwargs = {k: v for k, v in kwargs.items() if k != "device"}
        return impl(*args, **kwargs)

    # ---- operators and methods ---------------------------------------------------------------
    # Attached at import time by the module that implements each family (ufuncs, reduction,
    # shape, indexing, ...), which keeps this module small. For the type checker:
    if TYPE_CHECKING:

        def __getattr__(self, name: str) -> Any: ...
        def __getitem__(self, index: Any) -> Any: ...
        def __setitem__(self, index: Any, value: Any) -> None: ...
        def __add__(self, other: Any) -> Any: ...
        def __sub__(self, other: Any) -> Any: ...
        def __mul__(self, other: Any) -> Any: ...
        def __truediv__(self, other: Any) -> Any: ...
        def __matmul__(self, other: Any) -> Any: ...
        def __neg__(self) -> Any: ...


def is_scalar(x: Any) -> bool:
    return isinstance(x, (numbers.Number, np.generic, str, bytes)) or x is None


def new_tensor(
    op: Op,
    inputs: Sequence[Tensor],
    shape: Sequence[Any],
    dtype: Any,
    sparse: bool | None = None,
    gpu: bool | None = None,
) -> Tensor:
    """Build a tensor from an operator; in eager mode, execute it at once.

    ``sparse`` is True for a result made of sparse chunks, False for a dense result of an
    operator that reads sparse chunks itself, and None (most operators) for one that reads
    dense chunks only: its sparse inputs are then made dense, chunk by chunk, first.

    ``gpu`` says where the result's chunks are computed and held: True on a GPU, False in
    host memory, None (most operators) on a GPU where any input is on one. Inputs held
    elsewhere are copied, chunk by chunk, to where the operator runs (fused with it).
    """
    nodes = [t._node for t in inputs]
    if sparse is None:
        nodes = [_dense_node(n) if isinstance(n, SparseNode) else n for n in nodes]
    on_gpu = any(n.device == GPU for n in nodes) if gpu is None else gpu
    if on_gpu and sparse:
        raise NotImplementedError("sparse tensors live in host memory: gpu=True is not supported")
    nodes = [_moved(n, on_gpu) for n in nodes]
    node_type = SparseNode if sparse else GpuNode if on_gpu else Node
    node = node_type(op, nodes, tuple(shape), np.dtype(dtype))
    return _eager(Tensor(node))


def _eager(t: Tensor) -> Tensor:
    if options.eager_mode:
        t.execute()
    return t


def moved(t: Tensor, on_gpu: bool) -> Tensor:
    """``t`` held on a GPU (``on_gpu``) or in host memory: ``t`` itself where it is."""
    node = _moved(t._node, on_gpu)
    return t if node is t._node else _eager(Tensor(node))


def _dense_node(node: Node) -> Node:
    """``node`` with each sparse chunk turned into a NumPy array (fused with its reader)."""
    return Node(Blockwise(to_dense, (Slot(0),), {}, "todense"), [node], node.shape, node.dtype)


def _moved(node: Node, on_gpu: bool) -> Node:
    """``node``, or its chunks copied to the GPU (``on_gpu``) or to host memory where they
    are held on the other side."""
    if (node.device == GPU) == on_gpu:
        return node
    if on_gpu:
        return GpuNode(
            Blockwise(to_device, (Slot(0),), {}, "togpu"), [node], node.shape, node.dtype
        )
    return Node(Blockwise(to_host, (Slot(0),), {}, "tocpu"), [node], node.shape, node.dtype)


def unknown_shape(shape: Sequence[Any]) -> bool:
    return any(isinstance(n, float) and math.isnan(n) for n in shape)
