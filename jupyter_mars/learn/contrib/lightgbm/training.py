"""LightGBM trained on the workers that hold the data, one process each, as
``lightgbm.dask`` trains it.

The training set is cut into parts held by the workers (``contrib/parts.py``) and
grouped by the worker that holds them (``contrib/groups.py``); one task per group fits
a local LightGBM estimator on its rows. With several, they form LightGBM's own network:
each reserves a port, says it at the ``Rendezvous`` in this process, learns everyone's
(``machines``, in the order of the groups, so that the first group is LightGBM's rank
0) and trains with ``tree_learner='data'`` (unless ``'feature'`` or ``'voting'`` was
asked for). Every trainer ends with the same trees; the first one's estimator comes back.

Evaluation sets are read whole by every trainer (their rows are copied to each), so the
metrics in ``evals_result_`` are those of the whole set, the same on every trainer, and
early stopping stops them all at the same round.

How many trainers: as for XGBoost (``contrib/xgboost/training.py``): one per worker
holding rows, at most as many as the session runs tasks at once; one on the embedded
session, which fits exactly what LightGBM fits in one process.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.executable import Session, default_session
from jupyter_mars.learn.contrib.groups import group_parts, run_per_group
from jupyter_mars.learn.contrib.network import Rendezvous, driver_host, join, reserve_port
from jupyter_mars.learn.contrib.parts import Part, concat_field, here, locate
from jupyter_mars.learn.utils.joblib_backend import session_cores
from jupyter_mars.tensor.core import Tensor

__all__ = ["EvalSet", "TrainingSet", "fit_on_workers"]

logger = logging.getLogger(__name__)

TREE_LEARNER_ALIASES = ("tree_learner", "tree", "tree_type", "tree_learner_type")
DISTRIBUTED_LEARNERS = ("data", "data_parallel", "feature", "feature_parallel", "voting")
NETWORK_PARAMS = (
    "machines",
    "workers",
    "nodes",
    "local_listen_port",
    "local_port",
    "port",
    "num_machines",
    "num_machine",
    "machine_list_filename",
    "machine_list_file",
    "machine_list",
    "mlist",
)


@dataclass(frozen=True)
class TrainingSet:
    """A set of rows as the trainers read it: its parts and what the parts hold."""

    parts: Tensor
    feature_names: list[str] | None
    """Frame columns: each trainer fits on a pandas frame of them, as LightGBM would."""


@dataclass(frozen=True)
class EvalSet:
    set: TrainingSet
    same_as_train: bool


@dataclass(frozen=True)
class TrainerConfig:
    """What every trainer is given besides its parts."""

    estimator: Any
    """An unfitted local LightGBM estimator with the parameters to fit with."""
    classes: np.ndarray[Any, Any] | None
    """Every class of the training set (a classifier): a trainer's rows may lack some."""
    feature_names: list[str] | None
    fit_kwargs: dict[str, Any]
    evals: tuple[tuple[int, list[str] | None], ...]
    """For each evaluation set: the input its parts are (0: the training set's) and its
    columns."""
    rendezvous: str | None = None
    """Where the trainers meet (several of them); None: one trainer, no network."""


def _matrix(parts: list[Part], names: list[str] | None) -> Any:
    data = concat_field(parts, "data")
    return data if names is None else pd.DataFrame(data, columns=names)


def _query_sizes(parts: list[Part]) -> np.ndarray[Any, Any] | None:
    """The sizes of the queries of ``parts``' rows, in order (their ``qid`` runs)."""
    qid = concat_field(parts, "qid")
    if qid is None:
        return None
    if len(qid) == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.r_[True, qid[1:] != qid[:-1]])
    sizes: np.ndarray[Any, Any] = np.diff(np.r_[starts, len(qid)])
    return sizes


def _network(config: TrainerConfig, index: int) -> dict[str, Any]:
    """LightGBM's network parameters for this trainer, once all trainers met."""
    assert config.rendezvous is not None
    held = reserve_port()
    port = int(held.getsockname()[1])
    try:
        machines, _ = join(config.rendezvous, index, port)
    finally:
        held.close()  # LightGBM listens on it next
    return {
        "machines": ",".join(machines),
        "local_listen_port": port,
        "num_machines": len(machines),
    }


def train_group(config: TrainerConfig, index: int, *inputs: list[Part]) -> dict[str, Any]:
    """Fit a local estimator on the parts this task reads (``inputs[0]``: the training
    set's, then each evaluation set's); it comes back from the first trainer only."""
    train_parts = inputs[0]
    x = _matrix(train_parts, config.feature_names)
    y = concat_field(train_parts, "label")
    kwargs = dict(config.fit_kwargs)
    kwargs["sample_weight"] = concat_field(train_parts, "weight")
    kwargs["init_score"] = concat_field(train_parts, "margin")
    group = _query_sizes(train_parts)
    if group is not None:
        kwargs["group"] = group
    if config.evals:
        eval_x, eval_y, weights, scores, groups = [], [], [], [], []
        for source, names in config.evals:
            parts = inputs[source]
            eval_x.append(x if source == 0 else _matrix(parts, names))
            eval_y.append(y if source == 0 else _label(parts))
            weights.append(concat_field(parts, "weight"))
            scores.append(concat_field(parts, "margin"))
            groups.append(_query_sizes(parts))
        kwargs["eval_X"], kwargs["eval_y"] = tuple(eval_x), tuple(eval_y)
        kwargs["eval_sample_weight"] = weights if any(w is not None for w in weights) else None
        kwargs["eval_init_score"] = scores if any(s is not None for s in scores) else None
        if group is not None:
            kwargs["eval_group"] = groups
    estimator = config.estimator
    if config.rendezvous is not None:
        estimator = estimator.set_params(**_network(config, index))
    try:
        if config.classes is not None:
            estimator.fit_with_classes(config.classes, x, y, **kwargs)
        else:
            estimator.fit(x, y, **kwargs)
    finally:
        if config.rendezvous is not None and getattr(estimator, "fitted_", False):
            estimator.booster_.free_network()
    return {
        "index": index,
        "place": here(),
        "thread": threading.current_thread().name,
        "rows": len(x),
        "estimator": estimator if index == 0 else None,
    }


def _label(parts: list[Part]) -> np.ndarray[Any, Any]:
    label = concat_field(parts, "label")
    assert label is not None
    return label


def distributed_learner(params: dict[str, Any]) -> dict[str, Any]:
    """The tree learner to train with on several workers: ``'data'``, unless a
    distributed one was asked for (``'feature'``, ``'voting'``), as ``lightgbm.dask``
    chooses; under the name it was asked for by.

    >>> distributed_learner({"tree": "voting"}), distributed_learner({"n_jobs": 2})
    ({'tree': 'voting'}, {'tree_learner': 'data'})
    """
    for alias in TREE_LEARNER_ALIASES:
        if params.get(alias) is not None:
            chosen = params[alias]
            return {alias: chosen if chosen in DISTRIBUTED_LEARNERS else "data"}
    return {"tree_learner": "data"}


def fit_on_workers(
    local: Any,
    train: TrainingSet,
    evals: Sequence[EvalSet],
    fit_kwargs: dict[str, Any],
    classes: np.ndarray[Any, Any] | None,
    session: Session | None,
    run_kwargs: dict[str, Any] | None,
) -> Any:
    """``local`` (an unfitted LightGBM estimator) fitted on the workers holding
    ``train``, evaluated on ``evals``; the first trainer's fitted copy."""
    session = default_session(session)
    given = local.get_params()
    if any(given.get(name) is not None for name in NETWORK_PARAMS):
        raise ValueError(
            "the network parameters (machines, local_listen_port, num_machines) are "
            "chosen for each training: leave them out"
        )
    located = locate(train.parts, session, run_kwargs)
    places, groups = group_parts(located, session_cores(session))
    inputs = [train.parts]
    per_input = [groups]
    described = []
    for evaluated in evals:
        if evaluated.same_as_train:
            described.append((0, train.feature_names))
            continue
        found = locate(evaluated.set.parts, session, run_kwargs)
        # every trainer reads every part: the metrics are the whole set's on each
        per_input.append([[i for i, (_, rows) in enumerate(found) if rows] for _ in places])
        inputs.append(evaluated.set.parts)
        described.append((len(inputs) - 1, evaluated.set.feature_names))
    config = TrainerConfig(local, classes, train.feature_names, fit_kwargs, tuple(described))
    if len(places) == 1:
        results = _run(config, inputs, per_input, session, run_kwargs)
    else:
        distributed = local.set_params(**distributed_learner(local.get_params()))
        with Rendezvous(len(places), driver_host(session)) as meeting:
            config = replace(config, estimator=distributed, rendezvous=meeting.address)
            results = _run(config, inputs, per_input, session, run_kwargs)
    for r in results:
        logger.debug(
            "LightGBM trainer %d ran in %s (thread %s) on %d rows",
            r["index"],
            r["place"],
            r["thread"],
            r["rows"],
        )
    return results[0]["estimator"]


def _run(
    config: TrainerConfig,
    inputs: list[Tensor],
    per_input: list[list[list[int]]],
    session: Session,
    run_kwargs: dict[str, Any] | None,
) -> list[dict[str, Any]]:
    func = functools.partial(train_group, config)
    return run_per_group(func, inputs, per_input, session, run_kwargs, "lgbm_train")
