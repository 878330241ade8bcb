/**
 * The panel's model: what the server says of its cluster, refreshed on a timer, and the
 * actions the panel offers. No DOM and no JupyterLab here, so it is tested in Node.
 */
import { chooseCluster, clusterRows, IClusterRow } from './clusters';
import {
  IAdaptBounds,
  IClusterStatus,
  IHostList,
  IListedCluster,
  IMarsApi,
  ITask,
  IWorker
} from './types';
import { IStartForm, ITaskRow, parseScale, parseStartForm, taskRows } from './view';

/** setTimeout and clearTimeout, replaceable in tests. */
export interface ITimer {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const REAL_TIMER: ITimer = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: handle => clearTimeout(handle as ReturnType<typeof setTimeout>)
};

export const DEFAULT_REFRESH_SECONDS = 2;
export const MIN_REFRESH_SECONDS = 0.5;

/** The message of anything thrown: the server's own words when it gave some. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    return error.message;
  }
  return String(error);
}

export class PanelModel {
  constructor(api: IMarsApi, timer: ITimer = REAL_TIMER) {
    this._api = api;
    this._timer = timer;
  }

  /** The cluster's status as last read; null before the first answer. */
  get status(): IClusterStatus | null {
    return this._status;
  }

  /** Recent tasks (executions) of the cluster, as last read. */
  get tasks(): ITask[] {
    return this._tasks;
  }

  get taskRows(): ITaskRow[] {
    return taskRows(this._tasks);
  }

  /** Every cluster of this machine, as last read (the server's own first). */
  get clusters(): IListedCluster[] {
    return this._clusters;
  }

  /**
   * The listed cluster whose workers and tasks are shown; null while none runs (the
   * panel then shows the server's own, stopped).
   */
  get selected(): IListedCluster | null {
    return chooseCluster(this._clusters, this._picked);
  }

  /** Whether the cluster shown is another than the server's own (it has no Stop here). */
  get showsOther(): boolean {
    const selected = this.selected;
    return selected !== null && !selected.own;
  }

  get clusterRows(): IClusterRow[] {
    return clusterRows(this._clusters, this.selected?.id ?? null);
  }

  /** The shown cluster's workers: the server's own while it runs, else the other's. */
  get workers(): IWorker[] {
    if (this.showsOther) {
      return this.selected!.workers;
    }
    return this._status?.state === 'running' ? this._status.workers : [];
  }

  /** Show this cluster's workers and tasks (it stays shown while it is listed). */
  async select(clusterId: string): Promise<void> {
    this._picked = clusterId;
    this._changed();
    await this.refresh();
  }

  get hostList(): IHostList | null {
    return this._hostList;
  }

  /** Why the server could not be read at the last refresh; null when it answered. */
  get connectionError(): string | null {
    return this._connectionError;
  }

  /** What the last action (start, stop, scale, cancel, save) was refused for. */
  get actionError(): string | null {
    return this._actionError;
  }

  /** The action under way ('start', 'stop', ...), null when none. */
  get busy(): string | null {
    return this._busy;
  }

  /** Seconds between refreshes. */
  get refreshSeconds(): number {
    return this._refreshSeconds;
  }

  set refreshSeconds(seconds: number) {
    const s = isFinite(seconds) ? Math.max(seconds, MIN_REFRESH_SECONDS) : DEFAULT_REFRESH_SECONDS;
    if (s === this._refreshSeconds) {
      return;
    }
    this._refreshSeconds = s;
    if (this._polling) {
      this._schedule();
    }
  }

  get isDisposed(): boolean {
    return this._disposed;
  }

  /** Call ``listener`` after every change; returns what removes it. */
  onChange(listener: () => void): () => void {
    this._listeners.add(listener);
    return () => this._listeners.delete(listener);
  }

  /** Read the cluster's status and, while it runs, its tasks. */
  async refresh(): Promise<void> {
    try {
      const status = await this._api.cluster();
      this._status = status;
      this._clusters = await this._api.clusters();
      const shown = this.selected;
      if (shown && !shown.own) {
        // a supervisor that does not answer has its own line in the list; no tasks then
        this._tasks = shown.supervisor_error ? [] : await this._otherTasks(shown.id);
      } else {
        this._tasks = status.state === 'running' ? await this._api.tasks() : [];
      }
      this._connectionError = null;
    } catch (error) {
      this._connectionError = errorMessage(error);
    }
    this._changed();
  }

  /** Refresh now and then every ``refreshSeconds``, each after the last one ended. */
  startPolling(): void {
    this._polling = true;
    this._schedule(0);
  }

  stopPolling(): void {
    this._polling = false;
    if (this._handle !== null) {
      this._timer.clear(this._handle);
      this._handle = null;
    }
  }

  /** Start a cluster with the form's options (blank: the server's configuration). */
  async start(form: IStartForm): Promise<void> {
    const options = parseStartForm(form);
    if (!options.ok) {
      this._refuse(options.error);
      return;
    }
    await this._act('start', async () => {
      this._status = await this._api.start(options.value);
    });
  }

  async stop(): Promise<void> {
    await this._act('stop', async () => {
      this._status = await this._api.stop();
      this._tasks = [];
    });
  }

  async scale(text: string): Promise<void> {
    const n = parseScale(text);
    if (!n.ok) {
      this._refuse(n.error);
      return;
    }
    await this._act('scale', async () => {
      this._status = await this._api.scale(n.value);
    });
  }

  /** Adapt between ``bounds`` (checked by `adapt.ts`); null: stop adapting. */
  async adapt(bounds: IAdaptBounds | null): Promise<void> {
    await this._act('adapt', async () => {
      this._status = bounds ? await this._api.adapt(bounds) : await this._api.stopAdapting();
    });
  }

  /** Show a form's refusal as an action's. */
  refuse(message: string): void {
    this._refuse(message);
  }

  /** Cancel a task of the cluster shown, whichever it is. */
  async cancel(row: ITaskRow): Promise<void> {
    const shown = this.selected;
    await this._act('cancel', async () => {
      if (shown && !shown.own) {
        await this._api.cancelIn(shown.id, row.sessionId, row.executionId);
      } else {
        await this._api.cancel(row.sessionId, row.executionId);
      }
    });
  }

  async loadHostList(): Promise<void> {
    await this._act('hostlist', async () => {
      this._hostList = await this._api.hostList();
    });
  }

  async saveHostList(text: string): Promise<void> {
    await this._act('hostlist', async () => {
      this._hostList = await this._api.saveHostList(text);
    });
  }

  dispose(): void {
    this.stopPolling();
    this._listeners.clear();
    this._disposed = true;
  }

  private _schedule(ms: number = this._refreshSeconds * 1000): void {
    if (this._handle !== null) {
      this._timer.clear(this._handle);
    }
    this._handle = this._timer.set(() => void this._tick(), ms);
  }

  private async _tick(): Promise<void> {
    this._handle = null;
    await this.refresh();
    if (this._polling && this._handle === null) {
      this._schedule();
    }
  }

  /** A listed cluster's tasks; none when it stopped since it was listed (its line goes at
   * the next refresh, and a list of another's cluster must not turn into an error here). */
  private async _otherTasks(clusterId: string): Promise<ITask[]> {
    try {
      return await this._api.clusterTasks(clusterId);
    } catch {
      return [];
    }
  }

  private _refuse(message: string): void {
    this._actionError = message;
    this._changed();
  }

  /** Run one action: busy while it runs, its refusal kept, then a refresh. */
  private async _act(name: string, action: () => Promise<void>): Promise<void> {
    this._busy = name;
    this._actionError = null;
    this._changed();
    try {
      await action();
    } catch (error) {
      this._actionError = errorMessage(error);
    } finally {
      this._busy = null;
    }
    await this.refresh();
  }

  private _changed(): void {
    if (this._disposed) {
      return;
    }
    for (const listener of [...this._listeners]) {
      listener();
    }
  }

  private _api: IMarsApi;
  private _timer: ITimer;
  private _status: IClusterStatus | null = null;
  private _tasks: ITask[] = [];
  private _clusters: IListedCluster[] = [];
  private _picked: string | null = null;
  private _hostList: IHostList | null = null;
  private _connectionError: string | null = null;
  private _actionError: string | null = null;
  private _busy: string | null = null;
  private _refreshSeconds = DEFAULT_REFRESH_SECONDS;
  private _polling = false;
  private _handle: unknown = null;
  private _disposed = false;
  private _listeners = new Set<() => void>();
}
