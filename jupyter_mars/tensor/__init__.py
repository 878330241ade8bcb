"""``jupyter_mars.tensor`` (imported as ``mt``): NumPy's API, lazy and chunked.

Each family of functions lives in its own module and lists its public names in
``__all__``; methods of ``Tensor`` are attached by the module that implements them.

The families that load heavy libraries (``special``, ``stats`` and ``spatial`` SciPy's
submodules, the file readers h5py, zarr, Pillow and pandas) are loaded on first use
(``__getattr__``): every worker process imports this package to run any chunk task, and
loading them all would cost each one a second and over a hundred MiB.
"""

import importlib
import sys
from typing import Any

from jupyter_mars.tensor import (
    arithmetic,
    creation,
    datasource,
    devices,  # noqa: F401 - attaches to_gpu and to_cpu
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
from jupyter_mars.tensor.arithmetic import *  # noqa: F403
from jupyter_mars.tensor.core import Tensor as Tensor
from jupyter_mars.tensor.core import use_namespace
from jupyter_mars.tensor.creation import *  # noqa: F403
from jupyter_mars.tensor.datasource import *  # noqa: F403
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

_LAZY_PACKAGES = ("spatial", "special", "stats")
"""Subpackages loaded when first used."""
_DATASTORE = (
    "from_dataframe",
    "from_hdf5",
    "from_zarr",
    "fromhdf5",
    "fromzarr",
    "imread",
    "to_hdf5",
    "to_zarr",
    "tohdf5",
    "tozarr",
)
"""``datastore``'s names, loaded with it when first used."""


def __getattr__(name: str) -> Any:
    if name in _LAZY_PACKAGES:
        value: Any = importlib.import_module(f"{__name__}.{name}")
    elif name in _DATASTORE:
        value = getattr(importlib.import_module(f"{__name__}.datastore"), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


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
        *_DATASTORE,
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

# NumPy protocols on tensors (np.sum(t), ufuncs) dispatch to this namespace
use_namespace(sys.modules[__name__])
