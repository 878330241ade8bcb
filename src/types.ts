/**
 * The JSON of the server extension's API under `<base_url>mars/api/`, field by field as
 * `jupyter_mars/server/models.py` writes it.
 */

export type ClusterState =
  | 'stopped'
  | 'starting'
  | 'running'
  | 'stopping'
  | 'failed';

/** One GPU of a worker, as the worker read it from NVML; null where the GPU does not report a figure. */
export interface IGpu {
  /** NVML's index of the device, the one `nvidia-smi` shows. */
  index: number;
  /** The device's name ("NVIDIA H100 80GB HBM3"). */
  name?: string;
  /** Percent of the last sample period the GPU was busy. */
  utilization: number | null;
  /** Bytes of device memory in use. */
  memory_used: number | null;
  /** Bytes of device memory in all. */
  memory_total: number | null;
  /** Degrees Celsius. */
  temperature_c?: number | null;
  /** Watts drawn. */
  power_w?: number | null;
}

export interface IResources {
  cpu_used?: number;
  memory_rss?: number;
  memory_total?: number;
  store?: { phy_mem_bytes?: number; memory_bytes?: number; spilled_bytes?: number };
  /** The worker's GPUs: those of its `--cuda-devices`, else every one NVML sees; [] without. */
  gpus?: IGpu[];
}

export interface IWorker {
  address: string;
  n_cpu: number | null;
  /** Bytes of its machine's memory that are this worker's own: its `--phy-mem`, else the machine's memory over the workers that share it. */
  memory_share?: number | null;
  running: number;
  heartbeat_age: number | null;
  resources: IResources;
}

export interface IOperator {
  name?: string;
  done?: number;
  total?: number;
}

export interface ITask {
  session_id: string;
  execution_id: string;
  /** What the client named it, or what it computes ("sum(matmul)"). */
  name?: string;
  state: string;
  progress: number;
  elapsed: number;
  error: string | null;
  operators: IOperator[];
}

export interface IStartOptions {
  n_workers?: number;
  n_cpu?: number;
  memory?: string;
}

/** Adaptive scaling while the cluster adapts (`adaptive` of the status). */
export interface IAdaptive {
  minimum: number;
  maximum: number;
  /** Seconds a worker stays idle, holding no chunk, before it is stopped. */
  wait: number;
  /** Seconds between two looks at the cluster's load. */
  interval: number;
  /** Why the adaptive loop last failed to read the load or to resize; null when it did not. */
  error: string | null;
}

/** The body of `POST cluster/adapt`. */
export interface IAdaptBounds {
  minimum: number;
  maximum: number;
  wait?: number;
}

export interface IClusterStatus {
  state: ClusterState;
  error: string | null;
  kind: string | null;
  endpoint: string | null;
  dashboard: string | null;
  started: number | null;
  options: IStartOptions & { host_list?: string | null };
  n_workers: number;
  /** Machines the workers run on. */
  n_hosts?: number;
  /** Cores of all workers, each machine counted at most once. */
  n_cpu: number;
  /** Bytes of memory of all workers, never more than their machines have. */
  memory?: number;
  workers: IWorker[];
  tasks: ITask[];
  /** Its adaptive bounds while it adapts; null when its size is the user's. */
  adaptive?: IAdaptive | null;
  supervisor_error: string | null;
}

export interface IHostList {
  path: string;
  configured: boolean;
  text: string;
}

/** Who started a listed cluster: this server, a notebook's kernel, another Jupyter server, the SSH launcher or another process. */
export type ClusterOrigin = 'server' | 'kernel' | 'jupyter' | 'ssh' | 'process';

/** A cluster of this machine, as `GET mars/api/clusters` lists it. */
export interface IListedCluster {
  id: string;
  /** The server's own cluster (the one the panel starts and stops). */
  own: boolean;
  kind: string;
  origin: ClusterOrigin;
  /** In words: "this Jupyter server", "notebook work/a.ipynb", "a process, pid 12". */
  started_by: string;
  /** Where it is stopped when not from the panel; null for the server's own. */
  stop_hint: string | null;
  owner_pid: number | null;
  endpoint: string;
  created: number;
  /** Its dashboard's path through the Jupyter server. */
  dashboard: string;
  n_workers: number;
  n_hosts?: number;
  n_cpu: number;
  memory?: number;
  workers: IWorker[];
  /** Its running tasks. */
  tasks: ITask[];
  /** Why its supervisor did not answer; null when it did. */
  supervisor_error: string | null;
}

/** What the panel's model needs of the server: `api.ts` implements it over HTTP. */
export interface IMarsApi {
  cluster(): Promise<IClusterStatus>;
  tasks(): Promise<ITask[]>;
  /** Every cluster of this machine, the server's own first. */
  clusters(): Promise<IListedCluster[]>;
  /** Every recent task of one listed cluster. */
  clusterTasks(clusterId: string): Promise<ITask[]>;
  cancelIn(clusterId: string, sessionId: string, executionId: string): Promise<void>;
  start(options: IStartOptions): Promise<IClusterStatus>;
  stop(): Promise<IClusterStatus>;
  scale(n: number): Promise<IClusterStatus>;
  /** Adapt between the bounds; `scale` ends it. */
  adapt(bounds: IAdaptBounds): Promise<IClusterStatus>;
  stopAdapting(): Promise<IClusterStatus>;
  cancel(sessionId: string, executionId: string): Promise<void>;
  hostList(): Promise<IHostList>;
  saveHostList(text: string): Promise<IHostList>;
}
