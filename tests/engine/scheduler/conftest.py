"""Every core a scheduler test made with ``make`` is validated once more at teardown."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.engine.scheduler.helpers import _created


@pytest.fixture(autouse=True)
def _validate_at_teardown() -> Iterator[None]:
    _created.clear()
    yield
    for s in _created:
        s.state.validate_state()
    _created.clear()
