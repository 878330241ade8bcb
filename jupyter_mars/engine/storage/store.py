"""A worker's chunk store: memory up to a budget, the least recently used rest on disk.

Theory of operation. Every chunk has an ``Entry`` in ``_entries``, in one of the states
drawn in ``entry.py``; MEMORY entries are also keys of ``_lru``, least recent first.
Readers of a LOADING chunk wait on ``_changed`` rather than read its file twice. A chunk
deleted or replaced while it is read back is still read, for the readers that asked before:
its file is the reading thread's to remove, so whether they get it never depends on whether
the read opened the file before the delete unlinked it. A chunk
read back keeps its file (``path`` of a MEMORY entry: a clean copy), so spilling it again
costs no write: it only drops the value.

Byte counters: ``_memory_bytes`` sums MEMORY and SPILLING entries, ``_spilling_bytes``
the SPILLING ones, ``_spilled_bytes`` SPILLED and LOADING ones. Whenever
``_memory_bytes - _spilling_bytes`` exceeds ``cache_bytes``, the call that caused it
(``put``, a ``get`` that read a file back, the last ``unpin``) marks the least recently
used unpinned entries SPILLING (or, with a clean copy, SPILLED at once) under the lock,
then writes them *outside* the lock, so
other threads keep reading and writing in-memory chunks during disk IO. When a write
ends, the entry becomes SPILLED, unless it was deleted or replaced meanwhile (the file is
dropped) or pinned meanwhile (it stays in memory: a running task holds it). A write that
fails leaves the value in memory and is counted: nothing is lost to a full disk.

A chunk put with a recipe (``recompute``, see ``engine/recipes.py``) is dropped instead
of written, before any chunk that needs a write: a ``get`` runs the recipe again, in
LOADING like a read. Such chunks need no spill directory. A chunk with no room in
memory whose recipe can say what it makes is kept that way from the start
(``put_undrawn``): drawn, it would only be dropped.

The caller that triggers a spill does the IO itself, which throttles producers to the
disk's speed; ``put``, ``get`` and ``unpin`` may therefore block on disk and belong on an
executor thread rather than an event loop.
"""

from __future__ import annotations

import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any

from jupyter_mars.engine.graph import Key
from jupyter_mars.engine.sizeof import sizeof
from jupyter_mars.engine.storage import admission, spare
from jupyter_mars.engine.storage.entry import Entry, State
from jupyter_mars.engine.storage.errors import chunk_lost
from jupyter_mars.engine.storage.spill_dirs import SpillDirs
from jupyter_mars.engine.storage.spill_file import read_value, remove_file, write_value

logger = logging.getLogger(__name__)

SMALL = 64 << 10
"""Chunks below this size are spilled only once no larger one can be."""


class ChunkStore:
    """Chunk values by key, within ``cache_bytes`` of memory, spilling to ``spill_dirs``.

    With no spill directories everything stays in memory and ``info()["overflow_bytes"]``
    says how far past the budget it is; the first time that happens the store says so, in
    the log and in ``info()["warnings"]``. ``phy_mem_bytes`` (default: the machine's
    physical memory) is the worker's memory; ``admit_limit_bytes`` (default: all of it)
    the limit ``can_admit`` checks, the worker's soft limit.
    """

    def __init__(
        self,
        cache_bytes: int,
        spill_dirs: Sequence[str] = (),
        phy_mem_bytes: int | None = None,
        admit_limit_bytes: int | None = None,
    ) -> None:
        if cache_bytes < 0:
            raise ValueError(f"cache_bytes must be >= 0, got {cache_bytes}")
        self.cache_bytes = cache_bytes
        self.phy_mem_bytes = admission.physical_memory() if phy_mem_bytes is None else phy_mem_bytes
        self.admit_limit_bytes = (
            self.phy_mem_bytes if admit_limit_bytes is None else admit_limit_bytes
        )
        self.warnings: list[str] = []
        """Conditions the worker's status shows, each said once (and logged once)."""
        self._dirs = SpillDirs(spill_dirs)
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._entries: dict[Key, Entry] = {}
        self._lru: OrderedDict[Key, None] = OrderedDict()
        self._memory_bytes = 0
        self._spilling_bytes = 0
        self._spilled_bytes = 0
        self._counts = {
            "spill_reads": 0,
            "spill_writes": 0,
            "spill_errors": 0,
            "drops": 0,
            "recomputes": 0,
            "undrawn": 0,
        }
        self._dropped: list[Any] = []
        """Values of chunks dropped for their recipe, for the spare pool (``spare.py``)."""
        self._closed = False

    # -- reading and writing ------------------------------------------------------------

    def put(
        self,
        key: Key,
        value: Any,
        nbytes: int | None = None,
        spill: bool = True,
        recompute: Callable[[], Any] | None = None,
    ) -> None:
        """Store ``value`` under ``key`` (replacing any old value, keeping its pins).

        ``nbytes`` is its size when the caller measured it already. ``spill=False`` leaves
        the store over budget rather than write to disk now: a caller holding a lock of
        its own spills later, outside it (``spill_memory``). ``recompute``, a call that
        returns the same value again, lets the store drop it rather than write it.
        """
        entry = Entry(key, value, sizeof(value) if nbytes is None else nbytes)
        entry.recompute = recompute
        with self._lock:
            stale = self._install(entry)
            self._lru[key] = None
            self._memory_bytes += entry.nbytes
            victims = self._choose_victims(keep=None) if spill else []
            overflow = self._memory_bytes > self.cache_bytes and not self._dirs
        if overflow:
            self._warn_overflow()
        remove_file(stale)
        self._spill(victims)

    def put_undrawn(self, key: Key, recompute: Callable[[], Any], nbytes: int) -> None:
        """Keep ``key`` as a chunk never drawn: as one dropped for its recipe, which the
        first ``get`` runs (replacing any old value, keeping its pins). For a chunk that
        would be dropped as soon as it was put: there is no room for it."""
        entry = Entry(key, None, nbytes, state=State.SPILLED, recompute=recompute)
        with self._lock:
            stale = self._install(entry)
            self._spilled_bytes += nbytes
            self._counts["undrawn"] += 1
        remove_file(stale)

    def _install(self, entry: Entry) -> str | None:
        """Under the lock: ``entry`` in place of any old one of its key, whose pins it
        keeps; the old one's spill file, for the caller to remove outside the lock."""
        self._check_open()
        old = self._entries.pop(entry.key, None)
        stale = None
        if old is not None:
            entry.pins = old.pins
            stale = self._forget(old)
        self._entries[entry.key] = entry
        return stale

    def _warn_overflow(self) -> None:
        """Chunks past the cache with nowhere to spill them: say so, once."""
        message = (
            f"chunks in memory passed --cache-mem ({self.cache_bytes} bytes) and there is no "
            "--spill-dir to spill them to: they stay in memory, up to the memory limits"
        )
        with self._lock:
            if message in self.warnings:
                return
            self.warnings.append(message)
        logger.warning("%s", message)

    def get(self, key: Key, spill: bool = True) -> Any:
        """The value of ``key``, read back from disk if it was spilled.

        Raises ``KeyError`` for an unknown key and ``ChunkLostError`` (an ``OSError``) when
        its spill file cannot be read; a dropped chunk whose recipe fails raises what the
        recipe raised. Reading a chunk back makes it the most recently used and may spill
        others (never the one returned; none with ``spill=False``).
        """
        with self._lock:
            self._check_open()
            entry = self._entries[key]
            while entry.state is State.LOADING:
                self._changed.wait()
                if self._entries.get(key) is not entry and entry.held:
                    # released or replaced while another thread read it back for us too:
                    # asked for before that, it is ours (the reader kept the file for it)
                    return entry.value
                entry = self._entries[key]
            if entry.state is not State.SPILLED:
                if entry.state is State.MEMORY:
                    self._lru.move_to_end(key)
                return entry.value
            entry.state = State.LOADING
            path, again = entry.path, entry.recompute
        try:
            if path is not None:
                value = read_value(path)
            else:
                assert again is not None
                value = again()
        except Exception as exc:
            if self._fail_load(entry):
                return self.get(key, spill)  # replaced while read: the new value, then
            if path is None:
                raise
            raise chunk_lost(key, path, exc) from exc
        victims = self._finish_load(entry, value, spill)
        self._spill(victims)
        return value

    def peek(self, key: Key) -> tuple[bool, Any]:
        """``(True, value)`` when ``key`` is in memory (made most recently used), else
        ``(False, None)``: a caller on an event loop reads spilled chunks in a thread."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry.state is not State.MEMORY:
                return False, None
            self._lru.move_to_end(key)
            return True, entry.value

    def in_memory(self, key: Key) -> bool:
        """Whether ``key`` is held in memory now (False for a chunk on disk or unknown)."""
        with self._lock:
            entry = self._entries.get(key)
            return entry is not None and entry.held

    def memory_bytes(self) -> int:
        """Bytes of the chunks held in memory (those being written out included)."""
        with self._lock:
            return self._memory_bytes

    def free_bytes(self) -> int:
        """Bytes of the cache no chunk in memory takes."""
        with self._lock:
            return max(0, self.cache_bytes - self._memory_bytes)

    def has_room(self, nbytes: int) -> bool:
        """Whether ``nbytes`` more stay within the cache, so ``put`` will not spill."""
        with self._lock:
            return self._memory_bytes + nbytes <= self.cache_bytes

    def is_full(self, nbytes: int) -> bool:
        """Whether ``nbytes`` more pass the cache counting every chunk kept, in memory or
        not: a new chunk held in memory would push out another one (or be pushed out
        itself) before the store is ever back within budget."""
        with self._lock:
            return self._memory_bytes + self._spilled_bytes + nbytes > self.cache_bytes

    def spill_memory(self, nbytes: int) -> int:
        """Spill about ``nbytes`` of the least recently used unpinned chunks in memory,
        even within the cache budget: the process itself is short of memory (the worker's
        soft limit). The bytes chosen; without spill directories, only chunks with a
        recipe can go. Blocks on disk."""
        with self._lock:
            if self._closed:
                return 0
            kept = self._memory_bytes - self._spilling_bytes
            victims = self._choose_victims(keep=None, excess=nbytes)
            chosen = kept - (self._memory_bytes - self._spilling_bytes)  # dropped ones too
        self._spill(victims)
        return chosen

    def make_room(self, nbytes: int) -> int:
        """Spill the least recently used unpinned chunks until ``nbytes`` more fit in the
        cache: a task about to run makes room for its result before it computes, so that
        the process holds the cache and that result, not the cache, the result and the
        chunk its ``put`` would spill. The bytes chosen. Blocks on disk."""
        with self._lock:
            if self._closed:
                return 0
            kept = self._memory_bytes - self._spilling_bytes
            excess = kept + nbytes - self.cache_bytes
            victims = self._choose_victims(keep=None, excess=excess) if excess > 0 else []
            chosen = kept - (self._memory_bytes - self._spilling_bytes)  # dropped ones too
        self._spill(victims)
        return chosen

    def demote(self, key: Key) -> None:
        """Make ``key``, if in memory, the first to spill: no task is waiting to read it.
        A pass over held chunks larger than the cache would otherwise push out the chunks
        still to be read (the least recently used) to make room for each chunk it reads
        back, and read back every one of them."""
        with self._lock:
            if key in self._lru:
                self._lru.move_to_end(key, last=False)

    def delete(self, key: Key) -> bool:
        """Drop ``key`` from memory and disk; False if it was not here."""
        with self._lock:
            entry = self._entries.pop(key, None)
            if entry is None:
                return False
            stale = self._forget(entry)
        remove_file(stale)
        return True

    # -- pins ---------------------------------------------------------------------------

    def pin(self, key: Key) -> None:
        """Keep ``key`` in memory until as many ``unpin`` calls; pin *before* ``get``."""
        with self._lock:
            self._entries[key].pins += 1

    def unpin(self, key: Key) -> None:
        """Undo one ``pin``; may spill if the store is over budget.

        A no-op for a key that is gone or holds no pins: ``delete`` drops a chunk's pins
        with it, so a task that pinned a chunk the supervisor then freed (and perhaps had
        recomputed) must be able to unpin without an error.
        """
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry.pins == 0:
                return
            entry.pins -= 1
            victims = self._choose_victims(keep=None) if entry.pins == 0 else []
        self._spill(victims)

    # -- questions ----------------------------------------------------------------------

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._entries

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def keys(self) -> list[Key]:
        """A snapshot of the keys held, in memory or on disk."""
        with self._lock:
            return list(self._entries)

    def nbytes(self, key: Key) -> int:
        """The size of ``key``'s value as measured when it was put."""
        with self._lock:
            return self._entries[key].nbytes

    def can_admit(self, nbytes: int) -> bool:
        """Whether a result of ``nbytes`` fits under ``admit_limit_bytes`` right now.

        Counts the process's resident memory, minus what spilling could still free
        (unpinned chunks in memory, and chunks being written out); without spill
        directories nothing can be freed.
        """
        with self._lock:
            reclaimable = self._reclaimable_bytes()
        # where it would not fit, the memory kept for reuse is given back and measured again
        rss = admission.process_rss(
            trim_above=self.admit_limit_bytes - nbytes + reclaimable, live=True
        )
        return admission.fits(nbytes, rss, self.admit_limit_bytes, reclaimable)

    def reclaimable_bytes(self) -> int:
        """Bytes in memory that spilling could still give back."""
        with self._lock:
            return self._reclaimable_bytes()

    def info(self) -> dict[str, Any]:
        """Figures for the worker's heartbeat and dashboard."""
        with self._lock:
            in_memory = [e for e in self._entries.values() if e.held]
            return {
                "memory_bytes": self._memory_bytes,
                "spilled_bytes": self._spilled_bytes,
                "disk_bytes": self._dirs.total_bytes(),
                "n_memory": len(in_memory),
                "n_spilled": len(self._entries) - len(in_memory),
                "n_pinned": sum(1 for e in self._entries.values() if e.pins),
                "cache_bytes": self.cache_bytes,
                "phy_mem_bytes": self.phy_mem_bytes,
                "overflow_bytes": max(0, self._memory_bytes - self.cache_bytes),
                **self._counts,
                "spare_reused": spare.POOL.reused,
                "warnings": list(self.warnings),
            }

    def validate_state(self) -> None:
        """Check the byte counters and the LRU against the entries (for tests)."""
        with self._lock:
            held = [e for e in self._entries.values() if e.held]
            assert self._memory_bytes == sum(e.nbytes for e in held)
            assert self._spilling_bytes == sum(e.nbytes for e in held if e.state is State.SPILLING)
            assert self._spilled_bytes == sum(
                e.nbytes for e in self._entries.values() if not e.held
            )
            assert set(self._lru) == {
                e.key for e in self._entries.values() if e.state is State.MEMORY
            }
            assert all(e.path is None or os.path.exists(e.path) for e in self._entries.values())
            on_disk = sum(e.nbytes for e in self._entries.values() if e.path is not None)
            assert self._dirs.total_bytes() == on_disk

    # -- lifetime -----------------------------------------------------------------------

    def close(self) -> None:
        """Drop every chunk and remove this store's spill files; idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._entries.clear()
            self._lru.clear()
            self._memory_bytes = self._spilling_bytes = self._spilled_bytes = 0
            self._changed.notify_all()
        self._dirs.remove_all()

    def __enter__(self) -> ChunkStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # -- internals (the ones named _choose/_forget/_reclaimable run under the lock) -----

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("ChunkStore is closed")

    def _forget(self, entry: Entry) -> str | None:
        """Uncount a removed entry; returns its spill file for the caller to unlink."""
        if entry.state is State.MEMORY:
            del self._lru[entry.key]
        if entry.held:
            self._memory_bytes -= entry.nbytes
            if entry.state is State.SPILLING:
                # The writing thread sees the entry gone and drops its own file.
                self._spilling_bytes -= entry.nbytes
            if entry.path is not None:  # a clean copy on disk
                self._dirs.remove(entry.dir_index, entry.nbytes)
            return entry.path
        self._spilled_bytes -= entry.nbytes
        if entry.path is not None:
            self._dirs.remove(entry.dir_index, entry.nbytes)
        if entry.state is State.LOADING:
            # A thread is reading the file back: it removes it once read. Removed now,
            # the read would fail or not by a hair, and the reader, who asked before the
            # release, got a KeyError for it.
            return None
        return entry.path

    def _choose_victims(self, keep: Entry | None, excess: int | None = None) -> list[Entry]:
        """Mark least recently used entries SPILLING until memory is back within budget
        (or, given ``excess``, until that many bytes are marked).

        Chunks with a recipe go first (dropping them writes nothing), then those of
        ``SMALL`` bytes or more: a small one (a reduction's partial result) costs a file
        and a read for almost nothing freed."""
        if excess is None:
            excess = self._memory_bytes - self._spilling_bytes - self.cache_bytes
        if excess <= 0:
            return []
        chosen = []
        for rank in (0, 1, 2):
            for key in self._lru:
                entry = self._entries[key]
                if entry.pins or entry is keep or self._rank(entry) != rank:
                    continue
                chosen.append(entry)
                excess -= entry.nbytes
                if excess <= 0:
                    break
            if excess <= 0:
                break
        victims = []
        for entry in chosen:
            del self._lru[entry.key]
            if entry.path is not None or entry.recompute is not None:
                # its file holds it already, or its recipe makes it again: no write
                if entry.path is None:
                    self._counts["drops"] += 1
                    self._dropped.append(entry.value)
                entry.state, entry.value = State.SPILLED, None
                self._memory_bytes -= entry.nbytes
                self._spilled_bytes += entry.nbytes
                continue
            entry.state = State.SPILLING
            self._spilling_bytes += entry.nbytes
            victims.append(entry)
        return victims

    def _rank(self, entry: Entry) -> int | None:
        """Which pass of ``_choose_victims`` may take ``entry``: 0 dropped (a recipe),
        1 written (large), 2 written (small), None never (nowhere to write it)."""
        if entry.recompute is not None and entry.path is None:
            return 0
        if not self._dirs or entry.unspillable:
            return None
        return 2 if entry.nbytes < SMALL else 1

    def _reclaimable_bytes(self) -> int:
        idle = (self._entries[key] for key in self._lru)
        return self._spilling_bytes + sum(
            e.nbytes for e in idle if not e.pins and self._rank(e) is not None
        )

    def _spill(self, victims: list[Entry]) -> None:
        if self._dropped:  # their memory serves the next chunks drawn
            with self._lock:
                dropped, self._dropped = self._dropped, []
            spare.POOL.offer(dropped)
        for entry in victims:
            self._spill_one(entry)

    def _spill_one(self, entry: Entry) -> None:
        """Write one SPILLING entry, trying each spill directory once."""
        with self._lock:
            if self._entries.get(entry.key) is not entry:
                return
            candidates = self._dirs.candidates(entry.key)
            value = entry.value
        failed: list[int] = []
        error: Exception | None = None
        for index, path in candidates:
            try:
                write_value(path, value)
            except OSError as exc:  # this disk is full or unwritable: try the next one
                remove_file(path)
                logger.warning("could not write spill file %s: %s", path, exc)
                failed.append(index)
                error = exc
            except Exception as exc:  # the value does not pickle: no disk will help
                remove_file(path)
                self._fail_spill(entry, exc, failed, unspillable=True)
                return
            else:
                self._finish_spill(entry, index, path, failed)
                return
        assert error is not None
        self._fail_spill(entry, error, failed, unspillable=False)

    def _finish_spill(self, entry: Entry, index: int, path: str, failed: list[int]) -> None:
        with self._lock:
            for bad in failed:
                self._dirs.record_failure(bad)
            self._counts["spill_writes"] += 1
            if self._entries.get(entry.key) is not entry:
                drop: str | None = path
            else:
                drop = None
                self._spilling_bytes -= entry.nbytes
                self._dirs.add(index, entry.nbytes)
                entry.path, entry.dir_index = path, index
                if entry.pins:
                    # Pinned while being written: a task is using it, so it stays in
                    # memory, and the file is its clean copy for the next spill.
                    entry.state = State.MEMORY
                    self._lru[entry.key] = None
                else:
                    self._memory_bytes -= entry.nbytes
                    self._spilled_bytes += entry.nbytes
                    entry.state, entry.value = State.SPILLED, None
        remove_file(drop)

    def _fail_spill(
        self, entry: Entry, error: Exception, failed: list[int], *, unspillable: bool
    ) -> None:
        logger.warning("could not spill chunk %r, keeping it in memory: %s", entry.key, error)
        with self._lock:
            for bad in failed:
                self._dirs.record_failure(bad)
            self._counts["spill_errors"] += 1
            if self._entries.get(entry.key) is not entry:
                return
            self._spilling_bytes -= entry.nbytes
            entry.state = State.MEMORY
            entry.unspillable = unspillable
            self._lru[entry.key] = None
            self._lru.move_to_end(entry.key, last=False)  # still the least recently used

    def _finish_load(self, entry: Entry, value: Any, spill: bool) -> list[Entry]:
        with self._lock:
            self._changed.notify_all()
            if self._entries.get(entry.key) is not entry:
                # deleted or replaced while we read: the value goes to the readers waiting
                # for it, and the file, left for this read and uncounted since, goes
                entry.state, entry.value = State.MEMORY, value
                drop, entry.path = entry.path, None
                victims: list[Entry] = []
            else:
                drop = None
                self._counts["spill_reads" if entry.path is not None else "recomputes"] += 1
                self._spilled_bytes -= entry.nbytes
                self._memory_bytes += entry.nbytes
                # the file stays, a clean copy: spilling this chunk again writes nothing
                entry.state, entry.value = State.MEMORY, value
                self._lru[entry.key] = None
                victims = self._choose_victims(keep=entry) if spill else []
        remove_file(drop)
        return victims

    def _fail_load(self, entry: Entry) -> bool:
        """After a failed read: True when the entry was replaced meanwhile (the new value
        is the one to read), False when it is lost (or deleted meanwhile)."""
        with self._lock:
            self._changed.notify_all()
            current = self._entries.get(entry.key)
            entry.state = State.SPILLED  # the next get tries again and fails the same way
            drop = None
            if current is not entry:
                drop, entry.path = entry.path, None  # it was left for this read
        remove_file(drop)
        return current is not None and current is not entry
