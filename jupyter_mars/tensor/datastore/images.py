"""``imread``: image files (one, a glob pattern or a list) as a lazy tensor, with Pillow.

One file gives its array (``(height, width)`` or ``(height, width, bands)``); several
are stacked along a new first axis, in sorted name order for a pattern. The first image
is decoded at the call for its shape and dtype; the others' headers are checked to have
the same size and mode. Each chunk task decodes the files its chunk covers.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from PIL import Image

from jupyter_mars.engine.chunks import normalize_chunk_size
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datastore.regions import Region, read_tensor


def decode(path: str) -> np.ndarray[Any, Any]:
    with Image.open(path) as image:
        return np.asarray(image)


@dataclass(frozen=True)
class ImageReader:
    paths: tuple[str, ...]
    stacked: bool
    """True when the tensor's first axis runs over the files."""

    def __call__(self, region: Region) -> Any:
        if not self.stacked:
            return decode(self.paths[0])[region]
        return np.stack([decode(path)[region[1:]] for path in self.paths[region[0]]])


def _paths(path: Any) -> tuple[list[str], bool]:
    """The absolute file names, and whether they are stacked (more than one)."""
    if isinstance(path, (str, os.PathLike)):
        pattern = os.fspath(path)
        names = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
        if not names:
            raise FileNotFoundError(f"path: no file matches {pattern!r}")
    elif (
        isinstance(path, Sequence) and path and all(isinstance(p, (str, os.PathLike)) for p in path)
    ):
        names = [os.fspath(p) for p in path]
    else:
        raise TypeError(f"path must be a file name, a glob pattern or a list of them, got {path!r}")
    for name in names:
        if not os.path.isfile(name):
            raise FileNotFoundError(f"path: no such file {name!r}")
    return [os.path.abspath(name) for name in names], len(names) > 1


def imread(path: Any, chunk_size: Any = None) -> Tensor:
    """Image files as a tensor: one file's pixels, or several files stacked on axis 0.

    ``chunk_size`` as for any tensor (with several files, an int is also the number of
    images per chunk along the first axis).
    """
    names, stacked = _paths(path)
    sample = decode(names[0])
    with Image.open(names[0]) as first:
        size, mode = first.size, first.mode
    for name in names[1:]:
        with Image.open(name) as image:
            if (image.size, image.mode) != (size, mode):
                raise ValueError(
                    f"path: {name!r} is a {image.mode} image of {image.size}, "
                    f"unlike {names[0]!r}, a {mode} image of {size}: they cannot be stacked"
                )
    shape = ((len(names),) if stacked else ()) + sample.shape
    nsplits = normalize_chunk_size(shape, chunk_size, sample.dtype.itemsize)
    return read_tensor(ImageReader(tuple(names), stacked), "imread", shape, sample.dtype, nsplits)
