"""``RaySession``: a session whose chunk tasks run as Ray tasks (``runtime.py``).

Importing this module does not import Ray: ``jupyter_mars`` exports ``new_ray_session``
from here, and Ray (an optional dependency, ``jupyter_mars[ray]``) is loaded only when a
session is made.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from jupyter_mars.config import options
from jupyter_mars.engine.session import EngineSession
from jupyter_mars.executable import EngineBackedSession

if TYPE_CHECKING:
    from jupyter_mars.ray.runtime import RayRuntime

INSTALL_HINT = "pip install 'jupyter_mars[ray]'"

_connect_lock = threading.Lock()


def require_ray() -> Any:
    """The ``ray`` module; ``ImportError`` saying how to install it where it is missing."""
    try:
        import ray
    except ImportError as exc:
        raise ImportError(f"Ray sessions need Ray, which is not installed: {INSTALL_HINT}") from exc
    return ray


class RaySession(EngineBackedSession):
    """Chunk tasks run as Ray tasks on a Ray cluster; their results stay in Ray's object
    store until the tensor or frame is garbage-collected.

    ``address``: the Ray cluster to connect to (``"127.0.0.1:6379"``, ``"auto"``,
    ``"ray://head:10001"``); None starts a local Ray instance, as ``ray.init()`` does.
    ``ray_init_kwargs`` go to ``ray.init``. A process that is connected to Ray already
    keeps that connection (and ``address`` and the keywords are not used). ``close()``
    releases every result, and disconnects from Ray only if this session connected.
    """

    def __init__(self, address: str | None = None, **ray_init_kwargs: Any) -> None:
        if address is not None and not isinstance(address, str):
            raise TypeError(
                f"address must be a Ray address such as '127.0.0.1:6379' or 'auto', or None "
                f"to start a local Ray instance; got {type(address).__name__}"
            )
        ray = require_ray()
        from jupyter_mars.ray.runtime import RayRuntime

        with _connect_lock:
            self.connected = not ray.is_initialized()
            """True when this session connected to Ray (and so disconnects at close)."""
            if self.connected:
                try:
                    ray.init(address=address, **ray_init_kwargs)
                except BaseException:
                    # a failed ``ray://`` connect leaves Ray Client's mode on, and every
                    # later ``ray.init`` of this process would fail: shut down undoes it
                    ray.shutdown()
                    raise
        try:
            self.address: str = _cluster_address(ray, address)
            """The address of the Ray cluster (its GCS) this session runs on."""
            self.runtime: RayRuntime = RayRuntime(max_retries=options.task_retries)
        except BaseException:
            if self.connected:
                ray.shutdown()
            raise
        self._engine = EngineSession(self.runtime)
        self._closed = False

    @property
    def n_cpu(self) -> int:
        """The Ray cluster's CPUs: what tiling sizes its tasks for."""
        return self.runtime.n_cpu

    def _close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._engine.close()
        if self.connected:
            require_ray().shutdown()

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"n_cpu={self.n_cpu}"
        return f"<Session ray address={self.address} {state}>"


def _cluster_address(ray: Any, given: str | None) -> str:
    """The GCS address of the cluster this process is connected to; through Ray Client
    (``ray://``), which does not tell it, the address given."""
    try:
        return str(ray.get_runtime_context().gcs_address)
    except Exception:  # noqa: BLE001 - Ray Client's context lacks it
        return given or "ray"


def new_ray_session(
    address: str | None = None, *, default: bool = True, **ray_init_kwargs: Any
) -> RaySession:
    """A ``RaySession`` on the Ray cluster at ``address`` (None: a local Ray instance),
    made the default session unless ``default=False``. ``ray_init_kwargs`` go to
    ``ray.init`` when this process is not connected to Ray yet."""
    session = RaySession(address, **ray_init_kwargs)
    if default:
        session.as_default()
    return session
