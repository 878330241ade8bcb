"""How a contraction is tiled (``tiling``, ``chunking``): one task per output chunk on
shared panels, rechunking to align operands, the memory budget and its sum tree, thread
use, and unknown lengths."""

import numpy as np

import jupyter_mars.tensor as mt
from jupyter_mars.config import option_context
from jupyter_mars.engine.node import op_name_of
from jupyter_mars.session import new_session
from tests.tensor.products.helpers import check, sample, task_keys, tasks_by_op


def test_matmul_is_one_task_per_output_chunk_on_shared_panels():
    a = mt.tensor(sample((8, 8)), chunk_size=2)
    b = mt.tensor(sample((8, 8)), chunk_size=2)
    product = a @ b
    keys = [k for k in task_keys(product) if op_name_of(k) == "matmul"]
    assert sum(1 for k in keys if k[0] == product.key) == 16  # one per output chunk
    panels = [k for k in keys if k[0] != product.key]
    assert all("panel" in k[0] for k in panels)
    assert len(panels) == 8  # 4 row panels of a, 4 column panels of b; no sum tree


def test_matrix_vector_product_reads_chunks_without_panels():
    x, y = sample((8, 8)), sample((8,))
    product = mt.tensor(x, chunk_size=2) @ mt.tensor(y, chunk_size=2)
    keys = [k for k in task_keys(product) if op_name_of(k) == "matmul"]
    assert len(keys) == 4  # each row of chunks is read once: no copy into a panel
    check(product, x @ y)


def test_matmul_rechunks_one_side_when_contracted_chunks_differ():
    a, b = sample((6, 9)), sample((9, 4))
    ta, tb = mt.tensor(a, chunk_size=(3, 3)), mt.tensor(b, chunk_size=(4, 2))
    check(ta @ tb, a @ b)


def test_matmul_splits_the_contraction_over_the_memory_budget():
    for shape_a, shape_b in [((4, 40), (40, 3)), ((8, 40), (40, 8))]:
        a, b = sample(shape_a), sample(shape_b)
        ta, tb = mt.tensor(a, chunk_size=4), mt.tensor(b, chunk_size=4)
        with option_context(chunk_store_limit=64):
            product = ta @ tb
            keys = [k for k in task_keys(product) if op_name_of(k) == "matmul"]
            assert any("-part" in k[0] for k in keys)  # partial products
            assert any("-sum" in k[0] for k in keys)  # summed by a tree
            check(product, a @ b)


def test_vector_dot_splits_for_parallelism(monkeypatch):
    from jupyter_mars.tensor.products import chunking

    monkeypatch.setattr(chunking, "_MIN_GROUP_WORK", 1)
    v = sample((30,))
    t = mt.tensor(v, chunk_size=3)
    result = mt.dot(t, t)
    assert tasks_by_op(result, n_cpu=4)["dot"] > 1
    check(result, v @ v)


def test_large_single_chunk_product_is_split_across_threads():
    a, b = sample((512, 256)), sample((256, 512))
    product = mt.tensor(a, chunk_size=-1) @ mt.tensor(b, chunk_size=-1)
    outputs = [k for k in task_keys(product, n_cpu=4) if k[0] == product.key]
    assert len(outputs) == 4
    check(product, a @ b)
    small = mt.tensor(sample((8, 8)), chunk_size=-1)
    tiny = small @ small  # too little work to be worth splitting
    assert len([k for k in task_keys(tiny, n_cpu=4) if k[0] == tiny.key]) == 1


def test_a_product_is_split_for_the_cores_of_the_session_that_runs_it():
    # the default session runs on 2 threads, this one on 8: tiling follows the runtime
    # that executes, whatever the default session is
    a, b = sample((1024, 512)), sample((512, 1024))
    other = new_session(n_cpu=8, default=False)
    try:
        product = mt.tensor(a, chunk_size=-1) @ mt.tensor(b, chunk_size=-1)
        product.execute(session=other)
        nsplits = other.engine.executed[product.key].nsplits
        assert len(nsplits[0]) * len(nsplits[1]) == 8
        np.testing.assert_allclose(product.fetch(session=other), a @ b)
    finally:
        other.close()


def test_products_with_unknown_lengths():
    x = np.arange(12.0)
    t = mt.tensor(x, chunk_size=5)
    picked = t[t > 3]
    assert np.isnan(picked.shape[0])
    check(mt.dot(picked, picked), x[x > 3] @ x[x > 3])
    outer = mt.outer(picked, mt.tensor(x[:3], chunk_size=2))
    check(outer, np.outer(x[x > 3], x[:3]))
