"""``mt.fft``: discrete Fourier transforms, as ``numpy.fft``.

- ``transforms``: ``fft``, ``ifft``, ``rfft``, ``irfft``, ``hfft``, ``ihfft`` and the 2-d and
  n-d forms; the transformed axes are rechunked to one chunk each (the other axes keep their
  chunks) and NumPy transforms every chunk, so ``fftn`` over all axes gathers the whole
  array into one chunk;
- ``helpers``: ``fftfreq``/``rfftfreq`` (each chunk computed from its index range) and
  ``fftshift``/``ifftshift`` (chunk pieces moved without gathering).
"""

from __future__ import annotations

from jupyter_mars.tensor.fft.helpers import Frequencies as Frequencies
from jupyter_mars.tensor.fft.helpers import fftfreq, fftshift, ifftshift, rfftfreq
from jupyter_mars.tensor.fft.transforms import (
    fft,
    fft2,
    fftn,
    hfft,
    ifft,
    ifft2,
    ifftn,
    ihfft,
    irfft,
    irfft2,
    irfftn,
    rfft,
    rfft2,
    rfftn,
)

__all__ = [
    "fft",
    "fft2",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "ifft",
    "ifft2",
    "ifftn",
    "ifftshift",
    "ihfft",
    "irfft",
    "irfft2",
    "irfftn",
    "rfft",
    "rfft2",
    "rfftfreq",
    "rfftn",
]
