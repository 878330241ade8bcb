"""Resource figures: bytes moved and their rates, GPU figures and how often they are read."""

from __future__ import annotations

from collections.abc import Sequence

from jupyter_mars.cluster.worker.resources import GpuMeter, ResourceMeter, TransferMeter


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_transfer_rates_are_bytes_over_the_seconds_since_the_last_sample():
    clock = Clock()
    meter = TransferMeter(clock=clock)
    meter.received(3000)
    meter.sent(500)
    clock.now += 2
    first = meter.sample()  # the first window runs from the meter's creation
    assert first == {
        "received_bytes": 3000,
        "sent_bytes": 500,
        "received_per_s": 1500.0,
        "sent_per_s": 250.0,
    }
    meter.sent(1000)
    clock.now += 4
    second = meter.sample()
    assert second["received_bytes"] == 3000
    assert second["sent_bytes"] == 1500
    assert second["received_per_s"] == 0.0
    assert second["sent_per_s"] == 250.0


def test_transfer_rates_are_never_negative():
    clock = Clock()
    meter = TransferMeter(clock=clock)
    meter.received(-10)  # nonsense counts are ignored rather than lowering the totals
    clock.now -= 5  # and a clock that went back gives no rate, not a negative one
    figures = meter.sample()
    assert figures["received_bytes"] == 0
    assert figures["received_per_s"] >= 0
    assert figures["sent_per_s"] >= 0
    clock.now += 1
    assert meter.sample()["received_per_s"] == 0.0


def test_reading_without_advancing_leaves_the_window_alone():
    clock = Clock()
    meter = TransferMeter(clock=clock)
    meter.received(100)
    clock.now += 1
    # no window closed yet: the rate since creation
    assert meter.sample(advance=False)["received_per_s"] == 100.0
    assert meter.sample()["received_per_s"] == 100.0  # the heartbeat closes the window
    meter.received(900)
    clock.now += 0.5
    peek = meter.sample(advance=False)
    assert peek["received_bytes"] == 1000  # totals are current
    assert peek["received_per_s"] == 100.0  # the rate of the last closed window
    clock.now += 0.5
    # the peek did not move the window: the next beat sees 900 bytes over 1 s
    assert meter.sample()["received_per_s"] == 900.0


def test_cpu_is_cores_busy_over_the_window_and_a_probe_leaves_the_window_open():
    clock, cpu = Clock(), Clock()
    meter = ResourceMeter(clock=clock, cpu_seconds=cpu)
    clock.now += 2
    cpu.now += 1  # one core busy for half of 2 s
    assert meter.sample()["cpu_used"] == 0.5  # the heartbeat closes the window
    clock.now += 1
    cpu.now += 1
    assert meter.sample(advance=False)["cpu_used"] == 1.0  # a probe in between
    clock.now += 1
    cpu.now += 3  # two more cores busy since
    # the beat sees its whole window (4 CPU-seconds over 2 s), not the last second alone
    assert meter.sample()["cpu_used"] == 2.0
    assert meter.sample()["memory_rss"] > 0


def test_cpu_used_is_never_negative():
    clock, cpu = Clock(), Clock()
    meter = ResourceMeter(clock=clock, cpu_seconds=cpu)
    clock.now += 1
    cpu.now -= 5  # a child process that ended takes its CPU seconds with it
    assert meter.sample()["cpu_used"] == 0.0


def test_gpus_are_read_at_most_every_few_seconds():
    clock = Clock()
    reads: list[Sequence[int] | None] = []

    def read(devices: Sequence[int] | None) -> list[dict]:
        reads.append(devices)
        return [{"index": 0, "utilization": float(len(reads))}]

    meter = GpuMeter([0], every=5.0, clock=clock, read=read)
    assert meter.sample()[0]["utilization"] == 1.0
    clock.now += 4.9
    assert meter.sample()[0]["utilization"] == 1.0  # the last figures, not read again
    clock.now += 0.1
    assert meter.sample()[0]["utilization"] == 2.0
    assert reads == [[0], [0]]


def test_a_meter_without_devices_named_reads_every_gpu():
    reads: list[Sequence[int] | None] = []

    def read(devices: Sequence[int] | None) -> list[dict]:
        reads.append(devices)
        return []

    assert GpuMeter(None, read=read).sample() == []
    assert GpuMeter((2, 3), read=read).sample() == []
    assert reads == [None, [2, 3]]  # None: every GPU NVML sees
