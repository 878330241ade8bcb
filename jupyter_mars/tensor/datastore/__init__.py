"""Tensors read from and written to files.

``from_hdf5``/``to_hdf5`` (``hdf5``) read chunk by chunk, one task per chunk
(``regions``), with shape and dtype read at the call; writers are lazy tensors that write
atomically when executed (``atomic``).
"""

from jupyter_mars.tensor.datastore.hdf5 import from_hdf5, fromhdf5, to_hdf5, tohdf5

__all__ = ["from_hdf5", "fromhdf5", "to_hdf5", "tohdf5"]
