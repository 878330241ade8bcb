"""The workers' figures the web service keeps for charts drawn after the fact."""

from __future__ import annotations

from jupyter_mars.web.history import FigureHistory


def _cluster(*workers: tuple[str, float, int]) -> dict[str, object]:
    return {
        "workers": [
            {
                "address": a,
                "n_cpu": 2,
                "running": 1,
                "resources": {"cpu_used": cpu, "memory_rss": memory},
            }
            for a, cpu, memory in workers
        ]
    }


def test_samples_keep_the_last_minutes_of_each_worker() -> None:
    history = FigureHistory(seconds=10)
    for t in range(15):
        history.record(_cluster(("w1", 0.5, 100 + t), ("w2", 1.5, 200)), now=1000.0 + t)
    model = history.model()
    assert [p["t"] for p in model["w1"]] == [1000.0 + t for t in range(4, 15)]
    assert model["w1"][-1] == {"t": 1014.0, "cpu": 0.5, "memory": 114.0, "running": 1.0}
    assert model["w2"][0]["cpu"] == 1.5


def test_figures_are_clipped_as_drawn_and_gone_workers_forgotten() -> None:
    history = FigureHistory()
    history.record(_cluster(("w1", 7.0, 1), ("w2", -1.0, 2)), now=1.0)
    assert history.model()["w1"][0]["cpu"] == 2.0  # no more than its cores
    assert history.model()["w2"][0]["cpu"] == 0.0
    history.record(_cluster(("w1", 1.0, 1)), now=2.0)
    assert set(history.model()) == {"w1"}
