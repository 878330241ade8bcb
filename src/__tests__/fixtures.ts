/** JSON as the server extension sends it, for the tests. */
import { IClusterStatus, IListedCluster, ITask, IWorker } from '../types';

export function worker(address: string, resources: IWorker['resources'] = {}, n_cpu = 2): IWorker {
  return { address, n_cpu, running: 0, heartbeat_age: 0.4, resources };
}

export function task(executionId: string, state: string, progress: number): ITask {
  return {
    session_id: 'session-1',
    execution_id: executionId,
    state,
    progress,
    elapsed: 1.5,
    error: null,
    operators: [{ name: 'Add', done: Math.round(progress * 4), total: 4 }]
  };
}

/** A cluster of this machine as `GET clusters` lists it: another's unless `own`. */
export function listed(
  id: string,
  own = false,
  workers: IWorker[] = [],
  tasks: ITask[] = []
): IListedCluster {
  return {
    id,
    own,
    kind: own ? 'server' : 'local',
    origin: own ? 'server' : 'kernel',
    started_by: own ? 'this Jupyter server' : `notebook ${id}.ipynb`,
    stop_hint: own ? null : `started by notebook ${id}.ipynb: stop it there with %mars stop`,
    owner_pid: own ? null : 4242,
    endpoint: `http://127.0.0.1:9/${id}`,
    created: 1700000000,
    dashboard: own ? '/mars/dashboard/' : `/mars/dashboards/${id}/`,
    n_workers: workers.length,
    n_hosts: workers.length ? 1 : 0,
    n_cpu: workers.reduce((n, w) => n + (w.n_cpu ?? 0), 0),
    memory: 2 ** 30,
    workers,
    tasks: tasks.filter(t => t.state === 'running'),
    supervisor_error: null
  };
}

export function status(state: IClusterStatus['state'], workers: IWorker[] = []): IClusterStatus {
  return {
    state,
    error: null,
    kind: state === 'stopped' ? null : 'local',
    endpoint: state === 'running' ? '127.0.0.1:7001' : null,
    dashboard: state === 'running' ? '/mars/dashboard/' : null,
    started: state === 'stopped' ? null : 1700000000,
    options: {},
    n_workers: workers.length,
    n_cpu: workers.reduce((n, w) => n + (w.n_cpu ?? 0), 0),
    workers,
    tasks: [],
    supervisor_error: null
  };
}
