"""``mt.fft`` against ``numpy.fft``: transforms, frequencies and shifts."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on

RNG = np.random.default_rng(3)
REAL = RNG.normal(size=(6, 8, 5))
COMPLEX = REAL + 1j * RNG.normal(size=REAL.shape)
ONE_DIM = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
N_DIM = ["fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn", "irfftn"]


def _input(name: str) -> np.ndarray:
    """Real input for the transforms that take real data, complex otherwise."""
    return REAL if name.startswith(("rfft", "ihfft")) else COMPLEX


def _nsplits(session: Any, t: mt.Tensor) -> tuple[tuple[float, ...], ...]:
    nsplits: tuple[tuple[float, ...], ...] = session.engine.executed[t.key].nsplits
    return nsplits


@pytest.mark.parametrize("name", ONE_DIM)
def test_one_dim_transforms_match_numpy(name: str, xp: Any) -> None:
    a = _input(name)
    ours, theirs = getattr(mt.fft, name), getattr(np.fft, name)
    cases: list[dict[str, Any]] = [
        {},
        {"axis": 0},
        {"n": 7},
        {"n": 3, "axis": 1, "norm": "ortho"},
        {"norm": "forward", "axis": -2},
        {"norm": "backward", "n": 12},
    ]
    for chunks in chunkings(a.shape):
        x = on(xp, mt.tensor(a, chunk_size=chunks))
        for kwargs in cases:
            assert_same(ours(x, **kwargs), theirs(a, **kwargs), atol=1e-12)


@pytest.mark.parametrize("name", N_DIM)
def test_n_dim_transforms_match_numpy(name: str, xp: Any) -> None:
    a = _input(name)
    ours, theirs = getattr(mt.fft, name), getattr(np.fft, name)
    cases: list[dict[str, Any]] = [
        {},
        {"axes": (0, 2)},
        {"axes": (2, 0)},
        {"s": (4, 6), "axes": (1, 0)},
        {"norm": "ortho", "axes": (-1, -2)},
    ]
    if name.endswith("n"):
        cases += [{"axes": (1,)}, {"s": (3, 9, 4), "axes": (0, 1, 2)}]
    for chunks in chunkings(a.shape):
        x = on(xp, mt.tensor(a, chunk_size=chunks))
        for kwargs in cases:
            assert_same(ours(x, **kwargs), theirs(a, **kwargs), atol=1e-12)


@pytest.mark.parametrize(
    ("dtype", "name"),
    [
        (np.float32, "fft"),
        (np.float32, "rfft"),
        (np.complex64, "irfft"),
        (np.int16, "fft"),
        (np.float64, "ifft"),
        (np.complex64, "fftn"),
    ],
)
def test_transform_dtypes_follow_numpy(dtype: Any, name: str, xp: Any) -> None:
    a = (REAL[0] * 10).astype(dtype)
    result = getattr(mt.fft, name)(on(xp, mt.tensor(a, chunk_size=3)))
    expected = getattr(np.fft, name)(a)
    assert result.dtype == expected.dtype
    assert_same(result, expected, rtol=1e-4, atol=1e-4)


def test_transformed_axis_is_one_chunk_others_keep_theirs(session: Any) -> None:
    x = mt.tensor(REAL, chunk_size=(2, 3, 2))
    result = mt.fft.rfft(x, axis=1).execute()
    assert _nsplits(session, result) == ((2, 2, 2), (5,), (2, 2, 1))
    both = mt.fft.fft2(x, s=(4, 3)).execute()
    assert _nsplits(session, both) == ((2, 2, 2), (4,), (3,))


@given(
    st.lists(st.integers(1, 6), min_size=1, max_size=3).flatmap(
        lambda shape: st.tuples(
            st.just(tuple(shape)),
            st.tuples(*(st.integers(1, n) for n in shape)),
            st.integers(-len(shape), len(shape) - 1),
            st.one_of(st.none(), st.integers(1, 8)),
        )
    )
)
def test_fft_and_rfft_hypothesis(case: tuple[tuple[int, ...], tuple[int, ...], int, Any]) -> None:
    shape, chunks, axis, n = case
    a = RNG.normal(size=shape)
    x = mt.tensor(a, chunk_size=chunks)
    assert_same(mt.fft.fft(x, n=n, axis=axis), np.fft.fft(a, n=n, axis=axis), atol=1e-12)
    assert_same(mt.fft.rfft(x, n=n, axis=axis), np.fft.rfft(a, n=n, axis=axis), atol=1e-12)


def test_fft_round_trip() -> None:
    x = mt.tensor(REAL, chunk_size=3)
    back = mt.fft.irfftn(mt.fft.rfftn(x), s=REAL.shape, axes=(0, 1, 2))
    assert_same(back, REAL, atol=1e-12)


def test_numpy_fft_functions_dispatch_to_tensors() -> None:
    x = mt.tensor(REAL, chunk_size=3)
    result = np.fft.fft(x)
    assert isinstance(result, mt.Tensor)
    assert_same(result, np.fft.fft(REAL))


def test_fftn_deprecated_forms_warn_like_numpy() -> None:
    x = mt.tensor(REAL, chunk_size=3)
    with pytest.warns(DeprecationWarning, match="axes"):
        result = mt.fft.fftn(x, s=(4, 4))
    with pytest.warns(DeprecationWarning, match="axes"):
        expected = np.fft.fftn(REAL, s=(4, 4))
    assert_same(result, expected)
    with pytest.warns(DeprecationWarning, match="None"):
        result = mt.fft.fftn(x, s=(None, 3), axes=(0, 1))  # type: ignore[arg-type]
    with pytest.warns(DeprecationWarning, match="None"):
        expected = np.fft.fftn(REAL, s=(None, 3), axes=(0, 1))  # type: ignore[arg-type]
    assert_same(result, expected)


# ---- frequencies ----------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 7, 10])
@pytest.mark.parametrize("d", [1.0, 0.25, 3])
def test_frequencies_equal_numpy_exactly(n: int, d: float) -> None:
    for chunk_size in (1, 3, None):
        result = mt.fft.fftfreq(n, d, chunk_size=chunk_size).execute().fetch()
        np.testing.assert_array_equal(result, np.fft.fftfreq(n, d))
        assert result.dtype == np.float64
        result = mt.fft.rfftfreq(n, d, chunk_size=chunk_size).execute().fetch()
        np.testing.assert_array_equal(result, np.fft.rfftfreq(n, d))


def test_frequencies_bad_n() -> None:
    with pytest.raises(ValueError, match="n"):
        mt.fft.fftfreq(0)
    with pytest.raises(ValueError, match="integer"):
        mt.fft.rfftfreq(2.5)  # type: ignore[arg-type]


# ---- shifts --------------------------------------------------------------------------------


@pytest.mark.parametrize("axes", [None, 0, 1, -1, (0, 2), (1, 1), [2, 0]])
def test_shifts_match_numpy(axes: Any, xp: Any) -> None:
    for chunks in chunkings(REAL.shape):
        x = on(xp, mt.tensor(REAL, chunk_size=chunks))
        assert_same(mt.fft.fftshift(x, axes=axes), np.fft.fftshift(REAL, axes=axes))
        assert_same(mt.fft.ifftshift(x, axes=axes), np.fft.ifftshift(REAL, axes=axes))


def test_shift_of_frequencies_round_trips() -> None:
    freqs = mt.fft.fftfreq(9, chunk_size=2)
    shifted = mt.fft.fftshift(freqs)
    assert_same(shifted, np.fft.fftshift(np.fft.fftfreq(9)))
    assert_same(mt.fft.ifftshift(shifted), np.fft.fftfreq(9))


# ---- bad input ------------------------------------------------------------------------------


def test_transform_bad_arguments_raise_at_call() -> None:
    x = mt.tensor(REAL, chunk_size=3)
    with pytest.raises(np.exceptions.AxisError):
        mt.fft.fft(x, axis=3)
    with pytest.raises(np.exceptions.AxisError):
        mt.fft.fftn(x, axes=(0, -4))
    with pytest.raises(np.exceptions.AxisError):
        mt.fft.fftshift(x, axes=5)
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        mt.fft.fft(x, n=0)
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        mt.fft.irfft(mt.tensor(np.ones(1)))
    with pytest.raises(ValueError, match="norm"):
        mt.fft.fft(x, norm="sideways")
    with pytest.raises(ValueError, match="Shape and axes have different lengths"):
        mt.fft.fftn(x, s=(2, 2), axes=(0,))
    with pytest.raises(TypeError):
        mt.fft.rfft(mt.tensor(COMPLEX, chunk_size=3))
    with pytest.raises(TypeError, match="n must be an int"):
        mt.fft.fft(x, n=2.0)  # type: ignore[arg-type]
