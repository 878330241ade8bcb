"""``jupyter_mars.tensor`` (imported as ``mt``): NumPy's API, lazy and chunked.

Each family of functions lives in its own module and lists its public names in
``__all__``; methods of ``Tensor`` are attached by the module that implements them.
"""

from jupyter_mars.tensor import (
    arithmetic,
    creation,
    datasource,
    datastore,
    indexing,
    numpy_compat,
    numpy_extras,
    products,
    reduction,
    routines,
    selection,
    shape,
    sorting,
    sparse,
    statistics,
    ufuncs,
)
from jupyter_mars.tensor import fft as fft
from jupyter_mars.tensor import linalg as linalg
from jupyter_mars.tensor import random as random
from jupyter_mars.tensor import spatial as spatial
from jupyter_mars.tensor import special as special
from jupyter_mars.tensor import stats as stats
from jupyter_mars.tensor.arithmetic import *  # noqa: F403
from jupyter_mars.tensor.core import Tensor as Tensor
from jupyter_mars.tensor.creation import *  # noqa: F403
from jupyter_mars.tensor.datasource import *  # noqa: F403
from jupyter_mars.tensor.datastore import *  # noqa: F403
from jupyter_mars.tensor.elemwise import elemwise as elemwise
from jupyter_mars.tensor.indexing import *  # noqa: F403
from jupyter_mars.tensor.linalg.products import innerproduct as innerproduct
from jupyter_mars.tensor.numpy_compat import *  # noqa: F403
from jupyter_mars.tensor.numpy_extras import *  # noqa: F403
from jupyter_mars.tensor.products import *  # noqa: F403
from jupyter_mars.tensor.reduction import *  # noqa: F403
from jupyter_mars.tensor.routines import *  # noqa: F403
from jupyter_mars.tensor.selection import *  # noqa: F403
from jupyter_mars.tensor.shape import *  # noqa: F403
from jupyter_mars.tensor.sorting import *  # noqa: F403
from jupyter_mars.tensor.statistics import *  # noqa: F403
from jupyter_mars.tensor.ufuncs import *  # noqa: F403

__all__ = sorted(
    {
        "Tensor",
        "elemwise",
        "fft",
        "innerproduct",
        "linalg",
        "random",
        "spatial",
        "special",
        "stats",
        *arithmetic.__all__,
        *creation.__all__,
        *datasource.__all__,
        *datastore.__all__,
        *indexing.__all__,
        *numpy_compat.__all__,
        *numpy_extras.__all__,
        *products.__all__,
        *reduction.__all__,
        *routines.__all__,
        *shape.__all__,
        *sorting.__all__,
        *sparse.__all__,
        *statistics.__all__,
        *selection.__all__,
        *ufuncs.__all__,
    }
)
