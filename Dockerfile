# The image every jupyter_mars pod runs: supervisor (or Mars's older "scheduler"), worker
# and web service, each started with `python -m jupyter_mars.deploy.kubernetes.<role>`,
# which takes its settings from the pod's environment (docs/kubernetes.md).
#
#   docker build -t jupyter-mars:0.1.0 .
#
# The first stage builds the wheel; the second installs it and nothing else (no compiler,
# no Node.js, no source tree).

FROM python:3.11-slim AS wheel
WORKDIR /src
COPY . .
# A pod runs no JupyterLab: the build hook that bundles the JupyterLab panel (it needs
# Node.js) is skipped. The Python package, the supervisor's dashboard included, is whole.
ENV HATCH_BUILD_NO_HOOKS=true
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
COPY --from=wheel /wheels /wheels
RUN pip install --no-cache-dir /wheels/jupyter_mars-0.1.0-py3-none-any.whl \
    && rm -rf /wheels \
    && groupadd --gid 1000 mars \
    && useradd --create-home --uid 1000 --gid 1000 mars
# the user mars, by number: a pod with runAsNonRoot can only verify a numeric user
USER 1000:1000
WORKDIR /home/mars
# supervisor RPC, supervisor (or web service) HTTP, worker RPC: the ports pods use
EXPOSE 7103 7104 7105
# No HEALTHCHECK: Kubernetes' probes check the pods. A pod spec's `command:` (a MarsJob's
# `/bin/sh -c 'exec python -m jupyter_mars.deploy.kubernetes.worker'`) replaces this
# default; with `exec`, the program, not sh, gets the SIGTERM of the pod's deletion.
CMD ["python", "-m", "jupyter_mars.deploy.kubernetes.supervisor"]
