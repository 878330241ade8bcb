"""The cluster widget in a real kernel (nbclient): ``%mars status`` and a cell ending in the
cluster show the one live view of the kernel's ``%mars start`` cluster; the view moves by
itself on the kernel's loop, scales and adapts from its controls, and stops once the
cluster stops.

As in ``test_future_kernel.py``, the checks read the kernel's own widget state, which a
later cell prints as JSON.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.widgets.test_future_kernel import (
    WIDGET_MIME,
    kernel_spec_path,  # noqa: F401 - the fixture, used by name
    printed_json,
    run_cells,
)

STATE = """\
from jupyter_mars.widgets import view_of
cluster = get_ipython().magics_manager.registry["MarsMagics"].cluster
view = view_of(cluster.endpoint, owner=cluster)

def view_state(view):
    return {
        "model_id": view.model_id, "following": view.following,
        "rows": [[r.address.value, r.cores.value, r.cpu_bar.value, r.memory_bar.value]
                 for r in view.rows.values()],
        "totals": view.totals.value, "message": view.message.value,
    }
"""


@pytest.mark.usefixtures("kernel_spec_path")
def test_the_kernels_cluster_shows_as_one_live_view_that_scales_and_adapts(tmp_path: Path) -> None:
    status, shown, first, scaled, again, adapting, stopped = run_cells(
        [
            "%load_ext jupyter_mars\n%mars start --workers 1 --n-cpu 1\n%mars status",
            STATE + "cluster",
            "threads = set()\n"
            "view.totals.observe(lambda c: threads.add(threading.current_thread().name), "
            "'value')\n"
            "await view.updated()\n"
            "print(json.dumps(view_state(view)))",
            "view.scale.input.value = 2\nview.scale.button.click()\nawait view.scale.task\n"
            "await view.updated()\nprint(json.dumps({**view_state(view), "
            "'workers': len(cluster.workers), 'threads': sorted(threads)}))",
            "%mars status",
            # bounds that keep the two workers: nothing moves while the test looks
            "view.adapt.minimum.value = 2\nview.adapt.maximum.value = 3\n"
            "view.adapt.toggle.value = True\nawait view.adapt.task\n"
            "print(json.dumps({'running': cluster.adaptive.running, "
            "'bounds': [cluster.adaptive.bounds.minimum, cluster.adaptive.bounds.maximum], "
            "'toggle': view.adapt.toggle.value, 'status': view.adapt.status.value}))",
            "%mars stop\nawait view.updated()\nprint(json.dumps(view_state(view)))",
        ],
        tmp_path,
    )
    (status_display,) = [o for o in status.outputs if WIDGET_MIME in o.get("data", {})]
    (cluster_display,) = [o for o in shown.outputs if o.output_type == "execute_result"]
    model_id = status_display.data[WIDGET_MIME]["model_id"]
    # beside the widget, its text form: the table, for what cannot draw widgets
    assert status_display.data["text/plain"].startswith("Cluster at http://127.0.0.1:")
    assert cluster_display.data[WIDGET_MIME]["model_id"] == model_id  # the same view
    assert cluster_display.data["text/plain"].startswith("<LocalCluster http://127.0.0.1:")

    before = printed_json(first)
    assert before["model_id"] == model_id
    assert before["following"] is True
    assert len(before["rows"]) == 1
    assert all(0 <= cpu <= 100 and 0 < memory <= 100 for _, _, cpu, memory in before["rows"])
    assert before["totals"].startswith("1 worker on 1 host: 1 core, ")

    after = printed_json(scaled)
    assert after["workers"] == 2
    assert len(after["rows"]) == 2
    assert after["message"] == "Scaled to 2 workers."
    assert after["threads"] == ["MainThread"]  # set on the kernel's loop only

    (again_display,) = [o for o in again.outputs if WIDGET_MIME in o.get("data", {})]
    assert again_display.data[WIDGET_MIME]["model_id"] == model_id

    assert printed_json(adapting) == {
        "running": True,
        "bounds": [2, 3],
        "toggle": True,
        "status": "adapting between 2 and 3 workers",
    }

    gone = printed_json(stopped)
    assert gone["following"] is False
    assert "does not answer" in gone["message"]
