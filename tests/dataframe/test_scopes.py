"""Names an expression reads are taken from the innermost scope that has them."""

from __future__ import annotations

from jupyter_mars.dataframe.scopes import first_found


def test_the_first_scope_that_has_a_name_wins_and_unknown_names_are_left_out() -> None:
    inner, outer = {"a": 1}, {"a": 2, "b": 3}
    assert first_found(["a", "b", "c"], [inner, outer]) == {"a": 1, "b": 3}
    assert first_found([], [inner]) == {}
    assert first_found(["a"], iter([outer, inner])) == {"a": 2}
