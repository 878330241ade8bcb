"""The rest of Mars's ``mt.random``: hypergeometric and the noncentral distributions,
``random_integers``, ``bytes``, ``RandomStateField``, and the keywords every function takes."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.tensor.random import distributions
from tests.conftest import chunkings
from tests.tensor.random.helpers import N, expected_chunks, fetch, seed_of


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("hypergeometric", (20, 30, 10)),
        ("noncentral_chisquare", (3.0, 2.0)),
        ("noncentral_f", (5.0, 20.0, 2.0)),
    ],
)
def test_new_distributions_match_numpy_statistics(name: str, args: tuple[Any, ...]) -> None:
    expected = getattr(np.random.RandomState(0), name)(*args, size=N)
    t = getattr(mt.random, name)(*args, size=N, chunk_size=N // 4)
    got = fetch(t)
    assert got.shape == (N,)
    assert t.dtype == got.dtype == expected.dtype
    assert abs(got.mean() - expected.mean()) < 0.05 * expected.std()
    assert abs(got.std() - expected.std()) < 0.05 * expected.std()


@pytest.mark.parametrize("chunk_size", chunkings((4, 5)))
def test_new_distributions_follow_the_chunk_streams(chunk_size: Any) -> None:
    t = mt.random.noncentral_chisquare(3.0, 2.0, size=(4, 5), chunk_size=chunk_size)
    expected = expected_chunks(seed_of(t), "noncentral_chisquare", (4, 5), chunk_size, 3.0, 2.0)
    np.testing.assert_array_equal(fetch(t), expected)


def test_new_distributions_raise_numpy_errors_at_the_call() -> None:
    with pytest.raises(ValueError, match="ngood \\+ nbad < nsample"):
        mt.random.hypergeometric(5, 5, 11)
    with pytest.raises(ValueError, match="nonc < 0"):
        mt.random.noncentral_f(1, 1, -1)
    with pytest.raises(ValueError, match="df <= 0"):
        mt.random.noncentral_chisquare(0, 1)
    with pytest.raises(TypeError, match="required"):
        mt.random.noncentral_f(1, 1)


def test_random_integers_warns_like_numpy_and_includes_high() -> None:
    with pytest.warns(DeprecationWarning, match="deprecated") as numpy_record:
        np.random.random_integers(5, size=3)
    with pytest.warns(DeprecationWarning, match="deprecated") as record:
        t = mt.random.random_integers(5, size=2000, chunk_size=500)
    assert str(record[0].message) == str(numpy_record[0].message)
    assert record[0].filename == __file__
    got = fetch(t)
    assert got.dtype == t.dtype == np.random.randint(2, size=1).dtype
    assert set(np.unique(got)) == {1, 2, 3, 4, 5}
    with pytest.warns(DeprecationWarning, match=r"randint\(-2, 2 \+ 1\)"):
        t = mt.random.RandomState(0).random_integers(-2, 2, size=(30, 40), chunk_size=7)
    got = fetch(t)
    assert got.shape == (30, 40)
    assert got.min() == -2
    assert got.max() == 2


def test_bytes_are_drawn_at_once_from_the_seed() -> None:
    mt.random.seed(5)
    a = mt.random.bytes(10)
    mt.random.seed(5)
    assert isinstance(a, bytes)
    assert len(a) == 10
    assert mt.random.bytes(10) == a
    assert mt.random.RandomState(1).bytes(3) == mt.random.RandomState(1).bytes(3)


def test_random_state_field_is_the_seed_an_operator_holds() -> None:
    t = mt.random.rand(3)
    assert mt.random.RandomStateField(7) == 7
    assert distributions.RandomChunks.__dataclass_fields__["seed"].type == "RandomStateField"
    assert isinstance(seed_of(t), int)


# every sampling function of NumPy's RandomState, with arguments that make it draw
ARGS: dict[str, tuple[Any, ...]] = {
    "beta": (2, 3),
    "binomial": (5, 0.5),
    "chisquare": (2,),
    "choice": (5,),
    "dirichlet": ([1, 2],),
    "exponential": (),
    "f": (2, 3),
    "gamma": (2,),
    "geometric": (0.5,),
    "gumbel": (),
    "hypergeometric": (5, 5, 3),
    "laplace": (),
    "logistic": (),
    "lognormal": (),
    "logseries": (0.5,),
    "multinomial": (5, [0.5, 0.5]),
    "multivariate_normal": ([0, 0], np.eye(2)),
    "negative_binomial": (5, 0.5),
    "noncentral_chisquare": (2, 1),
    "noncentral_f": (2, 3, 1),
    "normal": (),
    "pareto": (3,),
    "poisson": (),
    "power": (2,),
    "randint": (5,),
    "random": (),
    "random_sample": (),
    "ranf": (),
    "rayleigh": (),
    "sample": (),
    "standard_cauchy": (),
    "standard_exponential": (),
    "standard_gamma": (2,),
    "standard_normal": (),
    "standard_t": (3,),
    "triangular": (0, 1, 3),
    "uniform": (),
    "vonmises": (0, 1),
    "wald": (1, 2),
    "weibull": (2,),
    "zipf": (2,),
}


def test_every_sampling_function_is_listed_here() -> None:
    others = {"RandomState", "RandomStateField", "bytes", "get_state", "set_state", "seed"}
    others |= {"permutation", "shuffle", "rand", "randn", "random_integers"}
    assert set(mt.random.__all__) - others == set(ARGS)


@pytest.mark.parametrize("name", sorted(ARGS))
def test_size_chunk_size_and_dtype_on_module_and_state(name: str) -> None:
    args = ARGS[name]
    # NumPy 2's RandomState dropped the aliases ranf and sample of random_sample
    numpy_name = "random_sample" if name in ("ranf", "sample") else name
    expected = getattr(np.random.RandomState(0), numpy_name)(*args, size=(4, 3))
    takes_dtype = "dtype" in inspect.signature(getattr(mt.random.RandomState, name)).parameters
    for source in (mt.random, mt.random.RandomState(3)):
        t = getattr(source, name)(*args, size=(4, 3), chunk_size=2)
        got = fetch(t)
        assert got.shape == expected.shape, name
        assert t.dtype == got.dtype == expected.dtype, name
        if takes_dtype:
            dt = np.float32 if expected.dtype.kind == "f" else np.int32
            assert fetch(getattr(source, name)(*args, size=2, dtype=dt)).dtype == dt, name
    # reproducible: the same seed and chunks give the same numbers
    a = fetch(getattr(mt.random.RandomState(9), name)(*args, size=(4, 3), chunk_size=2))
    b = fetch(getattr(mt.random.RandomState(9), name)(*args, size=(4, 3), chunk_size=2))
    np.testing.assert_array_equal(a, b)
