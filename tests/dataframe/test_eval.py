import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, labelled_frame, lazy_copy


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_eval_of_lazy_frames_matches_pandas(chunk_size):
    p = labelled_frame()
    d = lazy_copy(p, chunk_size)
    k = 2.5  # noqa: F841 - read by the expressions
    got = md.eval("d.a + d.b * k")
    assert isinstance(got, md.Series)
    pd.testing.assert_series_equal(got.to_pandas(), pd.eval("p.a + p.b * k"))
    pd.testing.assert_frame_equal(
        md.eval("d[['a', 'b']] * 2 - 1").to_pandas(), pd.eval("p[['a', 'b']] * 2 - 1")
    )
    s, ps = d["a"], p["a"]  # noqa: F841
    pd.testing.assert_series_equal(
        md.eval("s > 1 and d.b < 0.8").to_pandas(), pd.eval("ps > 1 and p.b < 0.8")
    )


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_eval_assignment_into_a_target(chunk_size):
    p = labelled_frame()
    d = lazy_copy(p, chunk_size)
    got = md.eval("c2 = d.a + 1", target=d)
    pd.testing.assert_frame_equal(got.to_pandas(), pd.eval("c2 = p.a + 1", target=p))
    assert list(d.columns) == list(p.columns)  # a copy
    with pytest.warns(pd.errors.Pandas4Warning, match="inplace"):
        assert md.eval("c2 = d.a * 3", target=d, inplace=True) is None
    pd.testing.assert_frame_equal(d.to_pandas(), p.assign(c2=p.a * 3))


def test_eval_scopes_and_constants():
    d = md.DataFrame(pd.DataFrame({"a": [1, 2, 3]}), chunk_size=2)
    pd.testing.assert_series_equal(
        md.eval("x.a + y", local_dict={"x": d, "y": 10}).to_pandas(),
        pd.Series([11, 12, 13], name="a"),
    )
    assert md.eval("1 + 2") == 3
    values = np.array([1, 2])  # noqa: F841
    np.testing.assert_array_equal(md.eval("values * 2"), np.array([2, 4]))


def test_eval_errors_raise_at_the_call():
    d = md.DataFrame(pd.DataFrame({"a": [1, 2, 3]}), chunk_size=2)  # noqa: F841
    with pytest.raises(pd.errors.UndefinedVariableError):
        md.eval("d.a + nowhere")
    with pytest.raises(SyntaxError):
        md.eval("d.a +")
    with pytest.raises(ValueError, match="string"):
        md.eval(3)
    with (
        pytest.warns(pd.errors.Pandas4Warning, match="inplace"),
        pytest.raises(ValueError, match="inplace"),
    ):
        md.eval("d.a + 1", inplace=True)
    with pytest.raises(SyntaxError, match="@"):
        md.eval("@d + 1")
