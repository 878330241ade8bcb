"""The ``products`` package: its public names, the ``Tensor`` methods it attaches, and the
builder other modules (``linalg``) use."""

import jupyter_mars.tensor as mt
from jupyter_mars.tensor import products
from tests.tensor.products.helpers import check, sample


def test_package_exports_every_product_to_mt():
    names = ["dot", "einsum", "inner", "matmul", "outer", "tensordot", "vdot"]
    assert sorted(products.__all__) == names
    for name in names:
        assert getattr(mt, name) is getattr(products, name)
    assert callable(products.contract)


def test_tensor_methods_dot_and_matmul_are_attached():
    a, b = sample((3, 4)), sample((4, 2))
    t = mt.tensor(a, chunk_size=2)
    check(t.dot(b), a.dot(b))
    check(t @ b, a @ b)
    check(a @ mt.tensor(b, chunk_size=3), a @ b)
    assert mt.Tensor.__matmul__(t, object()) is NotImplemented
    assert mt.Tensor.__rmatmul__(t, object()) is NotImplemented
