import { ITimer, PanelModel } from '../model';
import {
  IAdaptBounds,
  IClusterStatus,
  IHostList,
  IListedCluster,
  IMarsApi,
  IStartOptions,
  ITask
} from '../types';
import { listed, status, task, worker } from './fixtures';

/** An in-memory server: a cluster that starts, scales and stops as asked. */
class FakeApi implements IMarsApi {
  current: IClusterStatus = status('stopped');
  running: ITask[] = [];
  calls: string[] = [];
  failNext: Error | null = null;
  hosts: IHostList = { path: '/etc/mars/hosts.yaml', configured: true, text: 'hosts: []\n' };
  /** Clusters of this machine other than the server's own, and their tasks by id. */
  others: IListedCluster[] = [];
  othersTasks: Record<string, ITask[]> = {};
  /** What was asked of the other clusters (the own cluster's calls are in `calls`). */
  otherCalls: string[] = [];

  private _maybeFail(call: string): void {
    this.calls.push(call);
    if (this.failNext) {
      const error = this.failNext;
      this.failNext = null;
      throw error;
    }
  }

  async cluster(): Promise<IClusterStatus> {
    this._maybeFail('cluster');
    return this.current;
  }
  async tasks(): Promise<ITask[]> {
    this._maybeFail('tasks');
    return this.running;
  }
  async clusters(): Promise<IListedCluster[]> {
    this.otherCalls.push('clusters');
    const own = this.current.state === 'running' ? [listed('own', true, this.current.workers)] : [];
    return [...own, ...this.others];
  }
  async clusterTasks(clusterId: string): Promise<ITask[]> {
    this.otherCalls.push(`tasks ${clusterId}`);
    if (!(clusterId in this.othersTasks)) {
      throw new Error(`no cluster '${clusterId}' runs on this machine`);
    }
    return this.othersTasks[clusterId];
  }
  async cancelIn(clusterId: string, sessionId: string, executionId: string): Promise<void> {
    this.otherCalls.push(`cancel ${clusterId} ${sessionId}/${executionId}`);
    this.othersTasks[clusterId] = this.othersTasks[clusterId].map(t =>
      t.execution_id === executionId ? { ...t, state: 'cancelled' } : t
    );
  }
  async start(options: IStartOptions): Promise<IClusterStatus> {
    this._maybeFail(`start ${JSON.stringify(options)}`);
    const n = options.n_workers ?? 1;
    this.current = status('running', Array.from({ length: n }, (_, i) => worker(`w${i}`)));
    return this.current;
  }
  async stop(): Promise<IClusterStatus> {
    this._maybeFail('stop');
    this.current = status('stopped');
    return this.current;
  }
  async scale(n: number): Promise<IClusterStatus> {
    this._maybeFail(`scale ${n}`);
    this.current = status('running', Array.from({ length: n }, (_, i) => worker(`w${i}`)));
    return this.current;
  }
  async adapt(bounds: IAdaptBounds): Promise<IClusterStatus> {
    this._maybeFail(`adapt ${JSON.stringify(bounds)}`);
    this.current = { ...this.current, adaptive: { wait: 10, interval: 1, error: null, ...bounds } };
    return this.current;
  }
  async stopAdapting(): Promise<IClusterStatus> {
    this._maybeFail('stop adapting');
    this.current = { ...this.current, adaptive: null };
    return this.current;
  }
  async cancel(sessionId: string, executionId: string): Promise<void> {
    this._maybeFail(`cancel ${sessionId}/${executionId}`);
    this.running = this.running.map(t =>
      t.execution_id === executionId ? { ...t, state: 'cancelled' } : t
    );
  }
  async hostList(): Promise<IHostList> {
    this._maybeFail('hostlist');
    return this.hosts;
  }
  async saveHostList(text: string): Promise<IHostList> {
    this._maybeFail('save hostlist');
    this.hosts = { ...this.hosts, text };
    return this.hosts;
  }
}

/** A timer that fires only when told to, and tells what is pending. */
class ManualTimer implements ITimer {
  pending = new Map<number, { callback: () => void; ms: number }>();
  private next = 1;
  set(callback: () => void, ms: number): unknown {
    const handle = this.next++;
    this.pending.set(handle, { callback, ms });
    return handle;
  }
  clear(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  get delays(): number[] {
    return [...this.pending.values()].map(p => p.ms);
  }
  async fire(): Promise<void> {
    const due = [...this.pending.entries()];
    this.pending.clear();
    for (const [, p] of due) {
      p.callback();
    }
    await flush();
  }
}

async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await Promise.resolve();
  }
}

function setup(): { api: FakeApi; timer: ManualTimer; model: PanelModel; changes: () => number } {
  const api = new FakeApi();
  const timer = new ManualTimer();
  const model = new PanelModel(api, timer);
  let n = 0;
  model.onChange(() => (n += 1));
  return { api, timer, model, changes: () => n };
}

describe('PanelModel', () => {
  it('reads the status, and the tasks only while a cluster runs', async () => {
    const { api, model } = setup();
    await model.refresh();
    expect(model.status?.state).toBe('stopped');
    expect(api.calls).toEqual(['cluster']);
    api.current = status('running', [worker('w0')]);
    api.running = [task('e1', 'running', 0.5)];
    await model.refresh();
    expect(api.calls).toEqual(['cluster', 'cluster', 'tasks']);
    expect(model.taskRows.map(r => r.executionId)).toEqual(['e1']);
  });

  it('polls every refreshSeconds, one refresh at a time, until stopped', async () => {
    const { api, timer, model } = setup();
    model.startPolling();
    expect(timer.delays).toEqual([0]);
    await timer.fire();
    expect(api.calls).toEqual(['cluster']);
    expect(timer.delays).toEqual([2000]);
    model.refreshSeconds = 5;
    expect(timer.delays).toEqual([5000]);
    await timer.fire();
    expect(api.calls).toEqual(['cluster', 'cluster']);
    expect(timer.delays).toEqual([5000]);
    model.stopPolling();
    expect(timer.delays).toEqual([]);
  });

  it('never refreshes faster than twice a second', () => {
    const { model } = setup();
    model.refreshSeconds = 0.01;
    expect(model.refreshSeconds).toBe(0.5);
    model.refreshSeconds = NaN;
    expect(model.refreshSeconds).toBe(2);
  });

  it('starts, scales and stops a cluster, refreshing after each', async () => {
    const { api, model } = setup();
    await model.start({ n_workers: '2', n_cpu: '', memory: '' });
    expect(api.calls.slice(0, 2)).toEqual(['start {"n_workers":2}', 'cluster']);
    expect(model.status?.n_workers).toBe(2);
    expect(model.busy).toBeNull();
    await model.scale('3');
    expect(model.status?.workers.map(w => w.address)).toEqual(['w0', 'w1', 'w2']);
    await model.stop();
    expect(model.status?.state).toBe('stopped');
    expect(model.tasks).toEqual([]);
  });

  it('shows itself busy while an action runs', async () => {
    const { model } = setup();
    const seen: (string | null)[] = [];
    model.onChange(() => seen.push(model.busy));
    await model.start({ n_workers: '', n_cpu: '', memory: '' });
    expect(seen[0]).toBe('start');
    expect(seen[seen.length - 1]).toBeNull();
  });

  it('refuses a bad form without asking the server', async () => {
    const { api, model, changes } = setup();
    await model.start({ n_workers: 'many', n_cpu: '', memory: '' });
    expect(api.calls).toEqual([]);
    expect(model.actionError).toMatch(/^workers must be a whole number/);
    expect(changes()).toBe(1);
    await model.scale('0');
    expect(api.calls).toEqual([]);
  });

  it('keeps the server refusal of an action, and clears it at the next action', async () => {
    const { api, model } = setup();
    api.failNext = new Error('a cluster is already running; stop it first (HTTP 409)');
    await model.start({ n_workers: '', n_cpu: '', memory: '' });
    expect(model.actionError).toBe('a cluster is already running; stop it first (HTTP 409)');
    await model.start({ n_workers: '', n_cpu: '', memory: '' });
    expect(model.actionError).toBeNull();
    expect(model.status?.state).toBe('running');
  });

  it('says when the server cannot be read, and keeps the last status', async () => {
    const { api, model } = setup();
    await model.refresh();
    api.failNext = new Error('the Jupyter server did not answer');
    await model.refresh();
    expect(model.connectionError).toBe('the Jupyter server did not answer');
    expect(model.status?.state).toBe('stopped');
    await model.refresh();
    expect(model.connectionError).toBeNull();
  });

  it('cancels a task by its session and execution', async () => {
    const { api, model } = setup();
    await model.start({ n_workers: '', n_cpu: '', memory: '' });
    api.running = [task('e1', 'running', 0.2)];
    await model.refresh();
    await model.cancel(model.taskRows[0]);
    expect(api.calls).toContain('cancel session-1/e1');
    expect(model.taskRows[0].state).toBe('cancelled');
    expect(model.taskRows[0].cancellable).toBe(false);
  });

  it('adapts between bounds, and stops adapting', async () => {
    const { api, model } = setup();
    await model.start({ n_workers: '1', n_cpu: '', memory: '' });
    await model.adapt({ minimum: 1, maximum: 4 });
    expect(api.calls).toContain('adapt {"minimum":1,"maximum":4}');
    expect(model.status?.adaptive?.maximum).toBe(4);
    await model.adapt(null);
    expect(api.calls).toContain('stop adapting');
    expect(model.status?.adaptive).toBeNull();
    api.failNext = new Error("'maximum' must be at most 256, got 300");
    await model.adapt({ minimum: 1, maximum: 300 });
    expect(model.actionError).toBe("'maximum' must be at most 256, got 300");
    model.refuse('minimum workers must be a whole number');
    expect(model.actionError).toBe('minimum workers must be a whole number');
  });

  it('loads and saves the host list', async () => {
    const { api, model } = setup();
    await model.loadHostList();
    expect(model.hostList?.text).toBe('hosts: []\n');
    await model.saveHostList('hosts:\n  - host: 10.0.0.5\n');
    expect(api.hosts.text).toBe('hosts:\n  - host: 10.0.0.5\n');
    expect(model.hostList?.text).toBe('hosts:\n  - host: 10.0.0.5\n');
  });

  it('tells nobody after it is disposed, and stops polling', async () => {
    const { timer, model, changes } = setup();
    model.startPolling();
    model.dispose();
    expect(timer.delays).toEqual([]);
    await model.refresh();
    expect(changes()).toBe(0);
    expect(model.isDisposed).toBe(true);
  });
});

describe('PanelModel and the other clusters of this machine', () => {
  it("shows a notebook's cluster while the server runs none, with its workers and tasks", async () => {
    const { api, model } = setup();
    const w = [worker('nb-w0')];
    api.others = [listed('nb', false, w, [task('e1', 'running', 0.3)])];
    api.othersTasks = { nb: [task('e0', 'succeeded', 1), task('e1', 'running', 0.3)] };
    await model.refresh();
    expect(model.status?.state).toBe('stopped');
    expect(model.selected?.id).toBe('nb');
    expect(model.showsOther).toBe(true);
    expect(model.workers.map(x => x.address)).toEqual(['nb-w0']);
    expect(model.taskRows.map(r => r.executionId)).toEqual(['e1', 'e0']);
    expect(api.calls).toEqual(['cluster']); // the server's own cluster's tasks are not read
    expect(api.otherCalls).toEqual(['clusters', 'tasks nb']);

    await model.cancel(model.taskRows[0]);
    expect(api.otherCalls).toContain('cancel nb session-1/e1');
    expect(api.calls).not.toContain('cancel session-1/e1');
    expect(model.taskRows.find(r => r.executionId === 'e1')?.state).toBe('cancelled');
  });

  it("lists the server's own first and shows it once it runs, until another is picked", async () => {
    const { api, model } = setup();
    api.others = [listed('nb', false, [worker('nb-w0')])];
    api.othersTasks = { nb: [] };
    await model.start({ n_workers: '1', n_cpu: '', memory: '' });
    expect(model.clusterRows.map(r => [r.id, r.selected])).toEqual([
      ['own', true],
      ['nb', false]
    ]);
    expect(model.showsOther).toBe(false);
    expect(model.workers.map(x => x.address)).toEqual(['w0']);

    await model.select('nb');
    expect(model.selected?.id).toBe('nb');
    expect(model.workers.map(x => x.address)).toEqual(['nb-w0']);
    // the picked cluster stopped: the panel goes back to the first listed, the server's
    api.others = [];
    await model.refresh();
    expect(model.selected?.id).toBe('own');
    expect(model.connectionError).toBeNull();
  });

  it('a cluster gone between the list and its tasks is no error of the panel', async () => {
    const { api, model } = setup();
    api.others = [listed('gone')];
    await model.refresh();
    expect(api.otherCalls).toEqual(['clusters', 'tasks gone']);
    expect(model.taskRows).toEqual([]);
    expect(model.connectionError).toBeNull();
  });

  it("does not ask for the tasks of a cluster whose supervisor does not answer", async () => {
    const { api, model } = setup();
    api.others = [{ ...listed('mute'), supervisor_error: 'the supervisor did not answer' }];
    await model.refresh();
    expect(api.otherCalls).toEqual(['clusters']);
    expect(model.clusterRows[0].error).toBe('the supervisor did not answer');
  });
});
