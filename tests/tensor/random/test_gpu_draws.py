"""Random tensors drawn on a GPU (``gpu=True``): CuPy's generators on the per-chunk seed
streams. Their numbers are not NumPy's, so the checks are shape, dtype, range, the
distribution's mean, and reproducibility. Skipped, with the reason, where no GPU can be
used."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.engine.devices import GPU
from tests.conftest import needs_gpu
from tests.tensor.random.test_completeness import ARGS

pytestmark = needs_gpu

DRAWN_ON_GPU = sorted(set(ARGS) - {"choice", "multinomial"})


def _on_gpu(t: Any) -> Any:
    import cupy

    assert t.node.device == GPU
    value = t.execute().fetch()
    assert isinstance(value, cupy.ndarray), type(value)
    return value.get()


@pytest.mark.parametrize("name", DRAWN_ON_GPU)
def test_every_distribution_cupy_has_draws_on_the_gpu_reproducibly(name: str) -> None:
    args = ARGS[name]
    numpy_name = "random_sample" if name in ("ranf", "sample") else name
    expected = getattr(np.random.RandomState(0), numpy_name)(*args, size=(6, 5))
    a = _on_gpu(getattr(mt.random.RandomState(4), name)(*args, size=(6, 5), chunk_size=3, gpu=True))
    b = _on_gpu(getattr(mt.random.RandomState(4), name)(*args, size=(6, 5), chunk_size=3, gpu=True))
    assert a.shape == expected.shape
    assert a.dtype == expected.dtype
    np.testing.assert_array_equal(a, b)  # the same seed and chunks: the same numbers
    c = _on_gpu(getattr(mt.random.RandomState(5), name)(*args, size=(6, 5), chunk_size=3, gpu=True))
    assert not np.array_equal(a, c) or np.unique(expected).size == 1


def test_uniform_draws_fill_their_range_with_the_right_mean() -> None:
    got = _on_gpu(
        mt.random.RandomState(1).uniform(-2, 3, size=200_000, chunk_size=50_000, gpu=True)
    )
    assert got.min() >= -2
    assert got.max() < 3
    assert abs(got.mean() - 0.5) < 0.05
    ints = _on_gpu(mt.random.randint(3, 9, size=10_000, chunk_size=3000, gpu=True))
    assert set(np.unique(ints)) == set(range(3, 9))
    f32 = _on_gpu(mt.random.rand(100, 10, chunk_size=30, dtype=np.float32, gpu=True))
    assert f32.dtype == np.float32
    assert f32.min() >= 0
    assert f32.max() < 1


def test_chunks_draw_independent_streams() -> None:
    got = _on_gpu(mt.random.RandomState(2).rand(4, 1000, chunk_size=(1, 1000), gpu=True))
    assert len({row.tobytes() for row in got}) == 4


def test_a_tensor_parameter_on_the_gpu_draws_there() -> None:
    scale = mt.tensor(np.array([1.0, 10.0, 100.0]), gpu=True)
    got = _on_gpu(mt.random.RandomState(3).normal(0, scale, size=(20_000, 3), chunk_size=5000))
    np.testing.assert_allclose(got.std(axis=0), [1.0, 10.0, 100.0], rtol=0.05)


def test_a_distribution_cupy_lacks_is_refused_by_name() -> None:
    with pytest.raises(NotImplementedError, match=r"multinomial\(gpu=True\): CuPy has no"):
        mt.random.multinomial(5, [0.5, 0.5], size=3, gpu=True)
    with pytest.raises(NotImplementedError, match=r"choice\(gpu=True\)"):
        mt.random.choice(5, size=3, gpu=True)


def test_permutation_and_choice_of_a_gpu_tensor_stay_on_the_gpu() -> None:
    data = np.arange(40.0).reshape(20, 2)
    x = mt.tensor(data, chunk_size=(6, 2), gpu=True)
    permuted = _on_gpu(mt.random.RandomState(0).permutation(x))
    np.testing.assert_array_equal(np.sort(permuted, axis=0), data)
    population = mt.tensor(np.arange(100, 120), chunk_size=7, gpu=True)
    for replace in (True, False):
        picked = _on_gpu(
            mt.random.RandomState(1).choice(population, size=10, replace=replace, chunk_size=4)
        )
        assert set(picked.tolist()) <= set(range(100, 120))
        if not replace:
            assert len(set(picked.tolist())) == 10
