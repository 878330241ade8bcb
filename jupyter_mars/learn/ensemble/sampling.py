"""Fit many models, each on its own random sample of the rows, without gathering the data.

``fit_on_samples(fit, members, X, y, n_draws, bootstrap, seeds)`` is a ``SampleFit`` node:
a 1-d object tensor of the fitted models, one per member. The rows are sampled where
they lie:

1. the tile rule knows each row block's length and, for every model, draws how many of
   its ``n_draws`` rows come from each block (multinomially with replacement,
   hypergeometrically without), so the sample is one of the whole data set's rows;
2. one task per block draws those rows from it for every model, and splits them into
   one part per model;
3. one task per model reads its parts (only those: each part is a task of its own, run
   where its block lies) and calls ``fit(member, X_sample, y_sample)``.

No task ever holds more than a row block and one model's sample. The draws depend on the
model's seed and on the blocks' lengths only, so a fit is repeatable for one chunking.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.shuffle import take_part
from jupyter_mars.learn.utils.blocks import as_object, row_blocks
from jupyter_mars.learn.utils.validation import to_tensor
from jupyter_mars.tensor.core import Tensor, new_tensor

__all__ = ["MAX_INT", "SampleFit", "draw_counts", "fit_on_samples", "set_random_states"]

MAX_INT = int(np.iinfo(np.int32).max)
"""The bound of the seeds drawn for the models, as scikit-learn's ensembles draw them."""


@dataclass(frozen=True, eq=False)
class SampleFit(Op):
    """One model per member, fitted on ``n_draws`` rows sampled from the inputs."""

    fit: Callable[..., Any]
    """``fit(member, X_sample, y_sample)`` -> the fitted model (``y_sample`` None
    without targets); module-level, or a ``functools.partial`` of one."""
    members: tuple[Any, ...]
    """What tells each model's fit apart (an unfitted estimator and its features)."""
    seeds: tuple[int, ...]
    """One seed per member: its draws of rows."""
    n_draws: int
    """Rows in each sample."""
    bootstrap: bool
    """Draw with replacement."""

    def label(self) -> str:
        return "fit_on_samples"


def draw_counts(
    sizes: Sequence[int], n_draws: int, bootstrap: bool, seeds: Sequence[int]
) -> np.ndarray[Any, Any]:
    """How many of each model's ``n_draws`` rows come from each block of ``sizes`` rows:
    an array of shape ``(len(seeds), len(sizes))``."""
    lengths = np.asarray(sizes, dtype=np.int64)
    total = int(lengths.sum())
    counts = np.zeros((len(seeds), len(lengths)), dtype=np.int64)
    for m, seed in enumerate(seeds):
        rng = np.random.default_rng(seed)
        if bootstrap:
            counts[m] = rng.multinomial(n_draws, lengths / total)
        else:
            counts[m] = rng.multivariate_hypergeometric(lengths, n_draws)
    return counts


def sample_block(
    counts: np.ndarray[Any, Any],
    seeds: tuple[int, ...],
    block_index: int,
    bootstrap: bool,
    x: np.ndarray[Any, Any],
    y: np.ndarray[Any, Any] | None = None,
) -> list[tuple[Any, Any] | None]:
    """Each model's rows of this block: ``counts[m]`` rows drawn with the model's seed."""
    parts: list[tuple[Any, Any] | None] = []
    for m, count in enumerate(counts):
        if count == 0:
            parts.append(None)
            continue
        rng = np.random.default_rng((seeds[m], block_index))
        if bootstrap:
            rows = rng.integers(0, len(x), int(count))
        else:
            rows = np.sort(rng.choice(len(x), int(count), replace=False))
        parts.append((x[rows], None if y is None else y[rows]))
    return parts


def fit_sample(
    fit: Callable[..., Any], member: Any, *parts: tuple[Any, Any]
) -> np.ndarray[Any, Any]:
    """The model fitted on its parts, put together in block order."""
    x = np.concatenate([p[0] for p in parts])
    y = None if parts[0][1] is None else np.concatenate([p[1] for p in parts])
    return as_object([fit(member, x, y)])


@tile_rule(SampleFit)
def _tile_sample_fit(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, SampleFit)
    aligned = row_blocks(node, inputs, ctx)
    ctx.require_known(*aligned)
    sizes = [int(n) for n in aligned[0].nsplits[0]]
    counts = draw_counts(sizes, op.n_draws, op.bootstrap, op.seeds)
    splits = []
    for i in range(len(sizes)):
        key = (f"{node.key}-sample", i)
        refs = [Ref(t.keys[(i,) + (0,) * (t.keys.ndim - 1)]) for t in aligned]
        ctx.new_task(key, sample_block, counts[:, i], op.seeds, i, op.bootstrap, *refs)
        splits.append(key)
    grid = key_grid(node.key, [len(op.members)])
    for m, member in enumerate(op.members):
        parts = []
        for i, split in enumerate(splits):
            if counts[m, i]:
                part = (f"{node.key}-part", i, m)
                ctx.new_task(part, take_part, Ref(split), m)
                parts.append(Ref(part))
        ctx.new_task(grid[m], fit_sample, op.fit, member, *parts)
    return Tiled(((1,) * len(op.members),), grid)


def fit_on_samples(
    fit: Callable[..., Any],
    members: Sequence[Any],
    x: Any,
    y: Any,
    n_draws: int,
    bootstrap: bool,
    seeds: Sequence[int],
) -> Tensor:
    """A 1-d object tensor of ``fit(member, X_sample, y_sample)`` for each member, each
    on its own sample of ``n_draws`` rows of ``x`` (and ``y``, if not None)."""
    if len(members) != len(seeds):
        raise ValueError("one seed per member is needed")
    data = [to_tensor(x)] if y is None else [to_tensor(x), to_tensor(y)]
    op = SampleFit(fit, tuple(members), tuple(int(s) for s in seeds), int(n_draws), bootstrap)
    shape = (len(members),) if members else (math.nan,)
    return new_tensor(op, data, shape, object, gpu=False)


def set_random_states(estimator: Any, seed: int) -> Any:
    """``estimator`` with each of its ``random_state`` parameters (nested ones too) set
    to an int drawn from ``seed``, in the order of their names, as scikit-learn's
    ensembles seed their members."""
    rng = np.random.RandomState(seed)
    names = sorted(
        name
        for name in estimator.get_params(deep=True)
        if name == "random_state" or name.endswith("__random_state")
    )
    estimator.set_params(**{name: int(rng.randint(MAX_INT)) for name in names})
    return estimator
