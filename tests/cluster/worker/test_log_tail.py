"""LogTail: the last lines of the log, one line per record, never a traceback."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from jupyter_mars.cluster.worker.log_tail import MAX_LINE_CHARS, LogTail


@pytest.fixture
def logged() -> Iterator[tuple[logging.Logger, LogTail]]:
    """A logger of its own (not propagating) with a tail attached at INFO."""
    logger = logging.getLogger("tests.log_tail")
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    tail = LogTail(capacity=5, level=logging.INFO)
    logger.addHandler(tail)
    try:
        yield logger, tail
    finally:
        logger.removeHandler(tail)
        logger.propagate = True
        logger.setLevel(logging.NOTSET)


def test_records_are_kept_as_formatted_lines(logged):
    logger, tail = logged
    logger.info("chunk %s stored", "a")
    logger.warning("disk nearly full")
    lines = tail.lines(10)
    assert len(lines) == 2
    assert lines[0].endswith(" INFO tests.log_tail: chunk a stored")
    assert lines[1].endswith(" WARNING tests.log_tail: disk nearly full")


def test_records_below_the_handlers_level_are_not_kept(logged):
    logger, tail = logged
    logger.debug("noise")
    assert tail.lines(10) == []


def test_only_the_last_capacity_lines_are_kept_and_n_counts_from_the_end(logged):
    logger, tail = logged
    for i in range(8):
        logger.info("line %d", i)
    assert [line.rsplit(" ", 1)[1] for line in tail.lines(10)] == ["3", "4", "5", "6", "7"]
    assert [line.rsplit(" ", 1)[1] for line in tail.lines(2)] == ["6", "7"]
    assert tail.lines(0) == []
    assert tail.lines(-3) == []


def test_an_exceptions_traceback_is_not_kept(logged):
    logger, tail = logged
    try:
        raise RuntimeError("secret path /home/me/job.py")
    except RuntimeError:
        logger.exception("task failed")
    logger.info("with stack", stack_info=True)
    lines = tail.lines(10)
    assert len(lines) == 2
    assert lines[0].endswith("task failed")
    assert lines[1].endswith("with stack")
    assert not any("Traceback" in line or "RuntimeError" in line for line in lines)
    assert not any("Stack (most recent call last)" in line for line in lines)


def test_a_multiline_message_keeps_its_first_line(logged):
    logger, tail = logged
    logger.info("first\nTraceback (most recent call last):\n  File 'x.py'")
    (line,) = tail.lines(1)
    assert line.endswith("first…")
    assert "Traceback" not in line


def test_a_long_line_is_cut_with_an_ellipsis(logged):
    logger, tail = logged
    logger.info("x" * 5000)
    (line,) = tail.lines(1)
    assert len(line) == MAX_LINE_CHARS
    assert line.endswith("x…")


def test_attaching_a_tail_leaves_the_loggers_level_alone():
    root = logging.getLogger()
    before = root.level
    tail = LogTail(level=logging.INFO)
    root.addHandler(tail)
    try:
        assert root.level == before
    finally:
        root.removeHandler(tail)
