"""``session.run``: execute and fetch in one call, as Mars's ``Session.run`` did, on the
embedded session (a cluster's session runs the same code: ``tests/launcher/test_handle.py``
runs it on a local cluster, from another process too)."""

from __future__ import annotations

import time

import numpy as np
import pytest

import jupyter_mars as mars
import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.session import PendingRun


def sleepy(block: np.ndarray, seconds: float) -> np.ndarray:
    time.sleep(seconds)
    return block


def test_one_tensor_gives_its_data_several_a_list(session: mars.Session) -> None:
    t = mt.tensor(np.arange(12).reshape(3, 4), chunk_size=2)
    np.testing.assert_array_equal(session.run(t), np.arange(12).reshape(3, 4))
    total, doubled = session.run(t.sum(), t * 2)
    assert total == 66
    assert isinstance(total, int)  # a 0-d result is a Python scalar, as in Mars
    np.testing.assert_array_equal(doubled, np.arange(12).reshape(3, 4) * 2)
    (alone,) = session.run([t.max()])  # one list in: a list out
    assert alone == 11
    frame = md.DataFrame({"a": [1, 2, 3]}, chunk_size=2)
    assert session.run(frame + 1)["a"].tolist() == [2, 3, 4]
    assert session.is_executed(t)  # its result is kept, as after execute()


def test_wait_false_returns_a_pending_run_with_the_same_data(session: mars.Session) -> None:
    t = mt.random.rand(100, 100)
    pending = session.run(t.sum(), t.shape[0] * mt.ones(2), wait=False)
    assert isinstance(pending, PendingRun)
    total, twos = pending.result(timeout=60)
    assert pending.done()
    np.testing.assert_allclose(total, session.run(t).sum())
    np.testing.assert_array_equal(twos, [100, 100])


def test_a_timeout_cancels_the_execution(session: mars.Session) -> None:
    slow = mt.elemwise(sleepy, mt.tensor(np.arange(40), chunk_size=1), 0.2, dtype=np.int64)
    with pytest.raises(TimeoutError, match=r"did not finish within 0.3 s; it was cancelled"):
        session.run(slow, timeout=0.3)
    np.testing.assert_array_equal(session.run(mt.arange(3) + 1), [1, 2, 3])


def test_bad_arguments_name_themselves(session: mars.Session) -> None:
    t = mt.arange(3)
    with pytest.raises(ValueError, match="timeout must be a positive number of seconds"):
        session.run(t, timeout=0)
    with pytest.raises(TypeError, match="wait must be True or False"):
        session.run(t, wait="no")
    with pytest.raises(ValueError, match="run\\(\\) needs at least one tensor"):
        session.run()
    with pytest.raises(TypeError, match="execute\\(\\) takes tensors and DataFrames, got int"):
        session.run(3)
    with pytest.raises(TypeError, match="unexpected keyword arguments \\['fetch'\\]"):
        session.run(t, fetch=False)
