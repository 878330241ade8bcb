"""GPU figures from NVML, for real: without a GPU (this machine, CI) every reading is []
and NVML is tried once per process, never per reading; on a GPU the figures of each
device are in their ranges."""

from __future__ import annotations

import doctest

from jupyter_mars.cluster.worker import nvml
from jupyter_mars.cluster.worker.nvml import NVML, Nvml, device_row, gpu_figures
from tests.conftest import needs_gpu, no_gpu

GIB = 1 << 30


def test_the_examples_in_the_docstrings_hold():
    assert doctest.testmod(nvml).failed == 0


def test_a_row_has_each_figure_in_its_unit():
    row = device_row(3, "NVIDIA A10", 99.0, (5 * GIB, 24 * GIB), 71, 149_949)
    assert row == {
        "index": 3,
        "name": "NVIDIA A10",
        "utilization": 99.0,
        "memory_used": 5 * GIB,
        "memory_total": 24 * GIB,
        "temperature_c": 71.0,
        "power_w": 149.9,  # NVML says milliwatts
    }


def test_a_figure_the_device_does_not_report_is_none_and_a_silent_device_has_no_row():
    row = device_row(0, None, None, (GIB, 8 * GIB), None, None)
    assert row is not None
    assert row["name"] == "GPU 0"  # a device without a name is called by its index
    assert (row["utilization"], row["temperature_c"], row["power_w"]) == (None, None, None)
    assert row["memory_used"] == GIB
    only_power = device_row(1, "T4", None, None, None, 70_000)
    assert only_power is not None
    assert (only_power["memory_used"], only_power["memory_total"]) == (None, None)
    assert device_row(2, "T4", None, None, None, None) is None


@no_gpu
def test_without_a_gpu_there_are_no_figures_and_nvml_is_tried_once():
    reader = Nvml()
    assert reader.figures([0]) == []
    assert reader.figures(None) == []
    assert reader.figures([0, 1, 10_000]) == []
    assert reader.init_calls == 1  # tried on the first reading only
    assert reader.failure  # why: no library here, say
    # the process's own reader, which workers use, the same
    for _ in range(3):
        assert gpu_figures(None) == []
        assert gpu_figures([0]) == []
    assert NVML.init_calls == 1


def test_no_devices_named_means_nvml_is_not_even_tried():
    reader = Nvml()
    assert reader.figures([]) == []
    assert reader.init_calls == 0


@needs_gpu
def test_the_figures_of_a_real_gpu():
    reader = Nvml()
    everything = reader.figures(None)
    assert [row["index"] for row in everything] == list(range(len(everything)))
    (gpu,) = reader.figures([0])
    assert gpu["index"] == 0
    assert gpu["name"]
    assert gpu["utilization"] is None or 0 <= gpu["utilization"] <= 100
    if gpu["memory_total"] is not None:
        assert 0 <= gpu["memory_used"] <= gpu["memory_total"]
    assert gpu["temperature_c"] is None or 0 < gpu["temperature_c"] < 130
    assert gpu["power_w"] is None or 0 < gpu["power_w"] < 2000
    # no such device: nothing, and no error (2**32 is not taken for device 0)
    assert reader.figures([10_000, -1, 2**32]) == []
    assert reader.failure is None
    assert reader.init_calls == 1  # three readings, one start
