"""The package ``jupyter_mars.tensor.creation`` and what it gives ``mt``."""

from __future__ import annotations

import jupyter_mars.tensor as mt
from jupyter_mars.tensor import creation


def test_all_lists_every_creation_function() -> None:
    for name in creation.__all__:
        assert getattr(mt, name) is getattr(creation, name)
