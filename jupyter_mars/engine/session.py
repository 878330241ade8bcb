"""The engine session: plans executions, runs their stages on a runtime, keeps results.

Results of executed nodes stay in the runtime's store, one scheduler hold per chunk key,
until the last node that references the key is garbage-collected (a ``weakref.finalize``
drops the hold). Later executions read them instead of recomputing.
"""

from __future__ import annotations

import sys
import threading
import weakref
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import InvalidStateError
from typing import Any

from jupyter_mars.engine.future import ExecutionFuture, Progress
from jupyter_mars.engine.graph import Key, failed_key
from jupyter_mars.engine.history import ExecutionHistory, ExecutionRecord
from jupyter_mars.engine.node import Node, Tiled, op_name_of
from jupyter_mars.engine.plan import plan_stages
from jupyter_mars.engine.progressbar import TextProgressBar
from jupyter_mars.engine.runtime import JobHandle, Runtime, served_by
from jupyter_mars.engine.tracebacks import HIDE


class ExecutionCancelled(Exception):
    pass


def _annotate(error: BaseException, key: Key | None) -> BaseException:
    if key is not None and sys.version_info >= (3, 11):
        note = f"raised by operator {op_name_of(key)!r} computing chunk {key!r}"
        if note not in getattr(error, "__notes__", ()):
            error.add_note(note)
    return error


class EngineSession:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.executed: dict[str, Tiled] = {}
        self._refs: Counter[Key] = Counter()
        self._finalizers: dict[str, list[weakref.finalize[Any, Any]]] = {}
        self._lock = threading.RLock()
        self._closed = False
        self.history = ExecutionHistory()
        """The latest executions, for views of progress outside the caller's thread."""

    # ---- execution -----------------------------------------------------------------------

    def run(
        self,
        nodes: Sequence[Node],
        progress: Progress,
        show_progress: bool = False,
        cancelled: threading.Event | None = None,
        name: str | None = None,
    ) -> None:
        """Compute ``nodes`` and keep their results; raise the first task error. ``name``
        names the execution in ``history``."""
        __tracebackhide__ = HIDE  # noqa: F841 - read by IPython and pytest
        if self._closed:
            raise RuntimeError("the session is closed; create a new one with new_session()")
        if served_by(self.runtime):
            raise RuntimeError(
                "a task of this session asked it to compute something (a lazy object "
                "used as a plain value inside a chunk function, or execute() called "
                "there): the task would wait for itself. Pass the lazy object to the "
                "operation as an input, or compute it before."
            )
        cancelled = cancelled if cancelled is not None else threading.Event()
        record = self.history.add(ExecutionRecord(progress, name, cancelled))
        error: BaseException | None = None
        try:
            self._run(nodes, progress, show_progress, cancelled)
        except BaseException as exc:
            error = exc
            raise
        finally:
            record.end(error)

    def _run(
        self,
        nodes: Sequence[Node],
        progress: Progress,
        show_progress: bool,
        cancelled: threading.Event,
    ) -> None:
        __tracebackhide__ = HIDE  # noqa: F841 - read by IPython and pytest
        targets = list(dict.fromkeys(nodes))
        bar = TextProgressBar() if show_progress else None
        stage_holds: list[tuple[Key, ...]] = []
        complete = False
        try:
            with self._lock:
                stages = plan_stages(targets, dict(self.executed), self.runtime.n_cpu)
                stage = next(stages)
            while True:
                if cancelled.is_set():
                    raise ExecutionCancelled("the execution was cancelled")
                job = self.runtime.submit(stage.graph, stage.outputs, stage.priorities)
                progress.add_job(job)
                self._wait(job, progress, bar)
                if job.error is not None:
                    raise _annotate(job.error, failed_key(job.error, job.failed_key))
                stage_holds.append(stage.outputs)
                shapes = {
                    k: self.runtime.shapes[k] for k in stage.outputs if k in self.runtime.shapes
                }
                try:
                    stage = stages.send(shapes)
                except StopIteration as stop:
                    tiled: dict[str, Tiled] = stop.value
                    break
            final = stage_holds.pop()
            self._keep(targets, tiled, final)
            complete = True
        finally:
            for keys in stage_holds:
                self.runtime.release_keys(keys)
            progress.finish(complete)
            if bar is not None:
                bar.close()

    def _wait(self, job: JobHandle, progress: Progress, bar: TextProgressBar | None) -> None:
        try:
            while not job.done.wait(0.1):
                if bar is not None:
                    bar.update(progress.fraction())
        except KeyboardInterrupt:
            self.runtime.cancel(job)
            job.done.wait()
            raise

    def _keep(self, targets: list[Node], tiled: dict[str, Tiled], final: tuple[Key, ...]) -> None:
        with self._lock:
            for key in final:
                if self._refs[key] > 0:
                    # already held for an earlier result: drop the job's extra hold
                    self.runtime.release_keys((key,))
            for node in targets:
                if node.key in self.executed:
                    continue
                t = tiled[node.key]
                keys = tuple(t.flat_keys())
                self.executed[node.key] = t
                self._refs.update(keys)
                finalizer = weakref.finalize(node, self._drop, node.key, keys)
                self._finalizers.setdefault(node.key, []).append(finalizer)

    def adopt(self, node: Node, tiled: Tiled) -> None:
        """Hold ``tiled`` as the result of ``node``, as if it had been executed: its chunks
        are data the runtime already holds (data taken from outside, such as the blocks of
        a Ray Dataset), each with one hold that ``node``'s garbage collection drops."""
        self._keep([node], {node.key: tiled}, ())

    def holder(self, node_key: str) -> Node | None:
        """The node whose garbage collection frees the results of ``node_key`` (None when
        none is held): other nodes of the same key, unpickled from a later request, are
        not it."""
        with self._lock:
            for finalizer in self._finalizers.get(node_key, []):
                alive = finalizer.peek()
                if alive is not None:
                    node: Node = alive[0]
                    return node
        return None

    def drop_node(self, node: Node) -> None:
        """Release ``node``'s results now instead of at garbage collection."""
        for finalizer in [f for f in self._finalizers.pop(node.key, [])]:
            finalizer()

    def _drop(self, node_key: str, keys: tuple[Key, ...]) -> None:
        with self._lock:
            self.executed.pop(node_key, None)
            self._finalizers.pop(node_key, None)
            unheld = []
            for key in keys:
                self._refs[key] -= 1
                if self._refs[key] <= 0:
                    del self._refs[key]
                    unheld.append(key)
        if unheld and not self._closed:
            self.runtime.release_keys(tuple(unheld))

    def submit(
        self,
        nodes: Sequence[Node],
        show_progress: bool = False,
        result: Any = None,
        name: str | None = None,
    ) -> ExecutionFuture:
        """Run ``nodes`` in a background thread; the future (called ``name``) resolves to
        ``result``."""
        progress = Progress()
        future = ExecutionFuture(progress, self.runtime.cancel)
        future.name = name

        def drive() -> None:
            __tracebackhide__ = HIDE  # noqa: F841 - read by IPython and pytest
            try:
                self.run(nodes, progress, show_progress, future.cancel_event, name)
            except BaseException as exc:  # noqa: BLE001 - handed to the future
                settle(future.set_exception, exc)
                return
            settle(future.set_result, result)

        threading.Thread(target=drive, name="mars-execute", daemon=True).start()
        return future

    # ---- results ---------------------------------------------------------------------------

    def is_executed(self, node: Node) -> bool:
        return node.key in self.executed

    def fetch(self, node: Node) -> Any:
        t = self.executed.get(node.key)
        if t is None:
            raise ValueError("Cannot fetch unexecuted tensor; call .execute() first")
        chunks = [self.runtime.get(k) for k in t.flat_keys()]
        return node.assemble(t, chunks, self.runtime.n_cpu)

    def release_all(self) -> None:
        """Drop every result this session holds (the runtime stays up for others)."""
        with self._lock:
            held = tuple(self._refs)
            for finalizers in self._finalizers.values():
                for finalizer in finalizers:
                    finalizer.detach()
            self._finalizers.clear()
            self.executed.clear()
            self._refs.clear()
        if held:
            self.runtime.release_keys(held)

    def close(self, close_runtime: bool = True) -> None:
        self._closed = True
        if close_runtime:
            self.runtime.close()
            self.executed.clear()
            self._refs.clear()
        else:
            self.release_all()


def settle(setter: Any, value: Any) -> None:
    """Set a future's outcome unless it was cancelled meanwhile."""
    try:
        setter(value)
    except InvalidStateError:
        pass  # cancelled: the caller already knows
