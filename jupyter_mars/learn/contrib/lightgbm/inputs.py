"""The inputs of a LightGBM fit as the trainers read them: features, targets, weights,
initial scores and queries checked, cut into parts (``contrib/parts.py``), with the
evaluation sets beside them.

A ranker's queries are given as their sizes (``group``), their rows contiguous: each
row gets its query's number (``qid``), and the row blocks are cut between queries, so
that no query is split between two trainers.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

import jupyter_mars.tensor as mt
from jupyter_mars.dataframe.core import DataFrame as LazyFrame
from jupyter_mars.executable import Session, default_session
from jupyter_mars.learn.contrib.lightgbm.training import EvalSet, TrainingSet
from jupyter_mars.learn.contrib.parts import build_parts
from jupyter_mars.learn.utils.chunks import chunk_lengths
from jupyter_mars.learn.utils.joblib_backend import session_cores
from jupyter_mars.learn.utils.multiclass import label_tensor
from jupyter_mars.learn.utils.validation import (
    check_array,
    check_consistent_length,
    column_or_1d,
    fetch_all,
    to_tensor,
)
from jupyter_mars.tensor.core import Tensor

__all__ = ["balanced_weights", "eval_pairs", "features", "training_sets"]


def features(data: Any, estimator: Any) -> Tensor:
    return check_array(data, ensure_all_finite=False, estimator=estimator, input_name="X")


def _column_names(data: Any) -> list[str] | None:
    if isinstance(data, LazyFrame | pd.DataFrame):
        return [str(column) for column in data.columns]
    return None


def _target(y: Any, labels: bool) -> Tensor:
    t = column_or_1d(label_tensor(y) if labels else to_tensor(y))
    if t.dtype.kind in "fc":
        t = check_array(t, ensure_2d=False, dtype=None, input_name="y")
    return t


def _optional(values: Any) -> Tensor | None:
    return None if values is None else to_tensor(values)


def eval_pairs(eval_set: Any, eval_X: Any, eval_y: Any) -> list[tuple[Any, Any]]:  # noqa: N803
    """The evaluation sets as ``(X, y)`` pairs, from ``eval_set`` (Mars's keyword) or
    from ``eval_X`` and ``eval_y`` (LightGBM's), with LightGBM's errors."""
    if eval_set is not None:
        if eval_X is not None or eval_y is not None:
            raise ValueError("Specify either 'eval_set' or 'eval_X' and 'eval_y', but not both.")
        return [eval_set] if isinstance(eval_set, tuple) else list(eval_set)
    if (eval_X is None) != (eval_y is None):
        raise ValueError("You must specify eval_X and eval_y, not just one of them.")
    if eval_X is None:
        return []
    if isinstance(eval_X, tuple) != isinstance(eval_y, tuple) or (
        isinstance(eval_X, tuple) and len(eval_X) != len(eval_y)
    ):
        raise ValueError(
            "If eval_X is a tuple, y_val must be a tuple of same length, and vice versa."
        )
    return (
        list(zip(eval_X, eval_y, strict=True)) if isinstance(eval_X, tuple) else [(eval_X, eval_y)]
    )


def _query_ids(group: Any, n_rows: float, session: Session | None) -> np.ndarray[Any, Any]:
    """Each row's query, from the sizes of the queries (in memory, or a tensor)."""
    if isinstance(group, Tensor | LazyFrame):
        (group,) = fetch_all(group, session=session)
    sizes = np.asarray(group, dtype=np.int64).ravel()
    if not np.isnan(n_rows) and sizes.sum() != int(n_rows):
        raise ValueError(
            f"Sum of query counts ({int(sizes.sum())}) differs from the length of #data "
            f"({int(n_rows)})"
        )
    return np.repeat(np.arange(len(sizes)), sizes)


def _query_aligned(x: Tensor, qid: np.ndarray[Any, Any], n_blocks: int) -> tuple[int, ...]:
    """Row block lengths near ``x``'s whose ends fall between queries, so that no query
    is split between two trainers (``n_blocks`` about even ones where ``x``'s are not
    known before it is computed)."""
    layout = chunk_lengths(x)
    if layout is not None and not any(math.isnan(n) for n in layout[0]):
        rows = [int(n) for n in layout[0]]
    else:
        rows = [len(b) for b in np.array_split(qid, max(1, min(n_blocks, len(qid))))]
    ends = np.flatnonzero(np.r_[qid[1:] != qid[:-1], True]) + 1
    cut = sorted({int(ends[np.searchsorted(ends, e)]) for e in np.cumsum(rows)[:-1]})
    bounds = [0, *[c for c in cut if 0 < c < len(qid)], len(qid)]
    return tuple(int(b - a) for a, b in zip(bounds[:-1], bounds[1:], strict=True))


def training_sets(
    estimator: Any,
    X: Any,  # noqa: N803
    y: Any,
    *,
    labels: bool,
    sample_weight: Any,
    init_score: Any,
    group: Any,
    eval_set: list[tuple[Any, Any]],
    eval_sample_weight: Any,
    eval_init_score: Any,
    eval_group: Any,
    feature_name: Any,
    session: Session | None,
) -> tuple[TrainingSet, list[EvalSet], Tensor]:
    """The training set and evaluation sets as the trainers read them, and the target
    (``labels``: classes of any kind) as a tensor."""
    x = features(X, estimator)
    t = _target(y, labels)
    w, margin = _optional(sample_weight), _optional(init_score)
    check_consistent_length(x, t, w, margin)
    qid = None
    if group is not None:
        ids = _query_ids(group, x.shape[0], session)
        rows = _query_aligned(x, ids, session_cores(default_session(session)))
        x = x.rechunk((rows, (x.shape[1],)))
        qid = mt.tensor(ids)
    names = _column_names(X) if feature_name == "auto" else None
    train = TrainingSet(build_parts(x, label=t, weight=w, margin=margin, qid=qid), names)
    evals = []
    for i, (valid_x, valid_y) in enumerate(eval_set):
        if valid_x is X and valid_y is y:
            evals.append(EvalSet(train, True))
            continue
        vx, vt = features(valid_x, estimator), _target(valid_y, labels)
        vw = _optional(eval_sample_weight[i] if eval_sample_weight else None)
        vm = _optional(eval_init_score[i] if eval_init_score else None)
        check_consistent_length(vx, vt, vw, vm)
        vq = None
        if eval_group is not None:
            vq = mt.tensor(_query_ids(eval_group[i], vx.shape[0], session))
        parts = build_parts(vx, label=vt, weight=vw, margin=vm, qid=vq)
        evals.append(EvalSet(TrainingSet(parts, _column_names(valid_x)), False))
    return train, evals, t


def balanced_weights(
    t: Tensor, session: Session | None, run_kwargs: dict[str, Any] | None
) -> dict[Any, float]:
    """``class_weight='balanced'`` as a dict over the whole training set: a trainer
    would weigh by its own rows' classes."""
    classes, counts = fetch_all(
        *mt.unique(t, return_counts=True), session=session, run_kwargs=run_kwargs
    )
    total = float(np.sum(counts))
    return {c: total / (len(classes) * float(n)) for c, n in zip(classes, counts, strict=True)}
