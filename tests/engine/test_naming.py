"""Executions are named after what they compute, where nobody named them."""

from __future__ import annotations

import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.engine.naming import MAX_NAME, checked_name, describe, shorten


def test_a_result_is_named_by_its_operator_and_its_input() -> None:
    a = mt.ones((4, 4), chunk_size=2)
    assert describe([(a @ a).sum().node]) == "sum(matmul)"
    assert describe([(a + 1).sum().node, a.max().node]) == "sum(add), max(ones)"
    assert describe([a.node]) == "ones"
    assert describe([]) == "execution"


def test_names_fit_a_line() -> None:
    a = mt.ones(3)
    funcs = (mt.sin, mt.cos, mt.tan, mt.exp, mt.log, mt.sqrt, mt.abs, mt.floor, mt.ceil)
    assert len(describe([f(a).node for f in funcs])) == MAX_NAME
    assert shorten("x" * 100).endswith("…")
    assert shorten("short") == "short"


def test_a_given_name_must_be_a_string() -> None:
    assert checked_name(None) is None
    assert checked_name("totals") == "totals"
    with pytest.raises(TypeError, match="name must be a str"):
        checked_name(3)


def test_futures_carry_the_name(session: object) -> None:
    a = mt.ones((4, 4), chunk_size=2)
    assert (a @ a).sum().execute(wait=False).name == "sum(matmul)"
    assert (a @ a).sum().execute(wait=False, name="totals").name == "totals"
    with pytest.raises(TypeError, match="name must be a str"):
        a.execute(name=5)
