"""A training set's row blocks, kept on the workers that compute them: its parts.

``build_parts`` makes a 1-d object tensor with one ``Part`` per row block of the data:
the block's rows of the features and of the per-row inputs beside them (label, weight,
margin, query ids), and ``place``, the process that computed it (``here()``: host and
process id, one per cluster worker). ``locate`` executes the parts, which stay held where
they were computed, and fetches only where each is and how many rows it has: the
trainers then read each part on the worker that holds it (``groups.py``).
"""

from __future__ import annotations

import functools
import os
import socket
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.executors.runner import INLINE_BELOW_SECONDS
from jupyter_mars.executable import EmbeddedSession, Session, default_session
from jupyter_mars.learn.utils.blocks import per_block
from jupyter_mars.learn.utils.validation import fetch_all
from jupyter_mars.tensor.core import Tensor

__all__ = ["FIELDS", "Part", "build_parts", "concat_field", "here", "locate"]

FIELDS = ("label", "weight", "margin", "qid")
"""The per-row inputs a part may hold beside its features, in the order given."""

LOCATE_SECONDS = 10 * INLINE_BELOW_SECONDS
"""How long finding a part's place takes at least. A worker runs tasks that are tiny on
average on its event loop's thread (``engine/executors/runner.py``); the training task
that follows blocks for as long as training lasts, which there would stop the worker's
heartbeats. Tasks of this length keep the worker's average above tiny."""


def here() -> str:
    """The process a task runs in: ``host:pid`` (one per cluster worker)."""
    return f"{socket.gethostname()}:{os.getpid()}"


@dataclass(frozen=True)
class Part:
    """One row block of a training set, as the worker that computed it holds it."""

    data: np.ndarray[Any, Any]
    """The block's rows of the features (2-d)."""
    label: np.ndarray[Any, Any] | None = None
    weight: np.ndarray[Any, Any] | None = None
    margin: np.ndarray[Any, Any] | None = None
    """The starting scores: XGBoost's ``base_margin``, LightGBM's ``init_score``."""
    qid: np.ndarray[Any, Any] | None = None
    """The query of each row (ranking): rows of a query are contiguous."""
    place: str = ""
    """The process that computed it (``here()``)."""

    @property
    def n_rows(self) -> int:
        return int(self.data.shape[0])


def make_part(fields: tuple[str, ...], data: np.ndarray[Any, Any], *columns: Any) -> Part:
    """The ``Part`` of one row block: ``columns`` are the blocks of ``fields``, in order."""
    given = dict(zip(fields, columns, strict=True))
    return Part(data=np.asarray(data), place=here(), **given)


def build_parts(data: Tensor, **columns: Tensor | None) -> Tensor:
    """A 1-d object tensor of ``Part`` s, one per row block of ``data`` (2-d); the
    ``columns`` given (``FIELDS``; None: not given) are cut into the same row blocks."""
    unknown = set(columns) - set(FIELDS)
    if unknown:
        raise TypeError(f"build_parts got unexpected fields {sorted(unknown)}")
    fields = tuple(name for name in FIELDS if columns.get(name) is not None)
    tensors = [columns[name] for name in fields]
    return per_block(functools.partial(make_part, fields), data, *tensors, name="train_part")


def describe(pause: float, chunk: np.ndarray[Any, Any]) -> tuple[str, int]:
    """Where the part in ``chunk`` (a chunk of ``build_parts``) is held and its rows,
    taking ``pause`` seconds at least (see ``LOCATE_SECONDS``)."""
    started = time.perf_counter()
    part = chunk[0]
    found = (part.place, part.n_rows)
    time.sleep(max(0.0, pause - (time.perf_counter() - started)))
    return found


def locate(
    parts: Tensor, session: Session | None, run_kwargs: dict[str, Any] | None
) -> list[tuple[str, int]]:
    """Execute ``parts`` (they stay held where computed) and fetch, for each, where it is
    and its rows."""
    # the embedded session's tasks run on threads of its own, never on an event loop's
    pause = 0.0 if isinstance(default_session(session), EmbeddedSession) else LOCATE_SECONDS
    places = per_block(functools.partial(describe, pause), parts, name="locate_part")
    (found,) = fetch_all(places, keep=[parts], session=session, run_kwargs=run_kwargs)
    return [(str(place), int(rows)) for place, rows in found]


def concat_field(parts: list[Part], name: str) -> np.ndarray[Any, Any] | None:
    """The field ``name`` of ``parts``, end to end; None where the parts lack it."""
    pieces = [getattr(part, name) for part in parts]
    if not pieces or pieces[0] is None:
        return None
    return np.concatenate(pieces) if len(pieces) > 1 else pieces[0]
