"""Sparse tensors, as Mars has them: 2-d tensors whose chunks are ``scipy.sparse`` CSR
matrices.

``mt.tensor(matrix)`` of a SciPy sparse matrix (or ``mt.tensor(x, sparse=True)``) gives
one; ``Tensor.issparse()``, ``tosparse()`` and ``todense()`` tell and convert; executing
one and fetching it gives a CSR matrix. Values are always NumPy's on the dense
equivalent: element-wise operations that keep zeros stay sparse (``x * 2``, ``abs(x)``,
``x + y`` of two sparse tensors), the others give dense tensors; reductions give dense
results; ``dot``/``matmul``/``@`` work with either side sparse (sparse only when both are).
Operators that know nothing of sparse chunks read sparse inputs as dense ones, chunk by
chunk, so every tensor function accepts a sparse tensor.

This package's modules import only the tensor core, so that the families that produce
sparse results (``datasource``, ``creation``, ``products``) can import them.
"""

from jupyter_mars.tensor.sparse import convert as convert

__all__: list[str] = []
