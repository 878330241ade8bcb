"""GPU slots in the scheduler core: a second pool of slots, and jobs no GPU slot can run."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jupyter_mars.engine.devices import GPUUnavailable
from jupyter_mars.engine.scheduler.events import GraphSubmitted
from jupyter_mars.engine.scheduler.instructions import JobFailed
from jupyter_mars.engine.scheduler.state import SchedulerState
from tests.engine.scheduler.helpers import (
    Shell,
    _ancestors,
    cancel,
    fail,
    fin,
    kinds,
    lost,
    make,
    rel,
    slots,
    submit,
    worlds,
)

# two CPU sources, two GPU sources, and a GPU sum of all four
MIXED = {"c1": [], "c2": [], "g1": [], "g2": [], "total": ["c1", "c2", "g1", "g2"]}
GPU_KEYS = ("g1", "g2", "total")


def test_gpu_tasks_take_gpu_slots_and_cpu_tasks_cpu_slots() -> None:
    s = make(n_slots=1, n_gpu_slots=1)
    out = s(submit("j", MIXED, ["total"], gpu=GPU_KEYS))
    assert kinds(out) == [("execute", "c2"), ("execute", "g2")]  # the walk's order
    assert (s.n_running, s.n_gpu_running) == (2, 1)
    assert kinds(s(fin("g2"))) == [("execute", "g1")]  # a GPU slot freed: not c1
    assert kinds(s(fin("c2"))) == [("execute", "c1")]
    s(fin("c1"))
    assert kinds(s(fin("g1"))) == [("execute", "total")]
    assert s.state.on_gpu("total")
    assert kinds(s(fin("total"))) == [
        ("release", "c1"),
        ("release", "c2"),
        ("release", "g1"),
        ("release", "g2"),
        ("finished", "j"),
    ]


def test_a_full_gpu_pool_does_not_hold_back_cpu_tasks() -> None:
    s = make(n_slots=2, n_gpu_slots=1)
    graph = {"g1": [], "g2": [], "c1": [], "c2": []}
    out = s(submit("j", graph, list(graph), priorities={"g2": 1}, gpu=["g1", "g2"]))
    assert sorted(kinds(out)) == [("execute", "c1"), ("execute", "c2"), ("execute", "g1")]
    assert s.task_state("g2") == "ready"


def test_gpu_tasks_keep_job_order_and_priorities() -> None:
    s = make(n_slots=1, n_gpu_slots=1)
    s(submit("j1", {"a": [], "b": []}, ["a", "b"], priorities={"b": 1}, gpu=["a", "b"]))
    s(submit("j2", {"x": [], "y": []}, ["x", "y"], priorities={"y": -1}, gpu=["x", "y"]))
    order = []
    key = "a"
    for _ in range(4):
        out = s(fin(key))
        key = next((k for kind, k in kinds(out) if kind == "execute"), None)
        if key is not None:
            order.append(key)
    assert order == ["b", "y", "x"]


def test_a_retried_gpu_task_goes_back_to_the_gpu_pool() -> None:
    s = make(n_slots=2, n_gpu_slots=1)
    s(submit("j", {"g": [], "h": []}, ["g", "h"], priorities={"h": 1}, gpu=["g", "h"]))
    assert s.task_state("g") == "running"
    # it takes the GPU slot again, ahead of h by priority; the free CPU slots stay free
    assert kinds(s(fail("g", retriable=True))) == [("execute", "g")]
    assert (s.n_running, s.n_gpu_running, s.task_state("h")) == (1, 1, "ready")
    assert kinds(s(fin("g"))) == [("execute", "h")]


def test_a_job_needing_a_gpu_task_fails_at_once_without_a_gpu_slot() -> None:
    s = make(n_slots=2)
    out = s(submit("j", MIXED, ["total"], gpu=GPU_KEYS))
    assert kinds(out) == [("failed", "j")]
    (failed,) = out
    assert isinstance(failed, JobFailed)
    assert isinstance(failed.error, GPUUnavailable)
    message = str(failed.error)
    assert failed.key in GPU_KEYS
    assert repr(failed.key) in message
    assert "new_session(cuda_devices=[0])" in message
    assert "mars-worker --cuda-devices 0" in message
    assert all(s.task_state(k) is None for k in MIXED)  # nothing left behind
    # a CPU job of the same runtime runs as before
    assert kinds(s(submit("k", {"c1": []}, ["c1"]))) == [("execute", "c1")]


def test_only_jobs_that_need_a_gpu_task_fail_when_the_last_gpu_slot_goes() -> None:
    s = make(n_slots=1, n_gpu_slots=1)
    s(submit("gpu-job", {"g": [], "after": ["g"]}, ["after"], gpu=["g"]))
    s(submit("cpu-job", {"c": []}, ["c"]))
    assert s.task_state("g") == "running"
    out = s(slots(1, gpu=0))
    assert kinds(out) == [("failed", "gpu-job"), ("interrupt", "g")]
    assert isinstance(out[0], JobFailed)
    assert isinstance(out[0].error, GPUUnavailable)
    assert out[0].key == "g"
    assert s.live_jobs() == {"cpu-job"}
    assert kinds(s(fin("c"))) == [("finished", "cpu-job")]


def test_without_any_slot_gpu_tasks_wait_for_workers_as_cpu_tasks_do() -> None:
    s = make(n_slots=0)  # a cluster before its first worker
    assert kinds(s(submit("j", {"g": []}, ["g"], gpu=["g"]))) == []
    assert s.task_state("g") == "ready"
    assert kinds(s(slots(2, gpu=1))) == [("execute", "g")]  # a GPU worker joined


def test_gpu_jobs_waiting_for_workers_fail_when_the_first_has_no_gpu() -> None:
    s = make(n_slots=0)
    s(submit("gpu-job", {"g": []}, ["g"], gpu=["g"]))
    s(submit("cpu-job", {"c": []}, ["c"]))
    out = s(slots(2))
    assert kinds(out) == [("failed", "gpu-job"), ("execute", "c")]
    assert isinstance(out[0], JobFailed)
    assert isinstance(out[0].error, GPUUnavailable)


def test_a_cpu_task_reading_a_gpu_result_in_memory_needs_no_gpu_slot() -> None:
    s = make(n_slots=1, n_gpu_slots=1)
    s(submit("j1", {"g": []}, ["g"], gpu=["g"]))
    s(fin("g"))
    s(slots(1, gpu=0))  # the result stays: it is in memory
    assert kinds(s(submit("j2", {"g": [], "host": ["g"]}, ["host"], gpu=["g"]))) == [
        ("execute", "host")
    ]
    s(fin("host"))
    s(rel("g", "host"))


def test_gpu_slots_added_later_start_the_gpu_tasks_and_none_leaves_them() -> None:
    s = make(n_slots=1, n_gpu_slots=1)
    prios = {"g1": 0, "g2": 1, "g3": 2}
    s(submit("j", dict.fromkeys(prios, []), list(prios), priorities=prios, gpu=list(prios)))
    assert s.task_state("g1") == "running"
    assert kinds(s(slots(2))) == []  # CPU slots only: the GPU pool is unchanged
    assert s.n_gpu_slots == 1
    assert kinds(s(slots(2, gpu=3))) == [("execute", "g2"), ("execute", "g3")]
    assert s.n_gpu_running == 3


def test_a_lost_gpu_ancestor_is_recomputed_on_a_gpu_slot() -> None:
    s = make(n_slots=1, n_gpu_slots=1)
    s(submit("j", {"g": [], "c": ["g"]}, ["c"], gpu=["g"]))
    s(fin("g"))
    s(fin("c"))  # g is released: c holds the result
    assert s.task_state("g") is None
    assert kinds(s(lost(["c"], {"c": ["g"], "g": []}, gpu=["g"]))) == [("execute", "g")]
    assert s.state.on_gpu("g")
    assert s.n_gpu_running == 1
    assert kinds(s(fin("g"))) == [("execute", "c")]


def test_a_cancelled_gpu_job_frees_its_gpu_slot() -> None:
    s = make(n_slots=1, n_gpu_slots=1)
    s(submit("j1", {"g": []}, ["g"], gpu=["g"]))
    s(submit("j2", {"h": []}, ["h"], gpu=["h"]))
    assert kinds(s(cancel("j1"))) == [("failed", "j1"), ("interrupt", "g"), ("execute", "h")]


def test_a_negative_gpu_slot_count_is_refused() -> None:
    with pytest.raises(ValueError, match="n_gpu_slots must be >= 0"):
        SchedulerState(1, n_gpu_slots=-1)
    s = make(n_slots=1, n_gpu_slots=1)
    with pytest.raises(ValueError, match="n_gpu_slots must be >= 0, got -2"):
        s(slots(1, gpu=-2))
    assert s.n_gpu_slots == 1


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(world=worlds(), n_slots=st.integers(1, 2), n_gpu=st.integers(1, 2), data=st.data())
def test_random_dags_with_gpu_tasks_respect_both_pools(
    world: tuple[dict[int, tuple[int, ...]], list[list[int]]],
    n_slots: int,
    n_gpu: int,
    data: st.DataObject,
) -> None:
    dag, job_outputs = world
    gpu = frozenset(data.draw(st.sets(st.sampled_from(sorted(dag))), label="gpu keys"))
    sh = Shell(dag, n_slots, 1, gpu, n_gpu)
    for i, outputs in enumerate(job_outputs):
        job = f"job{i}"
        sh.outputs[job] = tuple(outputs)
        sh.needed[job] = _ancestors(dag, outputs)
        sh.send(GraphSubmitted(f"submit-{job}", job, dict(dag), tuple(outputs), {}, gpu))
        if data.draw(st.booleans(), label="resize"):
            sh.send(slots(data.draw(st.integers(1, 3)), gpu=data.draw(st.integers(1, 3))))
        while sh.running and data.draw(st.booleans(), label="step"):
            key = data.draw(st.sampled_from(sorted(sh.running)), label="key")
            if data.draw(st.integers(0, 5), label="fault") == 0:
                sh.fail(key, retriable=True)
            else:
                sh.finish(key)
    while sh.running:
        sh.finish(min(sh.running))
    assert set(sh.outcome) == set(sh.outputs)
    assert sh.s.n_ready == 0
