"""What the supervisor's pages read of a cluster, made from a Ray session (pure).

The HTTP API's cluster and stream routes (``app.py``, ``stream.py``) read a ``service``:
its token, its sessions with their executions, and its cluster model. A Ray session has
no supervisor; these views give the same shapes from its engine session's execution
history (``engine/history.py``) and from Ray's node table (``ray.nodes()``), so that the
same routes serve it and the Lab panel lists it as it lists clusters.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from jupyter_mars.engine.history import ExecutionRecord
from jupyter_mars.engine.node import Tiled
from jupyter_mars.engine.session import EngineSession


def node_model(node: Mapping[str, Any]) -> dict[str, Any]:
    """A live Ray node as the cluster model lists a worker: its address, CPUs and memory
    (Ray's ``memory`` resource, what its tasks may use)."""
    resources = node.get("Resources") or {}
    return {
        "address": f"{node.get('NodeManagerAddress', '')}:{node.get('NodeManagerPort', 0)}",
        "n_cpu": int(float(resources.get("CPU", 0))),
        "memory_share": int(float(resources.get("memory", 0))),
        "running": 0,
        "heartbeat_age": 0.0,
        "resources": {"memory_limit": int(float(resources.get("memory", 0)))},
    }


def ray_cluster_model(nodes: Sequence[Mapping[str, Any]], address: str) -> dict[str, Any]:
    """The ``/api/v1/cluster`` model of a Ray cluster: its live nodes as workers, their
    machines counted once in the totals.

    >>> m = ray_cluster_model([{"NodeManagerAddress": "127.0.0.1", "NodeManagerPort": 5,
    ...     "Alive": True, "Resources": {"CPU": 2.0, "memory": 1024}}], "127.0.0.1:6379")
    >>> m["totals"], m["workers"][0]["address"], m["kind"]
    ({'n_cpu': 2, 'memory': 1024, 'hosts': 1}, '127.0.0.1:5', 'ray')
    """
    live = [n for n in nodes if n.get("Alive", False)]
    workers = [node_model(n) for n in live]
    return {
        "kind": "ray",
        "ray_address": address,
        "supervisors": [],
        "workers": workers,
        "totals": {
            "n_cpu": sum(w["n_cpu"] for w in workers),
            "memory": sum(w["memory_share"] for w in workers),
            "hosts": len({n.get("NodeManagerAddress") for n in live}),
        },
    }


class ExecutionView:
    """One execution of the history as the pages read a supervisor's execution."""

    def __init__(self, record: ExecutionRecord) -> None:
        self.record = record
        self.id = record.id
        self.progress = self
        """What the stream reads the operators of (``progress.operators()``)."""

    @property
    def state(self) -> str:
        return self.record.state

    def model(self, executed: Mapping[str, Tiled] | None = None) -> dict[str, Any]:
        record = self.record
        done, total, fraction = record.reading()
        out: dict[str, Any] = {
            "execution_id": record.id,
            "name": record.name or record.id,
            "state": record.state,
            "progress": 1.0 if record.state == "succeeded" else fraction,
            "chunks_done": done,
            "chunks_total": total,
            "elapsed": round(record.elapsed(), 3),
        }
        if record.error is not None:
            out["error"] = {"message": record.error}
        return out

    def operators(self) -> dict[str, Any]:
        return self.record.operators()

    def operators_model(self) -> dict[str, Any]:
        return {"execution_id": self.id, "state": self.state, **self.record.operators()}


class SessionView:
    """A Ray session's engine session as the pages read a supervisor's session."""

    def __init__(self, session_id: str, engine: EngineSession) -> None:
        self.id = session_id
        self.engine = engine

    @property
    def executions(self) -> dict[str, ExecutionView]:
        return {r.id: ExecutionView(r) for r in self.engine.history.latest()}

    def touch(self) -> None:
        """Nothing to renew: the session lives as long as its owner keeps it."""

    def cancel(self, execution: ExecutionView) -> bool:
        return execution.record.cancel(self.engine.runtime.cancel)


class SessionsView:
    """The one session, where the routes look sessions up."""

    session_timeout = None

    def __init__(self, session: SessionView) -> None:
        self.sessions = {session.id: session}


class RayService:
    """The ``service`` the API's handlers read, over one Ray session's engine session;
    ``nodes`` reads Ray's node table (``ray.nodes``)."""

    active = True

    def __init__(
        self,
        engine: EngineSession,
        address: str,
        token: str,
        host: str,
        nodes: Callable[[], list[dict[str, Any]]],
    ) -> None:
        self.token = token
        self.host = host
        self.address = address
        """The Ray address the session is connected to."""
        self.sessions = SessionsView(SessionView("ray", engine))
        self._nodes = nodes

    def active_web_address(self) -> str | None:
        return None

    def cluster_model(self) -> dict[str, Any]:
        return ray_cluster_model(self._nodes(), self.address)
