"""How much device memory a worker's GPU chunks may take (``--gpu-mem``)."""

from __future__ import annotations

import pytest

from jupyter_mars.cluster.worker.server import GPU_MEM_SHARE, device_memory, gpu_store_limit
from tests.conftest import needs_gpu


def test_without_a_device_there_is_no_gpu_store_limit():
    assert gpu_store_limit([], None) is None
    assert gpu_store_limit([], 8 << 30) is None


def test_gpu_mem_in_bytes_is_for_each_device():
    assert gpu_store_limit([0, 1], 8 << 30) == 16 << 30


@needs_gpu
@pytest.mark.parametrize("share", [None, 0.5])
def test_a_share_of_gpu_mem_is_of_each_device_s_memory(share):
    expected = int((GPU_MEM_SHARE if share is None else share) * device_memory(0))
    assert gpu_store_limit([0], share) == expected
