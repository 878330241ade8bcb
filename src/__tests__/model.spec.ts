import { ITimer, PanelModel } from '../model';
import {
  IAdaptBounds,
  IClusterStatus,
  IHostList,
  IMarsApi,
  IStartOptions,
  ITask
} from '../types';
import { status, task, worker } from './fixtures';

/** An in-memory server: a cluster that starts, scales and stops as asked. */
class FakeApi implements IMarsApi {
  current: IClusterStatus = status('stopped');
  running: ITask[] = [];
  calls: string[] = [];
  failNext: Error | null = null;
  hosts: IHostList = { path: '/etc/mars/hosts.yaml', configured: true, text: 'hosts: []\n' };

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
