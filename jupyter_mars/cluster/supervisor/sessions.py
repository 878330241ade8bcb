"""Sessions and executions held by a supervisor for its remote clients.

Each client session gets an engine session over the cluster runtime: executions are
planned and tiled here, results stay on the workers, and the nodes a client executed are
kept alive here until the client releases them (its own tensor was garbage-collected) or
closes the session; then their chunks are freed on every worker.

Leases. A client may vanish without closing its session (its process exits, its kernel
restarts, its network goes), and its results would then stay on the workers for ever.
So each session is a lease: every request of it, and the keep-alive its client sends from
a background thread, renews it (``touch``); ``SessionRegistry.expire`` closes the sessions
not renewed for ``session_timeout`` seconds, which frees their chunks everywhere.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
import uuid
from concurrent.futures import CancelledError, Future, ThreadPoolExecutor
from typing import Any

from jupyter_mars.engine.future import Progress
from jupyter_mars.engine.node import Node, Tiled
from jupyter_mars.engine.remote_traceback import frames_of
from jupyter_mars.engine.runtime import Runtime
from jupyter_mars.engine.session import EngineSession, ExecutionCancelled

logger = logging.getLogger(__name__)

_ids = itertools.count()
SESSION_TIMEOUT = 300.0
"""Seconds a session lives without a word from its client, unless the supervisor is told
otherwise (``--session-timeout``): long enough for a slow network, short enough that a
kernel restart does not hold a cluster's memory for long."""
MAX_EXECUTIONS = 1000
"""Execution records a session keeps for clients to query; older finished ones go."""
CANCELLATIONS = (CancelledError, ExecutionCancelled)
"""What an execution stopped by a cancel raises: its job was cancelled, or it was
stopped between two stages."""


def error_model(error: BaseException) -> dict[str, Any]:
    """An error as JSON for the client: its type, module, message and notes, and the frames
    of the user's code a worker kept (``engine/remote_traceback.py``); never the library's."""
    return {
        "type": type(error).__name__,
        "module": type(error).__module__,
        "message": str(error),
        "notes": list(getattr(error, "__notes__", [])),
        "traceback": frames_of(error),
    }


class Execution:
    def __init__(self, execution_id: str, nodes: list[Node], name: str = "") -> None:
        self.id = execution_id
        self.name = name
        """What it is called on the pages (the client's name, or what it computes)."""
        self.nodes = nodes
        self.progress = Progress()
        self.cancel_event = threading.Event()
        self.started = time.time()
        self.ended: float | None = None
        self.future: Future[None] | None = None
        self._final: dict[str, Any] | None = None
        """The model once the execution ended; its graph is then let go."""

    @property
    def state(self) -> str:
        """How it ended, read from its outcome: a cancel that came as it ended (or after)
        changes nothing of an execution that succeeded or failed."""
        if self.future is None or not self.future.done():
            return "cancelling" if self.cancel_event.is_set() else "running"
        error = self.future.exception()
        if error is None:
            return "succeeded"
        if self.cancel_event.is_set() and isinstance(error, CANCELLATIONS):
            return "cancelled"
        return "failed"

    @property
    def finished(self) -> bool:
        """Whether it ended: succeeded, failed or cancelled."""
        return self.future is not None and self.future.done()

    def model(self, tiled: dict[str, Tiled]) -> dict[str, Any]:
        if self._final is not None:
            return self._final
        state = self.state
        done, total, fraction = self.progress.reading()
        out: dict[str, Any] = {
            "execution_id": self.id,
            "name": self.name,
            "state": state,
            "progress": 1.0 if state == "succeeded" else fraction,
            "chunks_done": done,
            "chunks_total": total,
            "elapsed": round((self.ended or time.time()) - self.started, 3),
        }
        if state == "failed" and self.future is not None:
            error = self.future.exception()
            assert error is not None
            out["error"] = error_model(error)
        if state == "succeeded":
            out["results"] = {
                node.key: {
                    "shape": [int(n) for n in node.shape],
                    "nsplits": [[int(n) for n in axis] for axis in tiled[node.key].nsplits],
                }
                for node in self.nodes
                if node.key in tiled
            }
        if state in ("succeeded", "failed", "cancelled"):
            # a finished execution keeps only its answer: the graph (and any data held by
            # its source nodes) would otherwise stay for the session's whole life
            self._final = out
            self.nodes = []
        return out

    def operators_model(self) -> dict[str, Any]:
        """Per operator: chunks done and total, tasks running, seconds, state; and edges
        from each operator to those reading its chunks (``opstats``)."""
        return {"execution_id": self.id, "state": self.state, **self.progress.operators()}


class ClusterSession:
    def __init__(self, session_id: str, runtime: Runtime, pool: ThreadPoolExecutor) -> None:
        self.id = session_id
        self.engine = EngineSession(runtime)
        self.nodes: dict[str, Node] = {}
        self.executions: dict[str, Execution] = {}
        self._pool = pool
        self.created = time.time()
        self.last_seen = time.monotonic()
        """When its client was last heard from (``time.monotonic()``)."""

    def touch(self) -> None:
        """Renew the lease: the client is alive."""
        self.last_seen = time.monotonic()

    def submit(self, nodes: list[Node], name: str = "") -> Execution:
        execution = Execution(f"execution-{next(_ids)}-{uuid.uuid4().hex[:8]}", nodes, name)
        self._forget_old_executions()
        self.executions[execution.id] = execution

        def run() -> None:
            try:
                self.engine.run(nodes, execution.progress, cancelled=execution.cancel_event)
                for node in nodes:
                    # Executing a result again sends a new copy of its node; keeping that
                    # one instead would let the held one be collected, freeing the result.
                    self.nodes[node.key] = self.engine.holder(node.key) or node
            finally:
                execution.ended = time.time()

        execution.future = self._pool.submit(run)
        return execution

    def _forget_old_executions(self) -> None:
        """Keep at most ``MAX_EXECUTIONS`` records, dropping the oldest finished ones."""
        excess = len(self.executions) - MAX_EXECUTIONS + 1
        if excess <= 0:
            return
        finished = [e for e in self.executions.values() if e.state not in ("running", "cancelling")]
        for execution in finished[:excess]:
            del self.executions[execution.id]

    def cancel(self, execution: Execution) -> bool:
        """Stop ``execution``, running tasks included; False when it had already ended
        (it then stays as it ended)."""
        if execution.finished:
            return False
        execution.cancel_event.set()
        job = execution.progress.current
        if job is not None:
            self.engine.runtime.cancel(job)
        return True

    def release(self, node_keys: list[str]) -> None:
        for key in node_keys:
            node = self.nodes.pop(key, None)
            if node is not None:
                self.engine.drop_node(node)

    def close(self) -> None:
        for execution in self.executions.values():
            if execution.state == "running":
                self.cancel(execution)
        self.nodes.clear()
        self.engine.close(close_runtime=False)


class SessionRegistry:
    def __init__(
        self,
        runtime: Runtime,
        max_parallel_executions: int = 8,
        session_timeout: float = SESSION_TIMEOUT,
    ) -> None:
        if not session_timeout > 0:
            raise ValueError(f"session_timeout must be > 0 seconds, got {session_timeout!r}")
        self.runtime = runtime
        self.session_timeout = session_timeout
        self.sessions: dict[str, ClusterSession] = {}
        self._pool = ThreadPoolExecutor(
            max_workers=max_parallel_executions, thread_name_prefix="mars-execution"
        )

    def create(self) -> ClusterSession:
        session = ClusterSession(f"session-{uuid.uuid4().hex[:12]}", self.runtime, self._pool)
        self.sessions[session.id] = session
        return session

    def close(self, session_id: str) -> bool:
        session = self.sessions.pop(session_id, None)
        if session is None:
            return False
        session.close()
        return True

    def expire(self, now: float | None = None) -> list[str]:
        """Close the sessions whose client was not heard from for ``session_timeout``
        seconds (their results are freed on every worker); their ids."""
        now = time.monotonic() if now is None else now
        expired = [
            session_id
            for session_id, session in list(self.sessions.items())
            if now - session.last_seen > self.session_timeout
        ]
        for session_id in expired:
            logger.warning(
                "session %s: its client was not heard from for %g s; closed, its results freed",
                session_id,
                self.session_timeout,
            )
            self.close(session_id)
        return expired

    def shutdown(self) -> None:
        for session_id in list(self.sessions):
            self.close(session_id)
        self._pool.shutdown(wait=False, cancel_futures=True)
