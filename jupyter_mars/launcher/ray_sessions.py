"""Ray sessions listed with this machine's clusters: ``publish(session)`` serves the
session's progress API (``web/ray_front.py``) and records it in the registry as a cluster
of kind ``ray``, owned by this process, so that the Lab panel lists it beside the
clusters; ``close()`` on what it returns takes both down."""

from __future__ import annotations

from typing import Any

from jupyter_mars.launcher import registry
from jupyter_mars.web.ray_front import RayFront, ray_nodes


class PublishedRaySession:
    """A Ray session's served API and its registry record."""

    def __init__(self, front: RayFront, record: registry.ClusterRecord) -> None:
        self.front = front
        self.record = record

    @property
    def endpoint(self) -> str:
        return self.front.endpoint

    def close(self) -> None:
        registry.remove(self.record.id)
        self.front.close()


def publish(session: Any) -> PublishedRaySession:
    """Serve ``session``'s progress on loopback and list it in this machine's registry."""
    front = RayFront(session).start()
    try:
        record = registry.ClusterRecord(front.endpoint, "ray", n_workers=len(ray_nodes()))
        registry.record(record)
    except BaseException:
        front.close()
        raise
    return PublishedRaySession(front, record)
