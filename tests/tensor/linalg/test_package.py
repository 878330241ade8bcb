"""``mt.linalg`` exposes the same names after the split into modules."""

import jupyter_mars.tensor as mt


def test_linalg_exports_every_function():
    assert sorted(mt.linalg.__all__) == [
        "LinAlgError",
        "cholesky",
        "det",
        "dot",
        "inner",
        "innerproduct",
        "inv",
        "lstsq",
        "lu",
        "matmul",
        "norm",
        "qr",
        "randomized_svd",
        "slogdet",
        "solve",
        "solve_triangular",
        "svd",
        "tensordot",
        "vdot",
    ]
    for name in mt.linalg.__all__:
        assert callable(getattr(mt.linalg, name))
