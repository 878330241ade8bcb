"""Sizes: bytes, binary units, percentages and fractions of a total, and back to text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jupyter_mars.deploy import format_size, parse_size
from jupyter_mars.engine.sizes import parse_worker_memory

KIB, MIB, GIB, TIB = 1024, 1024**2, 1024**3, 1024**4


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1048576", 1048576),
        (1048576, 1048576),
        ("0", 0),
        ("512k", 512 * KIB),
        ("512K", 512 * KIB),
        ("512kb", 512 * KIB),
        ("512KiB", 512 * KIB),
        ("128m", 128 * MIB),
        ("128 MB", 128 * MIB),
        ("8g", 8 * GIB),
        ("1.5GiB", 3 * GIB // 2),
        ("2t", 2 * TIB),
        ("1p", 1024 * TIB),
        ("100b", 100),
        ("100B", 100),
        (" 64m ", 64 * MIB),
        (".5k", 512),
        (2.0 * GIB, 2 * GIB),
        ("10Gi", 10 * GIB),
        ("512Mi", 512 * MIB),
        ("1Ei", 1024 * 1024 * TIB),
    ],
)
def test_parse_size_reads_bytes_and_binary_units(text, expected):
    assert parse_size(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("80%", 800),
        ("100%", 1000),
        ("12.5%", 125),
        ("0%", 0),
        (0.25, 250),
        (1.0, 1000),
        ("0.8", 800),
    ],
)
def test_parse_size_reads_shares_of_the_total(text, expected):
    assert parse_size(text, total=1000) == expected


def test_an_integer_is_bytes_even_when_small():
    """Only a decimal number in (0, 1] is a fraction: ``1`` is one byte, ``1.0`` is all."""
    assert parse_size(1, total=1000) == 1
    assert parse_size("1", total=1000) == 1
    assert parse_size("1.0", total=1000) == 1000


@pytest.mark.parametrize("text", ["80%", 0.5, "0.5"])
def test_a_share_without_a_total_is_an_error(text):
    with pytest.raises(ValueError, match="share of a total"):
        parse_size(text)


@pytest.mark.parametrize(
    "text", ["", "abc", "8 gigs", "-1", -1, "1.5.5g", "8x", "kb", "1ib", "%", float("nan"), True]
)
def test_parse_size_rejects_what_is_not_a_size(text):
    with pytest.raises(ValueError, match="expected a size such as"):
        parse_size(text, total=1000)


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (0, "0B"),
        (1023, "1023B"),
        (1024, "1KiB"),
        (1536, "1.5KiB"),
        (8 * GIB, "8GiB"),
        (MIB - 1, "1MiB"),
        (3 * TIB, "3TiB"),
        (2048 * TIB, "2PiB"),
        (2048 * 1024 * TIB, "2EiB"),
    ],
)
def test_format_size_uses_the_largest_unit(n, text):
    assert format_size(n) == text


def test_format_size_rejects_negative_sizes():
    with pytest.raises(ValueError, match="negative"):
        format_size(-1)


@given(st.integers(min_value=0, max_value=2**62))
def test_format_then_parse_round_trips_within_rounding(n):
    back = parse_size(format_size(n))
    assert abs(back - n) <= n * 0.005 + 1


@given(
    st.integers(min_value=0, max_value=10**6),
    st.sampled_from(["", "k", "m", "g", "t"]),
    st.sampled_from(["", "b", "i", "ib"]),
    st.booleans(),
)
def test_every_unit_spelling_means_the_same(number, unit, suffix, upper):
    if suffix in ("i", "ib") and not unit:
        suffix = ""
    text = f"{number}{unit}{suffix}"
    text = text.upper() if upper else text
    assert parse_size(text) == number * 1024 ** ["", "k", "m", "g", "t"].index(unit)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (16, 16 * GIB),
        ("16", 16 * GIB),
        (0.5, GIB // 2),
        ("512MiB", 512 * MIB),
        ("10Gi", 10 * GIB),
        ("8g", 8 * GIB),
        (4 * GIB, 4 * GIB),  # Mars's Kubernetes launcher takes bytes
    ],
)
def test_a_worker_memory_without_a_unit_is_gib(value, expected):
    assert parse_worker_memory(value) == expected


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (0, "must be positive"),
        (-2, "must be positive"),
        ("100k", "at least 1MiB"),
        ("lots", "expected a size such as"),
        ("80%", "share of a total"),
        (True, "GiB as a number"),
    ],
)
def test_a_worker_memory_names_the_argument_when_wrong(value, message):
    with pytest.raises(ValueError, match=message) as caught:
        parse_worker_memory(value, "memory")
    assert str(caught.value).startswith("memory")
