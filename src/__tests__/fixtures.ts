/** JSON as the server extension sends it, for the tests. */
import { IClusterStatus, ITask, IWorker } from '../types';

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
