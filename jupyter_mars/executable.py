"""What tensors and frames share, and where they execute: the ``Executable`` handle on a
lazy expression node, the ``Session`` it executes in (the embedded runtime here; a cluster's
``RemoteSession`` in ``remote/``), and the default session that ``.execute()`` uses.
``session.py`` above makes sessions of either kind."""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Iterable
from typing import Any

from jupyter_mars.config import options
from jupyter_mars.engine.devices import check_devices
from jupyter_mars.engine.executors.threads import ThreadRuntime
from jupyter_mars.engine.future import Progress
from jupyter_mars.engine.naming import checked_name, describe
from jupyter_mars.engine.node import Node
from jupyter_mars.engine.plan import tile_without_running
from jupyter_mars.engine.session import EngineSession
from jupyter_mars.engine.sizes import EXPECTED, parse_size
from jupyter_mars.engine.storage.admission import physical_memory
from jupyter_mars.engine.tracebacks import HIDE

LAZY_HINT = "lazy: .execute() computes it"
"""How a lazy object's repr ends: what to do to see its data."""


class Executable:
    """A user-facing handle on an expression ``Node``."""

    __slots__ = ()

    _node: Node

    @property
    def node(self) -> Node:
        return self._node

    @property
    def key(self) -> str:
        return self._node.key

    def execute(self, session: Any = None, **kwargs: Any) -> Any:
        __tracebackhide__ = HIDE  # noqa: F841 - read by IPython and pytest
        return execute(self, session=session, **kwargs)

    def fetch(self, session: Any = None, batch_size: int | None = None) -> Any:
        """The computed value. ``batch_size`` is Mars's bound on the chunks asked for at a
        time: here chunks always come back one by one into the result, so it only has to
        be a positive number of chunks."""
        if batch_size is not None and (
            isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1
        ):
            raise ValueError(f"batch_size must be a positive int, got {batch_size!r}")
        return fetch(self, session=session)

    def _layout(self) -> Any:
        """Chunk lengths per axis (``nsplits``) found without running anything, or None
        when they depend on data not computed yet (a groupby's choice of plan, say)."""
        try:
            tiled = tile_without_running(self._node, default_cpus())
        except Exception:  # noqa: BLE001 - a repr never raises; the error shows at execute
            return None
        return None if tiled is None else tiled.nsplits

    def _executed_data(self) -> Any:
        return executed_data(self)


_default: Session | None = None
_default_lock = threading.Lock()


def available_cpus() -> int:
    """Cores this process may run on (its CPU affinity), not the machine's total."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class ExecutableTuple(tuple):  # type: ignore[type-arg]
    """The tensors of one ``execute`` call; ``fetch()`` gives their data."""

    def execute(self, session: Session | None = None, **kwargs: Any) -> Any:
        return execute(*self, session=session, **kwargs)

    def fetch(self, session: Session | None = None) -> list[Any]:
        return [t.fetch(session=session) for t in self]


class Session:
    """Where tensors execute: the embedded runtime, or a cluster (``RemoteSession``)."""

    def execute(
        self,
        *tensors: Any,
        wait: bool = True,
        show_progress: bool | None = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> Any:
        """Compute ``tensors`` and keep their results for ``fetch`` and later graphs.

        Returns the tensor (or a tuple of them); with ``wait=False`` a future whose
        ``result()`` is that. ``name`` is what the execution is called in the widget,
        the dashboard and the Lab panel (default: what it computes, ``sum(matmul)``).
        """
        __tracebackhide__ = HIDE  # noqa: F841 - read by IPython and pytest
        if kwargs:
            raise TypeError(f"execute() got unexpected keyword arguments {sorted(kwargs)}")
        targets = _flatten(tensors)
        show = options.show_progress if show_progress is None else bool(show_progress)
        result: Any = (
            targets[0] if len(tensors) == 1 and len(targets) == 1 else ExecutableTuple(targets)
        )
        nodes = [t.node for t in targets]
        label = checked_name(name) or describe(nodes)
        outcome = self._execute(nodes, wait, show, result, label)
        if not wait:
            outcome.session = self  # where its result is fetched from
        return outcome

    def fetch(self, *tensors: Any) -> Any:
        targets = _flatten(tensors)
        data = [self._fetch(t.node) for t in targets]
        return data[0] if len(tensors) == 1 and len(targets) == 1 else data

    def run(
        self, *tensors: Any, wait: bool = True, timeout: float | None = None, **kwargs: Any
    ) -> Any:
        """Execute ``tensors`` and return their data, as Mars's ``Session.run``: one
        tensor's data, or a list for several (or for one list of them); a 0-d result as
        a Python scalar. ``wait=False`` returns a ``PendingRun`` at once, whose
        ``result(timeout)`` is that data. ``timeout``: seconds to wait, after which the
        execution is cancelled and ``TimeoutError`` raised. Other keywords go to
        ``execute`` (``show_progress``, ``name``)."""
        __tracebackhide__ = HIDE  # noqa: F841 - read by IPython and pytest
        if timeout is not None and (
            isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0
        ):
            raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
        if not isinstance(wait, bool):
            raise TypeError(f"wait must be True or False, got {wait!r}")
        targets = _flatten(tensors)
        if not targets:
            raise ValueError("run() needs at least one tensor or DataFrame")
        as_list = len(tensors) > 1 or isinstance(tensors[0], list | tuple)
        logview = self.logview_address()
        if options.verbose and logview is not None:
            print(f"Running {describe([t.node for t in targets])}: logview {logview}", flush=True)
        if wait and timeout is None:
            self.execute(*targets, **kwargs)
            return _run_data(self, targets, as_list)
        pending = PendingRun(self, self.execute(*targets, wait=False, **kwargs), targets, as_list)
        return pending.result(timeout) if wait else pending

    def logview_address(self) -> str | None:
        """Where its executions can be watched (a cluster's dashboard); None: nowhere."""
        return None

    def get_web_endpoint(self) -> str | None:
        """Mars's name for ``logview_address``: the web address of the cluster this session
        runs on, None for one in this process."""
        return self.logview_address()

    def is_executed(self, tensor: Executable) -> bool:
        raise NotImplementedError

    def _execute(self, nodes: list[Node], wait: bool, show: bool, result: Any, name: str) -> Any:
        raise NotImplementedError

    def _fetch(self, node: Node) -> Any:
        raise NotImplementedError

    def _close(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        global _default
        self._close()
        with _default_lock:
            if _default is self:
                _default = None

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def as_default(self) -> Session:
        global _default
        with _default_lock:
            _default = self
        return self


def _run_data(session: Session, targets: list[Executable], as_list: bool) -> Any:
    data = [_scalar(session._fetch(t.node)) for t in targets]
    return data if as_list else data[0]


def _scalar(value: Any) -> Any:
    """A 0-d array as the Python scalar it holds, as Mars's ``run`` gives it."""
    if getattr(value, "ndim", None) == 0 and hasattr(value, "item"):
        return value.item()
    return value


class PendingRun:
    """What ``session.run(..., wait=False)`` returns: ``result(timeout)`` waits for the
    execution and gives the data ``run`` would have; ``done()``, ``cancel()``;
    ``future`` is the execution's own future (progress, widget)."""

    def __init__(
        self, session: Session, future: Any, targets: list[Executable], as_list: bool
    ) -> None:
        self.session = session
        self.future = future
        self._targets = targets
        self._as_list = as_list

    def done(self) -> bool:
        return bool(self.future.done())

    def cancel(self) -> bool:
        return bool(self.future.cancel())

    def result(self, timeout: float | None = None) -> Any:
        """The data, waiting up to ``timeout`` seconds; on timeout the execution is
        cancelled and ``TimeoutError`` raised."""
        __tracebackhide__ = HIDE  # noqa: F841 - read by IPython and pytest
        try:
            self.future.result(timeout)
        except TimeoutError:
            self.future.cancel()
            raise TimeoutError(
                f"session.run did not finish within {timeout} s; it was cancelled"
            ) from None
        return _run_data(self.session, self._targets, self._as_list)

    def __repr__(self) -> str:
        return f"<PendingRun {'done' if self.done() else 'running'} {self.future!r}>"


class EngineBackedSession(Session):
    """A session whose executions an ``EngineSession`` in this process plans and keeps
    (set ``_engine``): the embedded one, on threads here, and the Ray one."""

    _engine: EngineSession
    _id: str | None = None

    @property
    def session_id(self) -> str:
        """This session's id (Mars's ``session_id``), made on first use."""
        if self._id is None:
            self._id = uuid.uuid4().hex
        return self._id

    @property
    def engine(self) -> EngineSession:
        return self._engine

    def _execute(self, nodes: list[Node], wait: bool, show: bool, result: Any, name: str) -> Any:
        __tracebackhide__ = HIDE  # noqa: F841 - read by IPython and pytest
        if not wait:
            return self._engine.submit(nodes, show_progress=show, result=result, name=name)
        self._engine.run(nodes, Progress(), show_progress=show)
        return result

    def _fetch(self, node: Node) -> Any:
        return self._engine.fetch(node)

    def is_executed(self, tensor: Executable) -> bool:
        return self._engine.is_executed(tensor.node)


class EmbeddedSession(EngineBackedSession):
    """Chunk tasks run on ``n_cpu`` threads of this process.

    ``memory_limit`` (bytes, or a size such as ``"2GiB"`` or ``"25%"`` of this machine's
    memory, as ``mars-worker --cache-mem`` takes) bounds what the runtime adds to the
    process's memory: chunks beyond it are spilled to ``spill_dir`` (a temporary directory
    by default, removed at close) and read back when needed, and tasks start only while
    they fit. None: no limit.

    ``cuda_devices`` (CUDA device indices, such as ``[0]``) gives each device a GPU slot,
    a thread that runs the GPU tasks on it; ``[]``: none, and a computation with a GPU
    task fails at once. None: every device CuPy sees, decided at the first computation
    with a GPU task, so that a session that never uses a GPU never imports CuPy. A device
    that does not exist, or no usable GPU, raises ``GPUUnavailable`` here.
    """

    def __init__(
        self,
        n_cpu: int | None = None,
        memory_limit: int | str | None = None,
        spill_dir: str | os.PathLike[str] | None = None,
        cuda_devices: Iterable[int] | None = None,
    ) -> None:
        n = n_cpu if n_cpu is not None else options.n_cpu or available_cpus()
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"n_cpu must be a positive int, got {n_cpu!r}")
        limit = _memory_limit(memory_limit)
        if spill_dir is not None:
            if not isinstance(spill_dir, str | os.PathLike):
                raise TypeError(f"spill_dir must be a path, got {type(spill_dir).__name__}")
            if limit is None:
                raise ValueError("spill_dir applies with a memory_limit only")
            spill_dir = os.fspath(spill_dir)
        devices = _cuda_devices(cuda_devices)
        self.n_cpu = n
        self.memory_limit = limit
        """Bytes the runtime may add to the process's memory; None: no limit."""
        self.cuda_devices = devices
        """The devices given, each with a GPU slot; None: every device there is."""
        runtime = ThreadRuntime(
            n_threads=n, n_cpu=n, memory_limit=limit, spill_dir=spill_dir, gpu_devices=devices
        )
        self._engine = EngineSession(runtime)
        self._runtime = runtime

    def memory_info(self) -> dict[str, Any]:
        """The memory limit, the process's resident size and what the runtime holds of it,
        and the store's figures: bytes in memory (``memory_bytes``), on disk only
        (``spilled_bytes``), in spill files (``disk_bytes``), spill reads and writes."""
        return self._runtime.memory_info()

    def _close(self) -> None:
        self._engine.close()

    def __repr__(self) -> str:
        if self.memory_limit is None:
            return f"<Session embedded n_cpu={self.n_cpu}>"
        return f"<Session embedded n_cpu={self.n_cpu} memory_limit={self.memory_limit}>"


def _cuda_devices(value: Iterable[int] | None) -> list[int] | None:
    """``cuda_devices`` as a list of distinct device indices, checked against this machine;
    ``TypeError``/``ValueError`` naming it, or ``GPUUnavailable``."""
    if value is None:
        return None
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise TypeError(
            f"cuda_devices must be a list of CUDA device indices such as [0], "
            f"got {type(value).__name__}"
        )
    devices = list(value)
    for device in devices:
        if isinstance(device, bool) or not isinstance(device, int):
            raise TypeError(
                f"cuda_devices must hold CUDA device indices (ints >= 0), got {device!r}"
            )
        if device < 0:
            raise ValueError(f"cuda_devices must hold indices >= 0, got {device}")
    if len(set(devices)) != len(devices):
        raise ValueError(f"cuda_devices must be distinct, got {devices}")
    check_devices(devices, f"cuda_devices={devices}")
    return devices


def _memory_limit(value: int | str | None) -> int | None:
    """``memory_limit`` in bytes; ``TypeError`` or ``ValueError`` naming it otherwise."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise TypeError(
            f"memory_limit must be {EXPECTED} (an int or a str), got {type(value).__name__}"
        )
    total = physical_memory()
    try:
        limit = parse_size(value, total=total)
    except ValueError as exc:
        raise ValueError(f"memory_limit: {exc}") from None
    if limit <= 0:
        raise ValueError(f"memory_limit must be more than 0 bytes, got {value!r}")
    if limit > total:
        raise ValueError(
            f"memory_limit must be at most this machine's memory ({total} bytes), got {value!r}"
        )
    return limit


def _flatten(items: Iterable[Any]) -> list[Executable]:
    out: list[Executable] = []
    for item in items:
        if isinstance(item, (list, tuple)):
            out.extend(_flatten(item))
        elif isinstance(item, Executable):
            out.append(item)
        else:
            raise TypeError(f"execute() takes tensors and DataFrames, got {type(item).__name__}")
    return out


def get_default_session() -> Session | None:
    return _default


def default_cpus() -> int:
    """Cores of the default session's runtime where this process knows them (an embedded
    session's), else this machine's: what a lazy object's repr tiles for."""
    n_cpu = getattr(_default, "n_cpu", None)
    return int(n_cpu) if n_cpu else available_cpus()


def default_session(session: Session | None = None) -> Session:
    """``session`` if given, else the default session, started (embedded) on first use."""
    global _default
    if session is not None:
        return session
    with _default_lock:
        if _default is None:
            _default = EmbeddedSession()
        return _default


def execute(*tensors: Any, session: Session | None = None, **kwargs: Any) -> Any:
    __tracebackhide__ = HIDE  # noqa: F841 - read by IPython and pytest
    return default_session(session).execute(*tensors, **kwargs)


def fetch(*tensors: Any, session: Session | None = None) -> Any:
    return default_session(session).fetch(*tensors)


def executed_data(tensor: Executable) -> Any:
    """The data of ``tensor`` if the default session holds it, else None."""
    session = _default
    if session is None or not session.is_executed(tensor):
        return None
    return session.fetch(tensor)
