"""Random tensors drawn chunk by chunk: the ``RandomChunks`` operator and the distributions.

Each chunk is one call of a ``numpy.random.Generator`` method on the chunk's own stream
(see ``streams.py``). Distribution parameters may be scalars, arrays or tensors; they
broadcast against each other and against ``size`` as in NumPy, and tensor parameters are
rechunked to the output's chunks. Scalar and array parameters are checked when the
function is called (NumPy's own errors); tensor parameters only when the chunks run.

``gpu=True`` draws each chunk on a GPU with CuPy, on the same per-chunk stream
(``gpu_draws.py``); parameters are checked by NumPy at the call all the same.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from jupyter_mars.engine.chunks import NSplits
from jupyter_mars.engine.devices import GPU
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.blockwise import Slot, unify_chunks
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.engine.recipes import regenerable, sized
from jupyter_mars.engine.storage import spare
from jupyter_mars.tensor.core import Tensor, new_tensor, unknown_shape
from jupyter_mars.tensor.creation.common import (
    as_dtype,
    block_indices,
    broadcasts_to,
    chunk_shape,
    normalize_shape,
    nsplits_for,
    numblocks,
)
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.elemwise import broadcast_shapes
from jupyter_mars.tensor.gpu_keyword import check_gpu
from jupyter_mars.tensor.random.gpu_draws import check_gpu_method, gpu_random_chunk
from jupyter_mars.tensor.random.streams import (
    RandomStateField,
    checking_generator,
    chunk_generator,
    flat_index,
)

if TYPE_CHECKING:
    from jupyter_mars.tensor.random.state import RandomState

# ---- the operator ---------------------------------------------------------------------------


_FILLING = frozenset({"random", "standard_normal", "standard_exponential"})
"""``Generator`` methods with an ``out`` argument and no parameters to broadcast."""


def _fills(method: str, args: tuple[Any, ...], kwargs: dict[str, Any], cast: Any) -> bool:
    """Whether ``random_chunk`` draws into an array it made itself (``out=``)."""
    return method in _FILLING and not args and cast is None and set(kwargs) <= {"dtype"}


def _filled_figures(*call: Any) -> tuple[tuple[int, ...], np.dtype[Any]] | None:
    """What ``random_chunk(*call)`` returns, where it fills an array it made
    (``recipes.sized``)."""
    _, _, method, shape, args, kwargs, cast = call
    if not _fills(method, args, kwargs, cast):
        return None
    return tuple(shape), np.dtype(kwargs.get("dtype", np.float64))


@sized(_filled_figures)
@regenerable
def random_chunk(
    seed: int,
    index: int,
    method: str,
    shape: tuple[int, ...],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    cast: np.dtype[Any] | None,
) -> Any:
    """One chunk: a single ``Generator.<method>(*args, size=shape, **kwargs)`` call.

    The methods that fill an array they are given draw into memory a dropped chunk left
    (``engine/storage/spare.py``): the same numbers, without a fresh mapping's faults."""
    generator = chunk_generator(seed, index)
    if _fills(method, args, kwargs, cast):
        out = spare.empty(shape, kwargs.get("dtype", np.float64))
        return getattr(generator, method)(out=out, **kwargs)
    out = getattr(generator, method)(*args, size=shape, **kwargs)
    if cast is not None:
        out = out.astype(cast, copy=False)
    return out


@dataclass(frozen=True, eq=False)
class RandomChunks(Op):
    """Chunks drawn by one ``numpy.random.Generator`` method each."""

    seed: RandomStateField
    method: str
    args: tuple[Any, ...]
    """Distribution parameters: scalars, or ``Slot(i)`` for the tensor input ``i``."""
    kwargs: dict[str, Any] = field(default_factory=dict)
    nsplits: NSplits | None = None
    """Chunk lengths; None: those of the tensor parameters (aligned as element-wise ops)."""
    cast: np.dtype[Any] | None = None
    """A dtype the drawn values are cast to, when the method cannot produce it itself."""
    name: str = "random"
    trailing: int = 0
    """Trailing axes the method adds to each draw itself (one chunk each): a sample of a
    multivariate distribution is a vector, so ``size`` excludes its axis."""

    def label(self) -> str:
        return self.name


def _input_index(keys_shape: tuple[int, ...], out_index: tuple[int, ...]) -> tuple[int, ...]:
    offset = len(out_index) - len(keys_shape)
    return tuple(0 if keys_shape[a] == 1 else out_index[a + offset] for a in range(len(keys_shape)))


def _align_to(node: Node, i: int, t: Tiled, nsplits: NSplits, ctx: TileContext) -> Tiled:
    """Rechunk a parameter to the output's chunks (axes it broadcasts along keep 1 chunk)."""
    offset = len(nsplits) - len(t.nsplits)
    wanted = tuple(
        t.nsplits[a]
        if tuple(t.nsplits[a]) == (1,) and node.shape[a + offset] != 1
        else nsplits[a + offset]
        for a in range(len(t.nsplits))
    )
    return rechunk_tiled(f"{node.key}-in{i}", t, wanted, node.inputs[i].dtype, ctx)


@tile_rule(RandomChunks)
def _tile_random(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, RandomChunks)
    if op.nsplits is None:
        # the chunks' shapes come from tensor parameters: each draw needs them exactly
        ctx.require_known(*inputs)
        nsplits, aligned = unify_chunks(node.key, node.shape, inputs, ctx)
    else:
        nsplits = op.nsplits
        aligned = [_align_to(node, i, t, nsplits, ctx) for i, t in enumerate(inputs)]
    blocks = numblocks(nsplits)
    grid = key_grid(node.key, blocks)
    drawn_axes = len(nsplits) - op.trailing
    kernel, cast = random_chunk, op.cast
    if ctx.device == GPU:
        # CuPy's samplers may give another integer width than NumPy's: the chunk is cast to
        # the dtype the tensor says it has (no copy where it is that already)
        kernel, cast = gpu_random_chunk, op.cast if op.cast is not None else node.dtype
    for index in block_indices(nsplits):
        args = tuple(
            Ref(aligned[a.index].keys[_input_index(aligned[a.index].keys.shape, index)])
            if type(a) is Slot
            else a
            for a in op.args
        )
        ctx.add_blockwise(
            grid[index],
            kernel,
            (
                op.seed,
                flat_index(index, blocks),
                op.method,
                chunk_shape(nsplits, index)[:drawn_axes],
                args,
                op.kwargs,
                cast,
            ),
            {},
        )
    return Tiled(tuple(tuple(a) for a in nsplits), grid)


# ---- the generic sampler ----------------------------------------------------------------------


def dtype_plan(
    name: str,
    dtype: Any,
    default_dtype: Any,
    native: Sequence[np.dtype[Any]],
    kwargs: dict[str, Any] | None,
) -> tuple[np.dtype[Any], dict[str, Any], np.dtype[Any] | None]:
    """The output dtype, the method's keywords and the cast: a ``native`` dtype is drawn
    directly (``dtype=`` keyword), any other numeric one is cast to after the draw."""
    out_dtype = as_dtype(dtype, default_dtype)
    kw = dict(kwargs or {})
    cast: np.dtype[Any] | None = None
    if native:
        if out_dtype not in native:
            raise TypeError(
                f"{name}(): unsupported dtype {out_dtype} (use one of "
                f"{', '.join(str(d) for d in native)})"
            )
        if out_dtype != np.dtype(default_dtype):
            kw["dtype"] = out_dtype
    elif out_dtype != np.dtype(default_dtype):
        if out_dtype.kind not in "biufc":
            raise TypeError(f"{name}(): unsupported dtype {out_dtype}")
        cast = out_dtype
    return out_dtype, kw, cast


def _parameters(
    name: str, params: Sequence[tuple[str, Any]]
) -> tuple[list[Any], list[Tensor], list[Any], list[tuple[Any, ...]]]:
    """The operator's arguments (``Slot``s for tensor inputs), the tensor inputs (arrays
    become tensors), the client-side values to check (all of them only when none is a
    tensor) and the shapes the parameters broadcast from."""
    tensors: list[Tensor] = []
    args: list[Any] = []
    probe: list[Any] = []
    shapes: list[tuple[Any, ...]] = []
    for pname, value in params:
        if isinstance(value, Tensor):
            if value.dtype.kind not in "biuf":
                raise TypeError(f"{name}(): {pname} must be numeric, got dtype {value.dtype}")
            args.append(Slot(len(tensors)))
            tensors.append(value)
            shapes.append(value.shape)
            continue
        if value is None:
            args.append(None)
            probe.append(None)
            continue
        arr = np.asarray(value)
        if arr.dtype.kind not in "biuf":
            raise TypeError(f"{name}(): {pname} must be numeric, got {value!r}")
        if arr.ndim == 0:
            args.append(value)
            probe.append(value)
            continue
        args.append(Slot(len(tensors)))
        tensors.append(astensor(arr))
        shapes.append(arr.shape)
        probe.append(arr)
    return args, tensors, probe, shapes


def _output_shape(name: str, size: Any, shapes: list[tuple[Any, ...]]) -> tuple[Any, ...]:
    """``size``, checked against the parameters' broadcast shape (that shape for None)."""
    param_shape = broadcast_shapes(*shapes) if shapes else ()
    if size is None:
        return tuple(param_shape)
    shape = normalize_shape(size, "size")
    if not unknown_shape(param_shape) and not broadcasts_to(param_shape, shape):
        raise ValueError(
            f"{name}(): shape mismatch: parameters of shape {param_shape} cannot "
            f"be broadcast to size {shape}"
        )
    return shape


def draw(
    next_seed: Callable[[], RandomStateField],
    name: str,
    method: str,
    params: Sequence[tuple[str, Any]],
    size: Any,
    chunk_size: Any,
    dtype: Any,
    default_dtype: Any,
    native: Sequence[np.dtype[Any]] = (),
    kwargs: dict[str, Any] | None = None,
    gpu: Any = None,
) -> Tensor:
    """A random tensor whose chunks are ``Generator.<method>`` draws (``name`` in errors).

    ``params`` are the distribution parameters by name; ``next_seed`` is called once,
    after every check has passed. ``gpu=True``: drawn on a GPU (by default, where a
    tensor parameter is).
    """
    on_gpu = check_gpu(gpu, name)
    out_dtype, kw, cast = dtype_plan(name, dtype, default_dtype, native, kwargs)
    args, tensors, probe, shapes = _parameters(name, params)
    if on_gpu is None and any(t.node.device == GPU for t in tensors):
        on_gpu = True  # drawn where its tensor parameters are
    if on_gpu:
        check_gpu_method(name, method)
    if len(probe) == len(params):
        # no tensor parameter: let NumPy check the values (one small draw)
        getattr(checking_generator(), method)(*probe, **kw)
    shape = _output_shape(name, size, shapes)
    nsplits: NSplits | None = None
    if not tensors or size is not None or chunk_size is not None:
        if unknown_shape(shape):
            raise ValueError(
                f"{name}(): chunk_size needs a known output shape; give size= or "
                "execute the parameter tensors first"
            )
        nsplits = nsplits_for(shape, chunk_size, out_dtype)
    op = RandomChunks(
        seed=next_seed(),
        method=method,
        args=tuple(args),
        kwargs=kw,
        nsplits=nsplits,
        cast=cast,
        name=name,
    )
    return new_tensor(op, tensors, shape, out_dtype, gpu=on_gpu)


# ---- distributions with parameters ----------------------------------------------------------

FLOAT_NATIVE = (np.dtype(np.float32), np.dtype(np.float64))
"""The dtypes ``Generator.random``, ``standard_normal`` and friends draw directly."""
REQUIRED: Any = object()
"""Marks a distribution parameter without a default."""

_F = np.float64
_I = np.int64

DISTRIBUTIONS: list[tuple[str, list[tuple[str, Any]], Any, str]] = [
    ("uniform", [("low", 0.0), ("high", 1.0)], _F, "Uniform samples in ``[low, high)``"),
    ("normal", [("loc", 0.0), ("scale", 1.0)], _F, "Normal (Gaussian) samples"),
    ("exponential", [("scale", 1.0)], _F, "Exponential samples"),
    ("poisson", [("lam", 1.0)], _I, "Poisson samples"),
    ("binomial", [("n", REQUIRED), ("p", REQUIRED)], _I, "Binomial samples"),
    ("negative_binomial", [("n", REQUIRED), ("p", REQUIRED)], _I, "Negative binomial samples"),
    ("geometric", [("p", REQUIRED)], _I, "Geometric samples"),
    ("beta", [("a", REQUIRED), ("b", REQUIRED)], _F, "Beta samples"),
    ("gamma", [("shape", REQUIRED), ("scale", 1.0)], _F, "Gamma samples"),
    ("lognormal", [("mean", 0.0), ("sigma", 1.0)], _F, "Log-normal samples"),
    ("laplace", [("loc", 0.0), ("scale", 1.0)], _F, "Laplace samples"),
    ("logistic", [("loc", 0.0), ("scale", 1.0)], _F, "Logistic samples"),
    ("gumbel", [("loc", 0.0), ("scale", 1.0)], _F, "Gumbel samples"),
    ("chisquare", [("df", REQUIRED)], _F, "Chi-square samples"),
    ("standard_t", [("df", REQUIRED)], _F, "Student's t samples"),
    ("standard_cauchy", [], _F, "Standard Cauchy samples"),
    ("pareto", [("a", REQUIRED)], _F, "Pareto II (Lomax) samples"),
    ("weibull", [("a", REQUIRED)], _F, "Weibull samples"),
    ("power", [("a", REQUIRED)], _F, "Power-distribution samples"),
    ("rayleigh", [("scale", 1.0)], _F, "Rayleigh samples"),
    (
        "triangular",
        [("left", REQUIRED), ("mode", REQUIRED), ("right", REQUIRED)],
        _F,
        "Triangular samples",
    ),
    ("f", [("dfnum", REQUIRED), ("dfden", REQUIRED)], _F, "F-distribution samples"),
    ("wald", [("mean", REQUIRED), ("scale", REQUIRED)], _F, "Wald (inverse Gaussian) samples"),
    ("vonmises", [("mu", REQUIRED), ("kappa", REQUIRED)], _F, "von Mises samples"),
    ("zipf", [("a", REQUIRED)], _I, "Zipf samples"),
    ("logseries", [("p", REQUIRED)], _I, "Logarithmic series samples"),
    (
        "hypergeometric",
        [("ngood", REQUIRED), ("nbad", REQUIRED), ("nsample", REQUIRED)],
        _I,
        "Hypergeometric samples",
    ),
    (
        "noncentral_chisquare",
        [("df", REQUIRED), ("nonc", REQUIRED)],
        _F,
        "Noncentral chi-square samples",
    ),
    (
        "noncentral_f",
        [("dfnum", REQUIRED), ("dfden", REQUIRED), ("nonc", REQUIRED)],
        _F,
        "Noncentral F-distribution samples",
    ),
]
"""``(method, [(parameter, default or REQUIRED)], default dtype, description)``."""


def distribution_method(
    method: str, params: Sequence[tuple[str, Any]], default_dtype: Any, doc: str
) -> Callable[..., Tensor]:
    """A ``RandomState`` method ``method(*params, size=None, chunk_size=None, dtype=None,
    gpu=None)`` drawing with the instance's seeds."""
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    empty = inspect.Parameter.empty
    signature = inspect.Signature(
        [inspect.Parameter("self", kind)]
        + [inspect.Parameter(p, kind, default=empty if d is REQUIRED else d) for p, d in params]
        + [inspect.Parameter(p, kind, default=None) for p in ("size", "chunk_size", "dtype", "gpu")]
    )

    def sample(self: RandomState, *args: Any, **kwargs: Any) -> Tensor:
        try:
            bound = signature.bind(self, *args, **kwargs)
        except TypeError as exc:
            raise TypeError(f"{method}(): {exc}") from None
        bound.apply_defaults()
        values = bound.arguments
        return draw(
            self._next_seed,
            method,
            method,
            [(p, values[p]) for p, _ in params],
            values["size"],
            values["chunk_size"],
            values["dtype"],
            default_dtype,
            gpu=values["gpu"],
        )

    sample.__name__ = sample.__qualname__ = method
    sample.__doc__ = (
        f"{doc} (``numpy.random.{method}``); each chunk is one ``Generator.{method}`` call "
        "(``gpu=True``: drawn on a GPU with CuPy)."
    )
    sample.__signature__ = signature  # type: ignore[attr-defined]
    return sample
