"""``train``: XGBoost trained on the workers that hold the data, as ``xgboost.dask`` does.

The training set is cut into parts held by the workers (``contrib/parts.py``), grouped
by the worker that holds them (``contrib/groups.py``), and one task per group trains:
it makes a ``DMatrix`` of its rows and joins the others through XGBoost's collective
(``xgboost.collective.CommunicatorContext``), whose tracker (``RabitTracker``) runs in
this process. Every trainer ends with the same model; the first one's comes back.

How many trainers: one per worker holding rows of the training set, at most as many as
the session runs tasks at once (``session_cores``), since the trainers block on each
other until all have started. The embedded session holds everything in one process:
one trainer, with no collective, whose model is the one ``xgboost.train`` makes of the
whole data. On a cluster, each worker that holds rows has one trainer, which runs there
(a task goes where its inputs are) on one of its slots; a worker whose slots stay taken
by other work for ``CONNECT_TIMEOUT`` seconds fails the training (the others wait for
it) rather than hang it.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import xgboost
from xgboost import collective
from xgboost.tracker import RabitTracker

from jupyter_mars.executable import Session, default_session
from jupyter_mars.learn.contrib.groups import group_parts, place_evals, run_per_group
from jupyter_mars.learn.contrib.network import CONNECT_TIMEOUT, driver_host
from jupyter_mars.learn.contrib.parts import Part, here, locate
from jupyter_mars.learn.contrib.xgboost.dmatrix import MarsDMatrix, MatrixSpec
from jupyter_mars.learn.utils.joblib_backend import session_cores

__all__ = ["train"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class TrainerConfig:
    """What every trainer is given besides its parts."""

    params: dict[str, Any]
    num_boost_round: int
    kwargs: dict[str, Any]
    """The other keywords of ``xgboost.train`` (``obj``, ``callbacks``, ...)."""
    train: MatrixSpec
    evals: tuple[tuple[MatrixSpec | None, str], ...] = ()
    """Each evaluation set's spec (None: the training set itself) and name."""
    tracker: dict[str, Any] | None = None
    """``RabitTracker.worker_args()``; None: one trainer, no collective."""
    eval_inputs: tuple[int, ...] = ()
    """For each evaluation set, which parts input of the task holds it (0: training)."""


def train_group(config: TrainerConfig, index: int, *inputs: list[Part]) -> dict[str, Any]:
    """Train on the parts this task reads (``inputs[0]``: of the training set, then of
    each other evaluation set); the model from the first trainer, the others None."""
    dtrain = config.train.local(inputs[0])
    evals = []
    for (spec, name), source in zip(config.evals, config.eval_inputs, strict=True):
        evals.append((dtrain if spec is None else spec.local(inputs[source]), name))
    history: dict[str, Any] = {}
    context: Any = contextlib.nullcontext()
    if config.tracker is not None:
        context = collective.CommunicatorContext(**config.tracker, dmlc_task_id=f"{index:08d}")
    with context:
        rank = collective.get_rank() if config.tracker is not None else 0
        booster = xgboost.train(
            config.params,
            dtrain,
            config.num_boost_round,
            evals=evals,
            evals_result=history,
            **config.kwargs,
        )
    return {
        "rank": rank,
        "place": here(),
        "thread": threading.current_thread().name,
        "rows": dtrain.num_row(),
        "booster": booster if rank == 0 else None,
        "history": history,
    }


def _check_evals(evals: Any) -> list[tuple[MarsDMatrix, str]]:
    checked = []
    for item in evals or ():
        if not isinstance(item, tuple | list) or len(item) != 2:
            raise TypeError("evals must be a list of (MarsDMatrix, name) pairs")
        matrix, name = item
        if not isinstance(matrix, MarsDMatrix):
            raise TypeError(f"expected a MarsDMatrix in evals, got {type(matrix).__name__}")
        if not isinstance(name, str):
            raise TypeError(f"expected a string name in evals, got {type(name).__name__}")
        checked.append((matrix, name))
    return checked


def train(
    params: dict[str, Any],
    dtrain: MarsDMatrix,
    num_boost_round: int = 10,
    evals: Sequence[tuple[MarsDMatrix, str]] = (),
    session: Session | None = None,
    run_kwargs: dict[str, Any] | None = None,
    **kwargs: Any,
) -> xgboost.Booster:
    """Train an XGBoost model on ``dtrain``, on the workers that hold it (see the module
    docstring); the ``xgboost.Booster``.

    ``params``, ``num_boost_round`` and the other keywords (``obj``, ``custom_metric``,
    ``early_stopping_rounds``, ``verbose_eval``, ``xgb_model``, ``callbacks``, ...) are
    ``xgboost.train``'s; ``evals``: ``(MarsDMatrix, name)`` pairs evaluated each round,
    on all the workers' rows of them; ``evals_result``: a dict filled with the metrics,
    as XGBoost fills it. ``session``: where it runs (the default session when None);
    ``run_kwargs``: given to its executions.
    """
    if not isinstance(dtrain, MarsDMatrix):
        raise TypeError(f"invalid training matrix: {type(dtrain).__name__}; expected MarsDMatrix")
    checked = _check_evals(evals)
    evals_result = kwargs.pop("evals_result", None)
    session = default_session(session)
    train_parts = dtrain.parts()
    # one parts tensor per distinct matrix: the training set is read where it is held
    sources: list[MarsDMatrix] = [dtrain]
    for matrix, _ in checked:
        if all(matrix is not seen for seen in sources):
            sources.append(matrix)
    tensors = [train_parts, *(m.parts() for m in sources[1:])]
    located = [locate(t, session, run_kwargs) for t in tensors]
    places, groups = group_parts(located[0], session_cores(session))
    per_input = [groups, *(place_evals(found, places) for found in located[1:])]
    config = TrainerConfig(
        params=dict(params or {}),
        num_boost_round=int(num_boost_round),
        kwargs=kwargs,
        train=dtrain.spec(),
        evals=tuple(
            (None if matrix is dtrain else matrix.spec(), name) for matrix, name in checked
        ),
        eval_inputs=tuple(
            next(i for i, m in enumerate(sources) if m is matrix) for matrix, _ in checked
        ),
    )
    results = _run(config, tensors, per_input, places, session, run_kwargs)
    first = next(r for r in results if r["rank"] == 0)
    for r in sorted(results, key=lambda r: r["rank"]):
        logger.debug(
            "XGBoost trainer %d ran in %s (thread %s) on %d rows",
            r["rank"],
            r["place"],
            r["thread"],
            r["rows"],
        )
    if evals_result is not None:
        evals_result.clear()
        evals_result.update(first["history"])
    booster: xgboost.Booster = first["booster"]
    return booster


def _run(
    config: TrainerConfig,
    tensors: list[Any],
    per_input: list[list[list[int]]],
    places: list[str],
    session: Session,
    run_kwargs: dict[str, Any] | None,
) -> list[dict[str, Any]]:
    """The trainers' results, with a tracker running here while they train (if more
    than one)."""
    if len(places) == 1:
        func = functools.partial(train_group, config)
        return run_per_group(func, tensors, per_input, session, run_kwargs, "xgb_train")
    tracker = RabitTracker(
        n_workers=len(places),
        host_ip=driver_host(session),
        sortby="task",
        timeout=CONNECT_TIMEOUT,
    )
    tracker.start()
    config = replace(config, tracker=tracker.worker_args())
    func = functools.partial(train_group, config)
    finished = False
    try:
        results = run_per_group(func, tensors, per_input, session, run_kwargs, "xgb_train")
        finished = True
    finally:
        # a failed training leaves the tracker waiting for trainers that will not come
        with contextlib.suppress(xgboost.core.XGBoostError):
            tracker.wait_for(None if finished else 1)
        with contextlib.suppress(xgboost.core.XGBoostError):
            tracker.free()
    return results
