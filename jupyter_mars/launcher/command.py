"""The shell commands the SSH launcher runs on a host: pure string building, no IO.

A worker starts detached (``setsid``, its output to a log file in the cluster's own
directory on the host) and the command prints its PID. The cluster token never appears on
a command line: it is written to a file only the user can read, and the worker's shell
reads it into ``MARS_TOKEN``. Stopping signals the PID and waits until the process is gone,
a zombie counting as gone.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from jupyter_mars.launcher.hosts import Host

STOP_WAIT_SECONDS = 5
"""How long a stopped worker has to exit after SIGTERM before it is killed."""


def worker_args(host: Host, supervisor: str, bind: str) -> list[str]:
    """``mars-worker``'s arguments for ``host``, joining the supervisor at ``supervisor``.

    >>> worker_args(Host("10.0.0.5", n_cpu=4, memory="8g"), "10.0.0.1:7001", "10.0.0.5")
    ['-m', 'jupyter_mars.deploy.worker', '-H', '10.0.0.5', '-s', '10.0.0.1:7001', \
'--n-cpu', '4', '--phy-mem', '8g']
    """
    args = ["-m", "jupyter_mars.deploy.worker", "-H", bind, "-s", supervisor]
    if host.n_cpu is not None:
        args += ["--n-cpu", str(host.n_cpu)]
    if host.memory is not None:
        args += ["--phy-mem", host.memory]
    if host.spill_dirs:
        args += ["--spill-dir", ":".join(host.spill_dirs)]
    if host.cuda_devices is not None:
        args += ["--cuda-devices", ",".join(map(str, host.cuda_devices))]
    return args


def _python(python: str, args: Sequence[str]) -> str:
    """Run ``python`` with ``args`` in place of the shell (``exec``), after what activates
    an environment when ``python`` is such a command (``. env/bin/activate && python``)."""
    setup, sep, interpreter = python.rpartition("&&")
    run = f"exec {interpreter.strip()} {shlex.join(args)}"
    return f"{setup.strip()} && {run}" if sep else run


def start_worker(host: Host, args: Sequence[str], workdir: str, name: str) -> str:
    """Start a worker detached on ``host``; the command prints its PID.

    Its log is ``<workdir>/<name>.log``; the token is read from ``<workdir>/token``; its
    PID is also appended to ``<workdir>/pids``, so that it can be stopped even when the
    answer to this command is lost (``stop_workers`` reads that file).

    >>> print(start_worker(Host("h", env={"A": "1 2"}), ["-m", "w"], "/tmp/m", "worker-0"))
    cd /tmp/m || exit 1; setsid sh -c 'MARS_TOKEN=$(cat /tmp/m/token) && export MARS_TOKEN && \
export A='"'"'1 2'"'"' && exec python3 -m w' > /tmp/m/worker-0.log 2>&1 < /dev/null & \
echo $! >> /tmp/m/pids; echo $!
    """
    token = shlex.quote(f"{workdir}/token")
    steps = [f"MARS_TOKEN=$(cat {token})", "export MARS_TOKEN"]
    steps += [f"export {key}={shlex.quote(value)}" for key, value in host.env.items()]
    script = " && ".join([*steps, _python(host.python, args)])
    log = shlex.quote(f"{workdir}/{name}.log")
    # the background job must be one simple command: a shell may run an ``a && b &`` list
    # in a subshell that keeps the session's output open (and ``$!`` would be its PID)
    pids = shlex.quote(f"{workdir}/pids")
    return (
        f"cd {shlex.quote(workdir)} || exit 1; setsid sh -c {shlex.quote(script)} "
        f"> {log} 2>&1 < /dev/null & echo $! >> {pids}; echo $!"
    )


def make_workdir(workdir: str) -> str:
    """Create the cluster's directory on a host, for the user only."""
    return f"umask 077 && mkdir -p {shlex.quote(workdir)}"


# Process state and command line from /proc where there is one (Linux: ``ps`` may be
# missing from a minimal machine), from ``ps`` elsewhere. A process that is gone has none.
_PROC = (
    "pstate() { if [ -d /proc/self ]; then "
    "sed 's/.*) //' /proc/$1/stat 2>/dev/null | cut -c1; "
    "else ps -o stat= -p $1 2>/dev/null; fi; }; "
    "pargs() { if [ -d /proc/self ]; then "
    "tr '\\000' ' ' < /proc/$1/cmdline 2>/dev/null; "
    "else ps -ww -o args= -p $1 2>/dev/null; fi; }"
)


def _gone(pid: int | str) -> str:
    """A shell test: true when process ``pid`` is gone or a zombie (needs ``_PROC``)."""
    return f'case "$(pstate {pid})" in ""|Z*) true;; *) false;; esac'


def alive(pids: Sequence[int]) -> str:
    """Print the PIDs among ``pids`` that still run (zombies are not running)."""
    checks = [f"{_gone(pid)} || echo {pid}" for pid in pids]
    return "; ".join([_PROC, *checks])


def stop_workers(pids: Sequence[int], workdir: str | None, wait: int = STOP_WAIT_SECONDS) -> str:
    """SIGTERM each PID, wait up to ``wait`` seconds for all to be gone, SIGKILL the rest;
    then remove ``workdir``. Exits 1 when a process survived even SIGKILL.

    With ``workdir``, the PIDs recorded in its ``pids`` file are stopped too when their
    command line is still jupyter_mars's (a PID may have been reused since): workers
    whose start was never confirmed, because the answer to the start command was lost.
    """
    listed = " ".join(str(p) for p in pids)
    steps = [_PROC, f'P="{listed}"']
    if workdir:
        recorded = shlex.quote(f"{workdir}/pids")
        steps.append(
            f"for p in $(cat {recorded} 2>/dev/null); do "
            'pargs "$p" | grep -q jupyter_mars && P="$P $p"; done'
        )
    gone = f"all_gone() {{ for p in $P; do {_gone('$p')} || return 1; done; return 0; }}"
    steps += [
        gone,
        '[ -z "$P" ] || kill -TERM $P 2>/dev/null',
        f"i=0; while [ $i -lt {wait * 10} ] && ! all_gone; do sleep 0.1; i=$((i+1)); done",
        "all_gone || { kill -KILL $P 2>/dev/null; sleep 0.3; }",
    ]
    if workdir:
        steps.append(f"rm -rf {shlex.quote(workdir)}")
    steps.append("all_gone")
    return "; ".join(steps)
