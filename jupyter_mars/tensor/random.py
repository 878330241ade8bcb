"""``mt.random``: random tensors, generated chunk by chunk.

Every random tensor holds an integer ``seed``, drawn from the ``RandomState`` that made it
(the module's global one for ``mt.random.rand`` and friends), so ``mt.random.seed(s)`` or
``mt.random.RandomState(s)`` make a whole script reproducible. Chunk ``i`` (its flat index
in the chunk grid, C order) draws from its own stream::

    np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(i,))))

``SeedSequence`` spawning is NumPy's documented way to derive independent streams from one
seed: the chunks are statistically independent, and the same seed with the same chunk
layout always gives the same numbers, whatever the order or the thread the chunks run in.
(A different chunk layout gives different, equally valid, numbers.) Each chunk is one
call of the matching ``numpy.random.Generator`` method, e.g. ``Generator.random`` for
``rand``, ``Generator.integers`` for ``randint`` (``high`` exclusive, as ``randint``).

Distribution parameters may be scalars, arrays or tensors; they broadcast against each
other and against ``size`` as in NumPy, and tensor parameters are rechunked to the
output's chunks. Scalar and array parameters are checked when the function is called
(NumPy's own errors, e.g. ``scale < 0``); tensor parameters only when the chunks run.
"""

from __future__ import annotations

import inspect
import itertools
import math
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import NSplits, normalize_chunk_size, offsets
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.blockwise import Slot, unify_chunks
from jupyter_mars.engine.primitives.rechunk import Rechunk, rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor, unknown_shape
from jupyter_mars.tensor.creation import as_dtype, normalize_shape
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.elemwise import broadcast_shapes

_SEED_HIGH = 2**63 - 1

# ---- kernels -------------------------------------------------------------------------------


def chunk_generator(seed: int, index: int | None) -> np.random.Generator:
    """The generator of chunk ``index`` of a random node (``None``: the node's own stream,
    used by operators that need one global draw, such as ``permutation``)."""
    key = () if index is None else (index,)
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=key)))


def random_chunk(
    seed: int,
    index: int,
    method: str,
    shape: tuple[int, ...],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    cast: np.dtype[Any] | None,
) -> Any:
    """One chunk: a single ``Generator.<method>(*args, size=shape, **kwargs)`` call."""
    out = getattr(chunk_generator(seed, index), method)(*args, size=shape, **kwargs)
    if cast is not None:
        out = out.astype(cast, copy=False)
    return out


def gather(idx: Any, starts: Sequence[int], *chunks: Any) -> Any:
    """``whole[idx]`` where ``whole`` is the concatenation of ``chunks`` (starting at
    ``starts``), without concatenating them."""
    if len(chunks) == 1:
        return np.asarray(chunks[0][idx])
    which = np.searchsorted(np.asarray(starts), idx, side="right") - 1
    out = np.empty(idx.shape + chunks[0].shape[1:], dtype=chunks[0].dtype)
    for c, chunk in enumerate(chunks):
        mask = which == c
        if mask.any():
            out[mask] = chunk[idx[mask] - starts[c]]
    return out


def choice_chunk(
    seed: int,
    index: int,
    n: int,
    shape: tuple[int, ...],
    p: Any,
    starts: Sequence[int],
    *population: Any,
) -> Any:
    """One chunk of ``choice`` with replacement: indices drawn, then the population read."""
    idx = chunk_generator(seed, index).choice(n, size=shape, replace=True, p=p)
    return gather(idx, starts, *population) if population else np.asarray(idx)


def draw_permutation(seed: int, n: int) -> Any:
    return chunk_generator(seed, None).permutation(n)


def draw_without_replacement(seed: int, n: int, size: int, p: Any) -> Any:
    return chunk_generator(seed, None).choice(n, size=size, replace=False, p=p)


def take_indices(
    idx: Any,
    shape: tuple[int, ...],
    region: tuple[slice, ...],
    starts: Sequence[int],
    *population: Any,
) -> Any:
    """Part ``region`` of the drawn indices (reshaped to ``shape``), read from the
    population when there is one."""
    part = idx.reshape(shape)[region]
    return gather(part, starts, *population) if population else part.copy()


# ---- the random operator -----------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class RandomChunks(Op):
    """Chunks drawn by one ``numpy.random.Generator`` method each."""

    seed: int
    method: str
    args: tuple[Any, ...]
    """Distribution parameters: scalars, or ``Slot(i)`` for the tensor input ``i``."""
    kwargs: dict[str, Any] = field(default_factory=dict)
    nsplits: NSplits | None = None
    """Chunk lengths; None: those of the tensor parameters (aligned as element-wise ops)."""
    cast: np.dtype[Any] | None = None
    """A dtype the drawn values are cast to, when the method cannot produce it itself."""
    name: str = "random"

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


def _grid_indices(numblocks: Sequence[int]) -> Any:
    """Every chunk index of a grid, in C order."""
    return itertools.product(*(range(n) for n in numblocks))


def _flat_index(index: tuple[int, ...], numblocks: Sequence[int]) -> int:
    return int(np.ravel_multi_index(index, tuple(numblocks))) if index else 0


@tile_rule(RandomChunks)
def _tile_random(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, RandomChunks)
    if op.nsplits is None:
        nsplits, aligned = unify_chunks(node.key, node.shape, inputs, ctx)
    else:
        nsplits = op.nsplits
        aligned = [_align_to(node, i, t, nsplits, ctx) for i, t in enumerate(inputs)]
    numblocks = [len(axis) for axis in nsplits]
    grid = key_grid(node.key, numblocks)
    for index in _grid_indices(numblocks):
        shape = tuple(int(nsplits[a][i]) for a, i in enumerate(index))
        args = tuple(
            Ref(aligned[a.index].keys[_input_index(aligned[a.index].keys.shape, index)])
            if type(a) is Slot
            else a
            for a in op.args
        )
        flat = _flat_index(index, numblocks)
        ctx.add_blockwise(
            grid[index],
            random_chunk,
            (op.seed, flat, op.method, shape, args, op.kwargs, op.cast),
            {},
        )
    return Tiled(tuple(tuple(a) for a in nsplits), grid)


# ---- choice and permutation: one global draw, then chunks -----------------------------------


@dataclass(frozen=True, eq=False)
class Choice(Op):
    seed: int
    size: tuple[int, ...]
    replace: bool
    p: np.ndarray[Any, Any] | None
    """Probabilities held by the client (a tensor ``p`` is the last input instead)."""
    has_population: bool
    """The first input is the population (else the result is the indices)."""
    p_is_input: bool
    nsplits: NSplits
    n: int = 0
    """The population size when there is no population input (``choice(int)``)."""

    def label(self) -> str:
        return "choice"


def _population(
    inputs: list[Tiled], has: bool, ctx: TileContext
) -> tuple[int, list[int], list[Ref]]:
    if not has:
        return 0, [], []
    pop = inputs[0]
    ctx.require_known(pop)
    lengths = [int(n) for n in pop.nsplits[0]]
    starts = [int(s) for s in offsets(lengths)]
    return starts[-1], starts[:-1], [Ref(k) for k in pop.flat_keys()]


@tile_rule(Choice)
def _tile_choice(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Choice)
    n, starts, pop_refs = _population(inputs, op.has_population, ctx)
    if not op.has_population:
        n = op.n
    p: Any = op.p
    if op.p_is_input:
        p_tiled = inputs[-1]
        ctx.require_known(p_tiled)
        whole = tuple((int(sum(axis)),) for axis in p_tiled.nsplits)
        p_one = rechunk_tiled(f"{node.key}-p", p_tiled, whole, np.dtype(np.float64), ctx)
        p = Ref(p_one.keys.ravel()[0])
    nsplits = op.nsplits
    numblocks = [len(axis) for axis in nsplits]
    grid = key_grid(node.key, numblocks)
    if op.replace:
        for index in _grid_indices(numblocks):
            shape = tuple(int(nsplits[a][i]) for a, i in enumerate(index))
            flat = _flat_index(index, numblocks)
            ctx.new_task(grid[index], choice_chunk, op.seed, flat, n, shape, p, starts, *pop_refs)
        return Tiled(nsplits, grid)
    total = math.prod(op.size)
    idx_key = (f"{node.key}-indices",)
    ctx.new_task(idx_key, draw_without_replacement, op.seed, n, total, p)
    per_axis = [offsets(axis) for axis in nsplits]
    for index in _grid_indices(numblocks):
        region = tuple(
            slice(int(per_axis[a][i]), int(per_axis[a][i + 1])) for a, i in enumerate(index)
        )
        ctx.new_task(grid[index], take_indices, Ref(idx_key), op.size, region, starts, *pop_refs)
    return Tiled(nsplits, grid)


@dataclass(frozen=True, eq=False)
class Permutation(Op):
    seed: int
    n: int
    """Length of ``permutation(int)``; rows of the input otherwise."""
    nsplits: NSplits | None
    """Chunks of ``permutation(int)``; None: the input's chunks."""

    def label(self) -> str:
        return "permutation"


def take_rows(perm: Any, lo: int, hi: int, starts: Sequence[int], *chunks: Any) -> Any:
    """Rows ``perm[lo:hi]`` of the concatenation of ``chunks`` (one block column)."""
    return gather(perm[lo:hi], starts, *chunks)


def perm_slice(perm: Any, lo: int, hi: int) -> Any:
    return perm[lo:hi].copy()


@tile_rule(Permutation)
def _tile_permutation(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Permutation)
    perm_key = (f"{node.key}-perm",)
    if not inputs:
        assert op.nsplits is not None
        ctx.new_task(perm_key, draw_permutation, op.seed, op.n)
        grid = key_grid(node.key, [len(op.nsplits[0])])
        bounds = offsets(op.nsplits[0])
        for i in range(len(op.nsplits[0])):
            ctx.new_task(grid[i], perm_slice, Ref(perm_key), int(bounds[i]), int(bounds[i + 1]))
        return Tiled(op.nsplits, grid)
    (x,) = inputs
    ctx.require_known(x)
    rows = [int(n) for n in x.nsplits[0]]
    bounds = offsets(rows)
    starts = [int(b) for b in bounds[:-1]]
    ctx.new_task(perm_key, draw_permutation, op.seed, int(bounds[-1]))
    grid = key_grid(node.key, list(x.keys.shape))
    for index in _grid_indices(x.keys.shape):
        i, rest = index[0], index[1:]
        column = [Ref(x.keys[(r, *rest)]) for r in range(len(rows))]
        ctx.new_task(
            grid[index],
            take_rows,
            Ref(perm_key),
            int(bounds[i]),
            int(bounds[i + 1]),
            starts,
            *column,
        )
    return Tiled(x.nsplits, grid)


# ---- RandomState ---------------------------------------------------------------------------


_FLOAT_NATIVE = (np.dtype(np.float32), np.dtype(np.float64))
_REQUIRED: Any = object()
"""Marks a distribution parameter without a default."""


class RandomState:
    """A source of random tensors with its own seed state (``numpy.random.RandomState``'s
    methods, plus ``chunk_size`` and ``dtype``).

    Each tensor it makes takes one integer seed from a ``numpy.random.RandomState`` seeded
    with ``seed``; the chunks of that tensor draw from independent streams derived from it.
    """

    # distributions with parameters, made by ``_distribution`` below
    uniform: Callable[..., Tensor]
    normal: Callable[..., Tensor]
    exponential: Callable[..., Tensor]
    poisson: Callable[..., Tensor]
    binomial: Callable[..., Tensor]
    negative_binomial: Callable[..., Tensor]
    geometric: Callable[..., Tensor]
    beta: Callable[..., Tensor]
    gamma: Callable[..., Tensor]
    lognormal: Callable[..., Tensor]
    laplace: Callable[..., Tensor]
    logistic: Callable[..., Tensor]
    gumbel: Callable[..., Tensor]
    chisquare: Callable[..., Tensor]
    standard_t: Callable[..., Tensor]
    standard_cauchy: Callable[..., Tensor]
    pareto: Callable[..., Tensor]
    weibull: Callable[..., Tensor]
    power: Callable[..., Tensor]
    rayleigh: Callable[..., Tensor]
    triangular: Callable[..., Tensor]
    f: Callable[..., Tensor]
    wald: Callable[..., Tensor]
    vonmises: Callable[..., Tensor]
    zipf: Callable[..., Tensor]
    logseries: Callable[..., Tensor]

    def __init__(self, seed: Any = None) -> None:
        self._state = np.random.RandomState(seed)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    # ---- seed state ---------------------------------------------------------------------

    def seed(self, seed: Any = None) -> None:
        """Reseed: the tensors made afterwards are determined by ``seed``."""
        self._state.seed(seed)

    def get_state(self) -> Any:
        """The state of the seed source (``numpy.random.RandomState.get_state``)."""
        return self._state.get_state()

    def set_state(self, state: Any) -> None:
        self._state.set_state(state)

    def _next_seed(self) -> int:
        return int(self._state.randint(0, _SEED_HIGH, dtype=np.int64))

    # ---- the generic sampler ------------------------------------------------------------

    def _sample(
        self,
        name: str,
        method: str,
        params: Sequence[tuple[str, Any]],
        size: Any,
        chunk_size: Any,
        dtype: Any,
        default_dtype: Any,
        native: Sequence[np.dtype[Any]] = (),
        kwargs: dict[str, Any] | None = None,
    ) -> Tensor:
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
            t = astensor(arr)
            args.append(Slot(len(tensors)))
            tensors.append(t)
            shapes.append(arr.shape)
            probe.append(arr)
        if len(probe) == len(params):
            # no tensor parameter: let NumPy check the values (one small draw)
            getattr(np.random.Generator(np.random.PCG64(0)), method)(*probe, **kw)
        param_shape = broadcast_shapes(*shapes) if shapes else ()
        if size is None:
            shape: tuple[Any, ...] = tuple(param_shape)
        else:
            shape = normalize_shape(size, "size")
            if not unknown_shape(param_shape):
                try:
                    fits = np.broadcast_shapes(shape, param_shape) == shape
                except ValueError:
                    fits = False
                if not fits:
                    raise ValueError(
                        f"{name}(): shape mismatch: parameters of shape {param_shape} cannot "
                        f"be broadcast to size {shape}"
                    )
        nsplits: NSplits | None = None
        if not tensors or size is not None or chunk_size is not None:
            if unknown_shape(shape):
                raise ValueError(
                    f"{name}(): chunk_size needs a known output shape; give size= or "
                    "execute the parameter tensors first"
                )
            nsplits = normalize_chunk_size(shape, chunk_size, max(out_dtype.itemsize, 1))
        op = RandomChunks(
            seed=self._next_seed(),
            method=method,
            args=tuple(args),
            kwargs=kw,
            nsplits=nsplits,
            cast=cast,
            name=name,
        )
        return new_tensor(op, tensors, shape, out_dtype)

    # ---- uniform numbers --------------------------------------------------------------------

    def rand(self, *dn: Any, **kw: Any) -> Tensor:
        """Uniform samples in ``[0, 1)`` of shape ``dn`` (``numpy.random.rand``).

        Keywords: ``chunk_size``, ``dtype`` (float64 or float32). Each chunk is one
        ``Generator.random`` call.
        """
        chunk_size = kw.pop("chunk_size", None)
        dtype = kw.pop("dtype", None)
        if kw:
            raise TypeError(f"rand() got unexpected keyword arguments {sorted(kw)}")
        if len(dn) == 1 and isinstance(dn[0], (tuple, list)):
            raise TypeError(
                "rand() takes the dimensions as separate ints, got a sequence; "
                "use random_sample(size=...) for a shape tuple"
            )
        return self._sample("rand", "random", [], dn, chunk_size, dtype, np.float64, _FLOAT_NATIVE)

    def randn(self, *dn: Any, **kw: Any) -> Tensor:
        """Standard normal samples of shape ``dn`` (``numpy.random.randn``).

        Keywords: ``chunk_size``, ``dtype`` (float64 or float32).
        """
        chunk_size = kw.pop("chunk_size", None)
        dtype = kw.pop("dtype", None)
        if kw:
            raise TypeError(f"randn() got unexpected keyword arguments {sorted(kw)}")
        if len(dn) == 1 and isinstance(dn[0], (tuple, list)):
            raise TypeError(
                "randn() takes the dimensions as separate ints, got a sequence; "
                "use standard_normal(size=...) for a shape tuple"
            )
        return self._sample(
            "randn", "standard_normal", [], dn, chunk_size, dtype, np.float64, _FLOAT_NATIVE
        )

    def random_sample(self, size: Any = None, chunk_size: Any = None, dtype: Any = None) -> Tensor:
        """Uniform samples in ``[0, 1)`` (``numpy.random.random_sample``); a 0-d tensor
        when ``size`` is None."""
        return self._sample(
            "random_sample", "random", [], size, chunk_size, dtype, np.float64, _FLOAT_NATIVE
        )

    random = random_sample
    ranf = random_sample
    sample = random_sample

    def standard_normal(
        self, size: Any = None, chunk_size: Any = None, dtype: Any = None
    ) -> Tensor:
        """Standard normal samples (``numpy.random.standard_normal``)."""
        return self._sample(
            "standard_normal",
            "standard_normal",
            [],
            size,
            chunk_size,
            dtype,
            np.float64,
            _FLOAT_NATIVE,
        )

    def standard_exponential(
        self, size: Any = None, chunk_size: Any = None, dtype: Any = None
    ) -> Tensor:
        """Standard exponential samples (``numpy.random.standard_exponential``)."""
        return self._sample(
            "standard_exponential",
            "standard_exponential",
            [],
            size,
            chunk_size,
            dtype,
            np.float64,
            _FLOAT_NATIVE,
        )

    def standard_gamma(
        self, shape: Any, size: Any = None, chunk_size: Any = None, dtype: Any = None
    ) -> Tensor:
        """Standard gamma samples (``numpy.random.standard_gamma``)."""
        return self._sample(
            "standard_gamma",
            "standard_gamma",
            [("shape", shape)],
            size,
            chunk_size,
            dtype,
            np.float64,
            _FLOAT_NATIVE,
        )

    def randint(
        self,
        low: Any,
        high: Any = None,
        size: Any = None,
        dtype: Any = int,
        chunk_size: Any = None,
    ) -> Tensor:
        """Random integers in ``[low, high)`` (``[0, low)`` without ``high``), as
        ``numpy.random.randint``; each chunk is one ``Generator.integers`` call."""
        dt = as_dtype(dtype, int)
        if dt.kind not in "biu":
            raise TypeError(f"randint(): unsupported dtype {dt} (an integer or bool dtype)")
        return self._sample(
            "randint",
            "integers",
            [("low", low), ("high", high)],
            size,
            chunk_size,
            dt,
            dt,
            (dt,),
            kwargs={"dtype": dt},
        )

    # ---- choice, permutation, shuffle ---------------------------------------------------

    def choice(
        self,
        a: Any,
        size: Any = None,
        replace: bool = True,
        p: Any = None,
        chunk_size: Any = None,
    ) -> Tensor:
        """A random sample from the 1-D ``a`` (or from ``range(a)`` for an int), as
        ``numpy.random.choice``.

        With replacement, each chunk draws its own indices (one ``Generator.choice`` call)
        and reads them from ``a``'s chunks (all of them, so a tensor ``a`` should be
        moderate). Without replacement, the indices of the whole sample are drawn in one
        task, which holds O(n) memory for a population of n (a permutation of it), then
        split into chunks. A tensor ``p`` is gathered into one chunk that every task reads.
        """
        population: Tensor | None = None
        if isinstance(a, Tensor):
            if a.ndim != 1:
                raise ValueError(f"choice(): a must be 1-dimensional, got {a.ndim} dimensions")
            population = a
            n: Any = a.shape[0]
            out_dtype = a.dtype
        else:
            arr = np.asarray(a)
            if arr.ndim == 0:
                try:
                    n = operator.index(arr.item())
                except TypeError:
                    raise TypeError(
                        f"choice(): a must be 1-dimensional or an integer, got {a!r}"
                    ) from None
                out_dtype = np.dtype(np.int64)
            elif arr.ndim == 1:
                if arr.dtype.kind == "O":
                    raise TypeError("choice(): object arrays are not supported")
                population = astensor(arr)
                n = arr.shape[0]
                out_dtype = arr.dtype
            else:
                raise ValueError(f"choice(): a must be 1-dimensional, got {arr.ndim} dimensions")
        shape = () if size is None else normalize_shape(size, "size")
        total = math.prod(shape)
        replace = bool(replace)
        known_n = not (isinstance(n, float) and math.isnan(n))
        if known_n and n <= 0 and total != 0:
            if population is not None:
                raise ValueError("choice(): a cannot be empty unless no samples are taken")
            raise ValueError("choice(): a must be a positive integer unless no samples are taken")
        p_arr: np.ndarray[Any, Any] | None = None
        p_tensor: Tensor | None = None
        if isinstance(p, Tensor):
            if p.ndim != 1:
                raise ValueError("choice(): p must be 1-dimensional")
            if known_n and not unknown_shape(p.shape) and p.shape[0] != n:
                raise ValueError("choice(): a and p must have same size")
            p_tensor = p if p.dtype == np.float64 else p.astype(np.float64)
        elif p is not None:
            p_arr = np.asarray(p, dtype=np.float64)
            if p_arr.ndim != 1:
                raise ValueError("choice(): p must be 1-dimensional")
            if known_n and p_arr.shape[0] != n:
                raise ValueError("choice(): a and p must have same size")
            if known_n and n > 0:
                # NumPy's own checks of p (non-negative, finite, sums to 1)
                np.random.Generator(np.random.PCG64(0)).choice(int(n), size=0, p=p_arr)
        if not replace and known_n and total > n:
            raise ValueError(
                "choice(): cannot take a larger sample than population when replace is False"
            )
        if not replace and p_arr is not None and np.count_nonzero(p_arr) < total:
            raise ValueError("choice(): fewer non-zero entries in p than size")
        nsplits = normalize_chunk_size(shape, chunk_size, out_dtype.itemsize)
        inputs = [t for t in (population, p_tensor) if t is not None]
        op = Choice(
            seed=self._next_seed(),
            size=shape,
            replace=replace,
            p=p_arr,
            has_population=population is not None,
            p_is_input=p_tensor is not None,
            nsplits=nsplits,
            n=int(n) if population is None else 0,
        )
        return new_tensor(op, inputs, shape, out_dtype)

    def permutation(self, x: Any, chunk_size: Any = None) -> Tensor:
        """A permuted ``range(x)`` (int ``x``) or a copy of ``x`` with its rows permuted,
        as ``numpy.random.permutation``.

        The permutation of the n row indices is drawn in one task (O(n) memory); each
        output chunk then gathers its rows from the chunks of its block column.
        ``chunk_size`` chunks the result of an int ``x``, or ``x`` itself.
        """
        if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
            n = max(int(x), 0)
            nsplits = normalize_chunk_size((n,), chunk_size, 8)
            op = Permutation(self._next_seed(), n, nsplits)
            return new_tensor(op, [], (n,), np.int64)
        if isinstance(x, Tensor):
            t = x
        else:
            arr = np.asarray(x)
            if arr.ndim < 1:
                raise IndexError("permutation(): x must be an integer or at least 1-dimensional")
            t = astensor(arr)
        if t.ndim < 1:
            raise IndexError("permutation(): x must be an integer or at least 1-dimensional")
        if chunk_size is not None:
            if unknown_shape(t.shape):
                raise ValueError("permutation(): chunk_size needs a tensor of known shape")
            new = normalize_chunk_size(t.shape, chunk_size, max(t.dtype.itemsize, 1))
            t = new_tensor(Rechunk(new), [t], t.shape, t.dtype)
        return new_tensor(Permutation(self._next_seed(), 0, None), [t], t.shape, t.dtype)

    def shuffle(self, x: Any) -> None:
        """Permute the rows of ``x`` in place: a tensor is rebound to its permutation
        (as ``__setitem__`` rebinds), a NumPy array is shuffled directly."""
        if isinstance(x, Tensor):
            x._node = self.permutation(x).node
        elif isinstance(x, np.ndarray):
            if x.ndim < 1:
                raise TypeError("shuffle(): x must be at least 1-dimensional")
            chunk_generator(self._next_seed(), None).shuffle(x)
        else:
            raise TypeError(
                f"shuffle(): x must be a tensor or a NumPy array, got {type(x).__name__}"
            )


# ---- distributions with parameters ----------------------------------------------------------


def _distribution(
    method: str, params: Sequence[tuple[str, Any]], default_dtype: Any, doc: str
) -> Callable[..., Tensor]:
    """A ``RandomState`` method ``method(*params, size=None, chunk_size=None, dtype=None)``."""
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    empty = inspect.Parameter.empty
    signature = inspect.Signature(
        [inspect.Parameter("self", kind)]
        + [inspect.Parameter(p, kind, default=empty if d is _REQUIRED else d) for p, d in params]
        + [inspect.Parameter(p, kind, default=None) for p in ("size", "chunk_size", "dtype")]
    )

    def sample(self: RandomState, *args: Any, **kwargs: Any) -> Tensor:
        try:
            bound = signature.bind(self, *args, **kwargs)
        except TypeError as exc:
            raise TypeError(f"{method}(): {exc}") from None
        bound.apply_defaults()
        values = bound.arguments
        return self._sample(
            method,
            method,
            [(p, values[p]) for p, _ in params],
            values["size"],
            values["chunk_size"],
            values["dtype"],
            default_dtype,
        )

    sample.__name__ = sample.__qualname__ = method
    sample.__doc__ = (
        f"{doc} (``numpy.random.{method}``); each chunk is one ``Generator.{method}`` call."
    )
    sample.__signature__ = signature  # type: ignore[attr-defined]
    return sample


_F = np.float64
_I = np.int64

_DISTRIBUTIONS: list[tuple[str, list[tuple[str, Any]], Any, str]] = [
    ("uniform", [("low", 0.0), ("high", 1.0)], _F, "Uniform samples in ``[low, high)``"),
    ("normal", [("loc", 0.0), ("scale", 1.0)], _F, "Normal (Gaussian) samples"),
    ("exponential", [("scale", 1.0)], _F, "Exponential samples"),
    ("poisson", [("lam", 1.0)], _I, "Poisson samples"),
    ("binomial", [("n", _REQUIRED), ("p", _REQUIRED)], _I, "Binomial samples"),
    ("negative_binomial", [("n", _REQUIRED), ("p", _REQUIRED)], _I, "Negative binomial samples"),
    ("geometric", [("p", _REQUIRED)], _I, "Geometric samples"),
    ("beta", [("a", _REQUIRED), ("b", _REQUIRED)], _F, "Beta samples"),
    ("gamma", [("shape", _REQUIRED), ("scale", 1.0)], _F, "Gamma samples"),
    ("lognormal", [("mean", 0.0), ("sigma", 1.0)], _F, "Log-normal samples"),
    ("laplace", [("loc", 0.0), ("scale", 1.0)], _F, "Laplace samples"),
    ("logistic", [("loc", 0.0), ("scale", 1.0)], _F, "Logistic samples"),
    ("gumbel", [("loc", 0.0), ("scale", 1.0)], _F, "Gumbel samples"),
    ("chisquare", [("df", _REQUIRED)], _F, "Chi-square samples"),
    ("standard_t", [("df", _REQUIRED)], _F, "Student's t samples"),
    ("standard_cauchy", [], _F, "Standard Cauchy samples"),
    ("pareto", [("a", _REQUIRED)], _F, "Pareto II (Lomax) samples"),
    ("weibull", [("a", _REQUIRED)], _F, "Weibull samples"),
    ("power", [("a", _REQUIRED)], _F, "Power-distribution samples"),
    ("rayleigh", [("scale", 1.0)], _F, "Rayleigh samples"),
    (
        "triangular",
        [("left", _REQUIRED), ("mode", _REQUIRED), ("right", _REQUIRED)],
        _F,
        "Triangular samples",
    ),
    ("f", [("dfnum", _REQUIRED), ("dfden", _REQUIRED)], _F, "F-distribution samples"),
    ("wald", [("mean", _REQUIRED), ("scale", _REQUIRED)], _F, "Wald (inverse Gaussian) samples"),
    ("vonmises", [("mu", _REQUIRED), ("kappa", _REQUIRED)], _F, "von Mises samples"),
    ("zipf", [("a", _REQUIRED)], _I, "Zipf samples"),
    ("logseries", [("p", _REQUIRED)], _I, "Logarithmic series samples"),
]

for _name, _params, _dt, _doc in _DISTRIBUTIONS:
    setattr(RandomState, _name, _distribution(_name, _params, _dt, _doc))


# ---- the module-level API: methods of one global RandomState --------------------------------

_global_state = RandomState()


def seed(seed: Any = None) -> None:
    """Reseed the global state: the random tensors made afterwards are determined by it."""
    _global_state.seed(seed)


def get_state() -> Any:
    return _global_state.get_state()


def set_state(state: Any) -> None:
    _global_state.set_state(state)


rand = _global_state.rand
randn = _global_state.randn
randint = _global_state.randint
random_sample = _global_state.random_sample
random = _global_state.random
ranf = _global_state.ranf
sample = _global_state.sample
standard_normal = _global_state.standard_normal
standard_exponential = _global_state.standard_exponential
standard_gamma = _global_state.standard_gamma
choice = _global_state.choice
permutation = _global_state.permutation
shuffle = _global_state.shuffle
uniform = _global_state.uniform
normal = _global_state.normal
exponential = _global_state.exponential
poisson = _global_state.poisson
binomial = _global_state.binomial
negative_binomial = _global_state.negative_binomial
geometric = _global_state.geometric
beta = _global_state.beta
gamma = _global_state.gamma
lognormal = _global_state.lognormal
laplace = _global_state.laplace
logistic = _global_state.logistic
gumbel = _global_state.gumbel
chisquare = _global_state.chisquare
standard_t = _global_state.standard_t
standard_cauchy = _global_state.standard_cauchy
pareto = _global_state.pareto
weibull = _global_state.weibull
power = _global_state.power
rayleigh = _global_state.rayleigh
triangular = _global_state.triangular
f = _global_state.f
wald = _global_state.wald
vonmises = _global_state.vonmises
zipf = _global_state.zipf
logseries = _global_state.logseries

__all__ = [
    "RandomState",
    "beta",
    "binomial",
    "chisquare",
    "choice",
    "exponential",
    "f",
    "gamma",
    "geometric",
    "get_state",
    "gumbel",
    "laplace",
    "logistic",
    "lognormal",
    "logseries",
    "negative_binomial",
    "normal",
    "pareto",
    "permutation",
    "poisson",
    "power",
    "rand",
    "randint",
    "randn",
    "random",
    "random_sample",
    "ranf",
    "rayleigh",
    "sample",
    "seed",
    "set_state",
    "shuffle",
    "standard_cauchy",
    "standard_exponential",
    "standard_gamma",
    "standard_normal",
    "standard_t",
    "triangular",
    "uniform",
    "vonmises",
    "wald",
    "weibull",
    "zipf",
]
