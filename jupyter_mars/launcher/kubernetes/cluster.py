"""``new_cluster``: a Mars cluster on Kubernetes, created through the official
``kubernetes`` client, with Mars's launcher's signature.

It creates the objects ``objects.py`` builds (in a namespace of its own unless told one),
waits until the supervisor answers and ``min_worker_num`` workers joined it (read from
the supervisor's ``GET /api/v1/cluster``), and connects a session. The web service is
reached from here at its Service's node port (``NodePort``, the default, as in Mars),
its load balancer (``LoadBalancer``) or, from a pod of the same cluster, its cluster IP
(``ClusterIP``). On failure within ``timeout`` it deletes what it created and raises with
the pods' last log lines.

The IO is kept thin over the pure builders: everything it sends is built by
``objects.py`` and everything it reads is understood by ``status.py``.
"""

from __future__ import annotations

import base64
import dataclasses
import logging
import os
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import urllib3.exceptions
from kubernetes import client as kube
from kubernetes import config as kube_config
from kubernetes.client.exceptions import ApiException
from kubernetes.config.config_exception import ConfigException

from jupyter_mars.launcher import display
from jupyter_mars.launcher.adaptive_loop import Adaptive, Adapts
from jupyter_mars.launcher.handle import ClusterHandle
from jupyter_mars.launcher.kubernetes import objects
from jupyter_mars.launcher.kubernetes.objects import Object
from jupyter_mars.launcher.kubernetes.spec import ClusterSpec, cluster_spec
from jupyter_mars.launcher.kubernetes.status import (
    api_error_text,
    made_by_launcher,
    parse_cluster_id,
    pod_problem,
    unschedulable,
    web_endpoint,
    worker_settings,
    workers_fitting,
)
from jupyter_mars.remote import HttpClient
from jupyter_mars.remote.tokens import generate_token
from jupyter_mars.session import new_session

logger = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 600.0
"""Seconds ``new_cluster`` waits by default: images are pulled on first use."""
LOG_LINES = 20
"""Last lines of each pod's log quoted when the cluster fails to start."""
POLL = 2.0


class KubernetesClusterError(RuntimeError):
    """The cluster could not be created or reached."""


def api_client(given: Any = None) -> Any:
    """``given``, else a client for this pod's own cluster (inside one), else for the
    kubeconfig's current context; a ``KubernetesClusterError`` saying so when there is
    none."""
    if given is not None:
        return given
    try:
        if os.environ.get("KUBERNETES_SERVICE_HOST"):
            kube_config.load_incluster_config()  # type: ignore[no-untyped-call]
            return kube.ApiClient()
        # KUBECONFIG as it is now: the client reads it once, when first imported
        kubeconfig = os.environ.get("KUBECONFIG")
        return kube_config.new_client_from_config(config_file=kubeconfig)  # type: ignore[no-untyped-call]
    except (ConfigException, OSError, TypeError) as exc:
        raise KubernetesClusterError(
            f"no Kubernetes cluster to start Mars on ({exc}); give kube_api_client="
            "kubernetes.config.new_client_from_config(context=...) or set KUBECONFIG"
        ) from None


def _in_cluster() -> bool:
    return bool(os.environ.get("KUBERNETES_SERVICE_HOST"))


class KubernetesCluster(ClusterHandle, Adapts):
    """A Mars cluster in Kubernetes; ``.session`` is connected to it and made the default
    (``connect=False``: none). ``scale(n)``, ``adapt()``, ``logs()``, ``stop()``; a
    context manager. Arguments as Mars's ``new_cluster`` (see ``new_cluster``)."""

    def __init__(
        self,
        kube_api_client: Any = None,
        image: str | None = None,
        namespace: str | None = None,
        supervisor_num: int = 1,
        supervisor_cpu: float | None = None,
        supervisor_mem: str | int | float | None = None,
        worker_num: int = 1,
        worker_cpu: float | None = None,
        worker_mem: str | int | float | None = None,
        worker_spill_paths: Sequence[str] | str | None = None,
        worker_cache_mem: str | int | float | None = None,
        min_worker_num: int | None = None,
        service_type: str | None = None,
        timeout: float | None = None,
        *,
        name: str | None = None,
        worker_spill_volume: str = "emptyDir",
        image_pull_policy: str | None = None,
        extra_env: Mapping[str, str] | None = None,
        extra_labels: Mapping[str, str] | None = None,
        extra_volumes: Sequence[Mapping[str, Any]] | None = None,
        extra_modules: Sequence[str] | str | None = None,
        pre_stop_command: Sequence[str] | str | None = None,
        log_when_fail: bool = False,
        connect: bool = True,
    ) -> None:
        if extra_modules:
            raise ValueError(
                f"extra_modules={extra_modules!r}: jupyter_mars loads no modules into its "
                "processes by name; install them in the image (extra_env can set PYTHONPATH)"
            )
        if timeout is None:
            timeout = DEFAULT_TIMEOUT
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not timeout > 0:
            raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
        name = name or f"jupyter-mars-{uuid.uuid4().hex[:8]}"
        self.spec: ClusterSpec = cluster_spec(
            name=name,
            namespace=namespace or name,
            image=image,
            image_pull_policy=image_pull_policy,
            supervisor_num=supervisor_num,
            supervisor_cpu=supervisor_cpu,
            supervisor_mem=supervisor_mem,
            worker_num=worker_num,
            worker_cpu=worker_cpu,
            worker_mem=worker_mem,
            worker_spill_paths=worker_spill_paths,
            worker_spill_volume=worker_spill_volume,
            worker_cache_mem=worker_cache_mem,
            min_worker_num=min_worker_num,
            service_type=service_type,
            extra_env=extra_env,
            extra_labels=extra_labels,
            extra_volumes=extra_volumes,
            pre_stop_command=pre_stop_command,
        )
        if self.spec.service_type == "ClusterIP" and not _in_cluster():
            raise ValueError(
                "service_type='ClusterIP' is reached only from pods of the cluster: from "
                "here, use 'NodePort' or 'LoadBalancer'"
            )
        self._setup(api_client(kube_api_client), float(timeout), log_when_fail)
        self.token = generate_token()
        try:
            self._start(connect)
        except BaseException as exc:
            logs = self._logs_quietly()
            try:
                self.stop()
            except Exception as cleanup:  # noqa: BLE001 - the first error is the one to raise
                logger.warning("Kubernetes cluster %s: cleaning up failed: %s", name, cleanup)
            # the arguments were checked above: whatever failed here is the cluster's
            if isinstance(exc, Exception):
                raise _failure(exc, logs) from exc
            raise

    def _setup(self, api: Any, timeout: float, log_when_fail: bool) -> None:
        """The state of a handle, before the cluster is created or attached to."""
        self.timeout = timeout
        self.log_when_fail = log_when_fail
        self.adaptive: Adaptive | None = None
        self.session: Any = None
        self.endpoint = ""
        self.token = ""
        self._replicas = self.spec.worker_num
        self._created: list[Object] = []
        self._stopped = False
        self._api = api
        self._core = kube.CoreV1Api(api)
        self._apps = kube.AppsV1Api(api)
        self._rbac = kube.RbacAuthorizationV1Api(api)

    @classmethod
    def attach(
        cls,
        cluster_id: str,
        kube_api_client: Any = None,
        *,
        timeout: float | None = None,
        connect: bool = True,
    ) -> KubernetesCluster:
        """A handle on a running cluster from its ``id`` (``<namespace>/<name>``), from
        any process whose Kubernetes account may read its Deployment and Secret: it
        reads the token from the Secret, finds the web service, and connects a session.
        ``stop()`` on it deletes the cluster as on the handle that created it."""
        namespace, name = parse_cluster_id(cluster_id)
        self = cls.__new__(cls)
        self.spec = cluster_spec(name=name, namespace=namespace)
        if timeout is None:
            timeout = DEFAULT_TIMEOUT
        self._setup(api_client(kube_api_client), float(timeout), False)
        worker = objects.worker_name(self.spec)
        try:
            found = self._call(self._apps.read_namespaced_deployment, worker, namespace)
            ns = self._call(self._core.read_namespace, namespace)
            service = self._call(
                self._core.read_namespaced_service, objects.supervisor_name(self.spec), namespace
            )
            settings = worker_settings(self._api.sanitize_for_serialization(found))
            self.spec = cluster_spec(
                name=name,
                namespace=namespace,
                create_namespace=made_by_launcher(self._api.sanitize_for_serialization(ns), name),
                service_type=self._api.sanitize_for_serialization(service)["spec"]["type"],
                **settings,
            )
            secret = self._api.sanitize_for_serialization(
                self._call(self._core.read_namespaced_secret, self.spec.secret_name, namespace)
            )
        except ApiException as exc:
            raise KubernetesClusterError(
                f"cannot attach to the Mars cluster {cluster_id!r}: {_api_message(exc)}"
            ) from None
        if self.spec.service_type == "ClusterIP" and not _in_cluster():
            raise KubernetesClusterError(
                f"cannot attach to the Mars cluster {cluster_id!r} from outside Kubernetes: its "
                f"Service {objects.supervisor_name(self.spec)} is a ClusterIP one; run kubectl "
                f"port-forward -n {namespace} svc/{objects.supervisor_name(self.spec)} 7104 and "
                "connect with new_session('http://127.0.0.1:7104', token=...)"
            )
        self._replicas = self.spec.worker_num
        self.token = base64.b64decode(secret["data"]["token"]).decode()
        # what stop() deletes: the objects the launcher makes (the namespace, if made)
        self._created = objects.cluster_objects(self.spec, self.token)
        self._wait_for(0, self.timeout, exactly=False)
        if connect:
            self.session = new_session(self.endpoint, token=self.token)
        self.announce("attached")
        return self

    @property
    def id(self) -> str:
        """``<namespace>/<name>``: what ``attach`` (or ``new_cluster(instance_id=...)``)
        takes to get a handle on this cluster from another process."""
        return f"{self.namespace}/{self.name}"

    @property
    def namespace(self) -> str:
        assert self.spec.namespace is not None
        return self.spec.namespace

    @property
    def name(self) -> str:
        return self.spec.name

    # creating and waiting

    def _start(self, connect: bool) -> None:
        owns_namespace = not self._namespace_exists()
        spec = self.spec = dataclasses.replace(self.spec, create_namespace=owns_namespace)
        for obj in objects.cluster_objects(spec, self.token):
            self._create(obj)
            self._created.append(obj)
        self._wait_for(spec.min_worker_num, self.timeout, exactly=False)
        if connect:
            self.session = new_session(self.endpoint, token=self.token)
        logger.info("Kubernetes cluster %s ready at %s", spec.name, self.endpoint)
        self.announce("started")

    def _namespace_exists(self) -> bool:
        try:
            self._call(self._core.read_namespace, self.namespace)
        except ApiException as exc:
            if exc.status == 404:
                return False
            raise
        return True

    def _create(self, obj: Object) -> None:
        kind, ns = obj["kind"], self.namespace
        create: dict[str, Callable[..., Any]] = {
            "Namespace": self._core.create_namespace,
            "Secret": self._core.create_namespaced_secret,
            "ServiceAccount": self._core.create_namespaced_service_account,
            "Service": self._core.create_namespaced_service,
            "Role": self._rbac.create_namespaced_role,
            "RoleBinding": self._rbac.create_namespaced_role_binding,
            "Deployment": self._apps.create_namespaced_deployment,
        }
        if kind == "Namespace":
            self._call(create[kind], body=obj)
        else:
            self._call(create[kind], ns, body=obj)

    def _delete(self, obj: Object) -> None:
        kind, name, ns = obj["kind"], obj["metadata"]["name"], self.namespace
        delete: dict[str, Callable[..., Any]] = {
            "Namespace": self._core.delete_namespace,
            "Secret": self._core.delete_namespaced_secret,
            "ServiceAccount": self._core.delete_namespaced_service_account,
            "Service": self._core.delete_namespaced_service,
            "Role": self._rbac.delete_namespaced_role,
            "RoleBinding": self._rbac.delete_namespaced_role_binding,
            "Deployment": self._apps.delete_namespaced_deployment,
        }
        # the answer (the object, or a Status, by kind and version) is not read
        options = {"propagation_policy": "Background", "_preload_content": False}
        try:
            args = (name,) if kind == "Namespace" else (name, ns)
            self._call(delete[kind], *args, **options).release_conn()
        except ApiException as exc:
            if exc.status != 404:
                raise

    def _call(self, method: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """One API call; an API server that cannot be reached is a clear error."""
        try:
            return method(*args, **kwargs, _request_timeout=30)
        except urllib3.exceptions.HTTPError as exc:
            host = self._api.configuration.host
            raise KubernetesClusterError(
                f"the Kubernetes API server at {host} cannot be reached: {exc}"
            ) from None

    def _pods(self, component: str | None = None) -> list[Object]:
        if component is None:
            selector = f"app.kubernetes.io/instance={self.name}"
        else:
            selector = objects.selector(self.spec, component)
        found = self._call(self._core.list_namespaced_pod, self.namespace, label_selector=selector)
        items: list[Object] = self._api.sanitize_for_serialization(found).get("items") or []
        return items

    def _find_endpoint(self) -> str | None:
        found = self._call(
            self._core.read_namespaced_service, objects.supervisor_name(self.spec), self.namespace
        )
        service = self._api.sanitize_for_serialization(found)
        host_ip = next(
            (p["status"].get("hostIP") for p in self._pods("supervisor") if p.get("status")),
            None,
        )
        return web_endpoint(service, host_ip, _in_cluster())

    def _wait_for(self, n: int, timeout: float, exactly: bool) -> None:
        """Until the supervisor counts ``n`` workers (at least, unless ``exactly``);
        raises at once when a pod cannot start."""
        deadline = time.monotonic() + timeout
        joined, waiting_for = -1, "the supervisor's web service"
        while True:
            pods = self._pods()
            problems = [p for p in map(pod_problem, pods) if p]
            if problems:
                raise KubernetesClusterError("; ".join(problems))
            if not self.endpoint:
                self.endpoint = self._find_endpoint() or ""
            if self.endpoint:
                try:
                    model = HttpClient(self.endpoint, self.token, timeout=5).json(
                        "GET", "/api/v1/cluster"
                    )
                    joined = len(model["workers"])
                    waiting_for = f"{n} workers ({joined} joined)"
                except Exception as exc:  # noqa: BLE001 - not up yet: asked again
                    waiting_for = f"the web service at {self.endpoint} ({exc})"
            if joined == n or (joined > n and not exactly):
                return
            if time.monotonic() > deadline:
                stuck = [u for u in map(unschedulable, pods) if u]
                raise TimeoutError(
                    f"waited {timeout:g} s for {waiting_for}"
                    + (": " + "; ".join(stuck) if stuck else "")
                )
            time.sleep(POLL)

    # the cluster's life

    def logs(self, lines: int | None = LOG_LINES) -> dict[str, str]:
        """The last ``lines`` (None: all) of each of the cluster's pods' logs, by pod."""
        out = {}
        for pod in self._pods():
            name = pod["metadata"]["name"]
            try:
                out[name] = self._call(
                    self._core.read_namespaced_pod_log, name, self.namespace, tail_lines=lines
                )
            except ApiException as exc:
                out[name] = f"(no log: {exc.reason})"
        return out

    def _logs_quietly(self) -> dict[str, str]:
        if not self._created:
            return {}
        try:
            if self.log_when_fail:
                for pod, log in self.logs(None).items():
                    logger.error("Kubernetes cluster %s: log of %s:\n%s", self.name, pod, log)
            return self.logs()
        except Exception as exc:  # noqa: BLE001 - the first error is the one to raise
            return {"(logs)": f"could not be read: {exc}"}

    @property
    def n_workers(self) -> int:
        return self._replicas

    def most_workers(self, minimum: int) -> int:
        """As many workers as the nodes' allocatable CPUs hold (the workers asked for
        when the nodes cannot be listed)."""
        try:
            nodes = self._api.sanitize_for_serialization(self._call(self._core.list_node))
            cpus = [n["status"]["allocatable"]["cpu"] for n in nodes.get("items") or []]
            fitting = workers_fitting(cpus, self.spec.worker_cpu)
        except (ApiException, KubernetesClusterError, KeyError):
            fitting = self.spec.worker_num
        return max(minimum, fitting)

    def check_running(self) -> None:
        if self._stopped:
            raise RuntimeError("the cluster is stopped: start a new one to adapt")

    def scale(self, n: int, timeout: float | None = None) -> None:
        """Run ``n`` workers; returns once the supervisor counts exactly ``n``. Turns
        adaptive scaling off."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"n must be a non-negative int, got {n!r}")
        self.stop_adapting()
        self.resize(n, timeout=timeout)

    def resize(self, n: int, retire: Sequence[str] = (), timeout: float | None = None) -> None:
        """Run ``n`` workers, leaving adaptive scaling as it is: the worker Deployment's
        replicas are patched. With ``retire`` (workers' addresses), the pods running
        those workers are marked with a low deletion cost first, so that the ReplicaSet
        removes them and no other (fewer, when fewer are found)."""
        self.check_running()
        objects.replicas_patch(n)  # checks n
        worker = objects.worker_name(self.spec)
        if retire and n < self._replicas:
            ips = {
                p["metadata"]["name"]: p["status"].get("podIP", "")
                for p in self._pods("worker")
                if p.get("status")
            }
            costs = objects.retire_costs(list(retire), ips, self._replicas - n)
            for pod, cost in costs.items():
                patch = objects.deletion_cost_patch(cost)
                self._call(self._core.patch_namespaced_pod, pod, self.namespace, body=patch)
            n = self._replicas - len(costs)
        patch = objects.replicas_patch(n)
        self._call(self._apps.patch_namespaced_deployment, worker, self.namespace, body=patch)
        self._replicas = n
        self._wait_for(n, self.timeout if timeout is None else timeout, exactly=True)

    @property
    def dashboard_url(self) -> str:
        return self.endpoint.rstrip("/") + "/"

    @property
    def running(self) -> bool:
        return not self._stopped

    def stop(self) -> None:
        """Close the session and delete what was created: the namespace, when this
        cluster made it, else its objects."""
        self.stop_adapting()
        if self._stopped:
            return
        self._stopped = True
        if self.session is not None:
            self.session.close()
            self.session = None
        owned = [o for o in self._created if o["kind"] == "Namespace"]
        for obj in owned or list(reversed(self._created)):
            self._delete(obj)
        self._created = []

    def __repr__(self) -> str:
        where = f"{self.name} in namespace {self.namespace}"
        if self._stopped:
            return f"<KubernetesCluster {where} stopped>"
        n = self._replicas
        return f"<KubernetesCluster {where} {self.endpoint} {n} worker{'' if n == 1 else 's'}>"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        return display.mimebundle(self, repr(self), self.running)

    def __enter__(self) -> KubernetesCluster:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def _api_message(exc: ApiException) -> str:
    return api_error_text(exc.status, exc.reason, exc.body)


def _failure(exc: Exception, logs: dict[str, str]) -> Exception:
    """``exc`` as the error ``new_cluster`` raises: its kind kept for a timeout, with
    the pods' last log lines."""
    text = _api_message(exc) if isinstance(exc, ApiException) else str(exc)
    if logs:
        text += "\n" + "\n".join(
            f"--- {pod} ---\n{log.rstrip()}" for pod, log in sorted(logs.items())
        )
    if isinstance(exc, TimeoutError):
        return TimeoutError(text)
    return KubernetesClusterError(text)


def new_cluster(
    kube_api_client: Any = None,
    image: str | None = None,
    supervisor_num: int = 1,
    supervisor_cpu: float | None = None,
    supervisor_mem: str | int | float | None = None,
    worker_num: int = 1,
    worker_cpu: float | None = None,
    worker_mem: str | int | float | None = None,
    worker_spill_paths: Sequence[str] | str | None = None,
    worker_cache_mem: str | int | float | None = None,
    min_worker_num: int | None = None,
    service_type: str | None = None,
    timeout: float | None = None,
    *,
    instance_id: str | None = None,
    **kwargs: Any,
) -> KubernetesCluster:
    """Start a Mars cluster on Kubernetes and connect a default session to it; with
    ``instance_id`` (a cluster's ``.id``), attach to that running cluster instead.

    :param kube_api_client: a ``kubernetes`` API client (``kubernetes.config.
        new_client_from_config()``); None: this pod's cluster, else the kubeconfig's
    :param image: the container image, ``jupyter-mars:0.1.0`` by default
    :param supervisor_num: supervisors: 1, the only number accepted (several need an
        address each, which replicas behind one Service do not have)
    :param supervisor_cpu: cores of each supervisor (1)
    :param supervisor_mem: memory of each supervisor (2 GiB): GiB without a unit, bytes
        from 1 MiB up (as Mars scripts write it), or a size (``"2Gi"``)
    :param worker_num: workers (1)
    :param worker_cpu: cores of each worker (1), requested and its limit
    :param worker_mem: memory of each worker (4 GiB), read as ``supervisor_mem``
    :param worker_spill_paths: where workers spill, in the container: each an
        ``emptyDir`` volume (``worker_spill_volume="hostPath"``: the node's directory)
    :param worker_cache_mem: each worker's memory for chunk data: a size or a share
        of ``worker_mem`` (``"80%"``)
    :param min_worker_num: workers to wait for (all)
    :param service_type: how the web service is reached from here: ``NodePort``
        (default), ``LoadBalancer``, or (from a pod only) ``ClusterIP``
    :param timeout: seconds to wait for the cluster (600)

    Also: ``namespace`` (default: a new one named after the cluster), ``name``,
    ``worker_spill_volume``, ``image_pull_policy``, ``extra_env``, ``extra_labels``,
    ``extra_volumes`` (volumes with a ``mountPath``), ``pre_stop_command``,
    ``log_when_fail`` (whole logs on failure), ``connect``.
    """
    if instance_id is not None:
        given = {k: v for k, v in kwargs.items() if k != "connect"}
        settings: list[object] = [image, supervisor_cpu, supervisor_mem, worker_cpu, worker_mem]
        settings += [worker_spill_paths, worker_cache_mem, min_worker_num, service_type]
        counts = (supervisor_num, worker_num)
        if given or any(v is not None for v in settings) or counts != (1, 1):
            raise ValueError(
                "instance_id attaches to a running cluster, which has its settings: give "
                "only kube_api_client, timeout and connect with it (resize with scale(n))"
            )
        return KubernetesCluster.attach(
            instance_id, kube_api_client, timeout=timeout, connect=kwargs.get("connect", True)
        )
    return KubernetesCluster(
        kube_api_client,
        image=image,
        supervisor_num=supervisor_num,
        supervisor_cpu=supervisor_cpu,
        supervisor_mem=supervisor_mem,
        worker_num=worker_num,
        worker_cpu=worker_cpu,
        worker_mem=worker_mem,
        worker_spill_paths=worker_spill_paths,
        worker_cache_mem=worker_cache_mem,
        min_worker_num=min_worker_num,
        service_type=service_type,
        timeout=timeout,
        **kwargs,
    )
