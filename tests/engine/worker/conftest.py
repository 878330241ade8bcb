"""Every core a worker test made with ``make`` is validated once more at teardown."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.engine.worker.helpers import created


@pytest.fixture(autouse=True)
def _validate_at_teardown() -> Iterator[None]:
    created.clear()
    yield
    for core in created:
        core.state.validate_state()
    created.clear()
