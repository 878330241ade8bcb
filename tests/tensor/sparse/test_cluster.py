"""Sparse tensors computed by a cluster of real worker processes: CSR chunks travel
between processes and the fetched result is one CSR matrix."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sps

import jupyter_mars.tensor as mt
from tests.cluster.processes import cli_cluster, remote_session
from tests.tensor.sparse.helpers import sample


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with cli_cluster(2, "--n-cpu", "1") as c:
        yield c


@pytest.fixture
def remote(cluster: Any, session: Any) -> Iterator[Any]:
    with remote_session(cluster, session) as remote:
        yield remote


def test_sparse_results_on_worker_processes(remote: Any) -> None:
    a, b = sample((9, 8)), sample((8, 7), seed=1)
    x, y = mt.tensor(a, chunk_size=3), mt.tensor(b, chunk_size=(4, 3))
    product = (x * 2) @ y
    got = product.execute(session=remote).fetch(session=remote)
    assert isinstance(got, sps.csr_matrix)
    np.testing.assert_allclose(got.toarray(), (a * 2 @ b).toarray())
    total = x.sum(axis=0).execute(session=remote).fetch(session=remote)
    np.testing.assert_allclose(total, a.toarray().sum(axis=0))
