/**
 * What the panel shows, computed from the API's JSON: pure functions, no DOM.
 */
import { IClusterStatus, IGpu, IStartOptions, ITask, IWorker } from './types';

/** A bar: how full (0 to 1, never outside) and the figures it stands for. */
export interface IBar {
  label: string;
  fraction: number;
  text: string;
  /** Said on hover, where there is more to say (a GPU's name). */
  title?: string;
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !isFinite(n) || n < 0) {
    return '?';
  }
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}

export function formatSeconds(s: number | null | undefined): string {
  if (s === null || s === undefined || !isFinite(s) || s < 0) {
    return '?';
  }
  if (s < 60) {
    return `${s.toFixed(1)} s`;
  }
  const minutes = Math.floor(s / 60);
  if (minutes < 60) {
    return `${minutes} min ${Math.floor(s % 60)} s`;
  }
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** `used / total` kept within [0, 1]; 0 when the total is unknown. */
export function fraction(used: number | null | undefined, total: number | null | undefined): number {
  if (!used || !total || total <= 0 || !isFinite(used) || !isFinite(total)) {
    return 0;
  }
  return Math.min(Math.max(used / total, 0), 1);
}

function known(value: number | null | undefined): value is number {
  return value !== null && value !== undefined && isFinite(value);
}

/**
 * A GPU's two bars: how busy it is, with its temperature and power where it reports
 * them, and its memory; '?' for what it does not report.
 */
function gpuBars(gpu: IGpu): IBar[] {
  const name = `GPU ${gpu.index}`;
  const busy = [known(gpu.utilization) ? `${Math.round(gpu.utilization)}%` : '?'];
  if (known(gpu.temperature_c)) {
    busy.push(`${Math.round(gpu.temperature_c)} °C`);
  }
  if (known(gpu.power_w)) {
    busy.push(`${Math.round(gpu.power_w)} W`);
  }
  const title = gpu.name ? `${name}: ${gpu.name}` : undefined;
  return [
    { label: name, fraction: fraction(gpu.utilization, 100), text: busy.join(' · '), title },
    {
      label: `${name} memory`,
      fraction: fraction(gpu.memory_used, gpu.memory_total),
      text: `${formatBytes(gpu.memory_used)} / ${formatBytes(gpu.memory_total)}`,
      title
    }
  ];
}

/**
 * A worker's bars: CPU cores busy of its `--n-cpu`, its memory of its own share (of a
 * machine other workers share, as the supervisor counts it; else the store's physical
 * memory budget, else the machine's), and per GPU its use and memory: a worker without
 * GPUs has no GPU bar.
 */
export function workerBars(worker: IWorker): IBar[] {
  const r = worker.resources || {};
  const cores = worker.n_cpu ?? 0;
  const cpu = Math.min(Math.max(r.cpu_used ?? 0, 0), cores);
  const limit = worker.memory_share || r.store?.phy_mem_bytes || r.memory_total || 0;
  const bars: IBar[] = [
    {
      label: 'CPU',
      fraction: fraction(cpu, cores),
      text: `${cpu.toFixed(1)} / ${cores} cores`
    },
    {
      label: 'memory',
      fraction: fraction(r.memory_rss, limit),
      text: `${formatBytes(r.memory_rss ?? 0)} / ${formatBytes(limit)}`
    }
  ];
  for (const gpu of r.gpus || []) {
    bars.push(...gpuBars(gpu));
  }
  return bars;
}

/**
 * The running cluster's size: workers, their machines, cores and memory, each machine
 * counted once however many workers share it (the supervisor's totals).
 */
export function clusterTotals(
  status: Pick<IClusterStatus, 'n_workers' | 'n_hosts' | 'n_cpu' | 'memory'>
): string[] {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const hosts = status.n_hosts ?? 0;
  return [
    `${plural(status.n_workers, 'worker')}` + (hosts ? ` on ${plural(hosts, 'host')}` : ''),
    plural(status.n_cpu, 'core'),
    `${formatBytes(status.memory ?? 0)} memory`
  ];
}

export const ACTIVE_STATES = ['running', 'cancelling', 'pending'];

/** A task's row: its id without the 'execution-' every id starts with, its state, progress in percent and whether it can be cancelled. */
export interface ITaskRow {
  key: string;
  sessionId: string;
  executionId: string;
  name: string;
  state: string;
  percent: number;
  elapsed: string;
  detail: string;
  cancellable: boolean;
}

function operatorSummary(task: ITask): string {
  let done = 0;
  let total = 0;
  for (const op of task.operators || []) {
    done += op.done ?? 0;
    total += op.total ?? 0;
  }
  return total > 0 ? `${done} / ${total} chunks` : '';
}

/**
 * The rows of the task list: the running ones first (newest first), then the most recent
 * finished ones, `limit` in all. Progress is shown in whole percent, 100 only when done.
 */
export function taskRows(tasks: ITask[], limit = 8): ITaskRow[] {
  const active = tasks.filter(t => ACTIVE_STATES.includes(t.state));
  const finished = tasks.filter(t => !ACTIVE_STATES.includes(t.state));
  const ordered = [...active.reverse(), ...finished.reverse()].slice(0, limit);
  return ordered.map(t => {
    const raw = Math.min(Math.max(t.progress || 0, 0), 1) * 100;
    const percent = t.state === 'succeeded' ? 100 : Math.min(Math.floor(raw), 99);
    return {
      key: `${t.session_id}/${t.execution_id}`,
      sessionId: t.session_id,
      executionId: t.execution_id,
      name: t.name || t.execution_id.replace(/^execution-/, ''),
      state: t.state,
      percent,
      elapsed: formatSeconds(t.elapsed),
      detail: t.error || operatorSummary(t),
      cancellable: t.state === 'running'
    };
  });
}

/**
 * The dashboard's page of an execution or of a worker: the part of its address after `#`.
 */
export function executionPage(sessionId: string, executionId: string): string {
  return `#/execution/${encodeURIComponent(sessionId)}/${encodeURIComponent(executionId)}`;
}

export function workerPage(address: string): string {
  return `#/worker/${encodeURIComponent(address)}`;
}

/** The code the "insert connect code" command puts in a notebook cell. */
export function connectCode(): string {
  return [
    '%load_ext jupyter_mars',
    '# the cluster this Jupyter server runs: it becomes the default session',
    '%mars connect'
  ].join('\n');
}

/** The start form's fields as the user typed them. */
export interface IStartForm {
  n_workers: string;
  n_cpu: string;
  memory: string;
}

/** What a form's check gives: the options to send, or the error naming the field. */
export type FormResult<T> = { ok: true; value: T } | { ok: false; error: string };

function wholeField(text: string, name: string, low: number, high?: number): FormResult<number | undefined> {
  const t = text.trim();
  if (t === '') {
    return { ok: true, value: undefined };
  }
  const n = Number(t);
  if (!Number.isInteger(n) || n < low || (high !== undefined && n > high)) {
    const range = high === undefined ? `at least ${low}` : `from ${low} to ${high}`;
    return { ok: false, error: `${name} must be a whole number ${range}, got '${t}'` };
  }
  return { ok: true, value: n };
}

export const MAX_WORKERS = 256;

/** The options of a start request; blank fields take the server's configuration. */
export function parseStartForm(form: IStartForm): FormResult<IStartOptions> {
  const options: IStartOptions = {};
  const workers = wholeField(form.n_workers, 'workers', 1, MAX_WORKERS);
  if (!workers.ok) {
    return workers;
  }
  const cpus = wholeField(form.n_cpu, 'cores per worker', 1);
  if (!cpus.ok) {
    return cpus;
  }
  if (workers.value !== undefined) {
    options.n_workers = workers.value;
  }
  if (cpus.value !== undefined) {
    options.n_cpu = cpus.value;
  }
  const memory = form.memory.trim();
  if (memory !== '') {
    if (!/^(\d+(\.\d*)?|\.\d+)\s*(%|[kmgtp](i?b)?|b)?$/i.test(memory)) {
      return { ok: false, error: `memory must be a size such as '4g' or '50%', got '${memory}'` };
    }
    options.memory = memory;
  }
  return { ok: true, value: options };
}

/** The worker count of a scale request. */
export function parseScale(text: string): FormResult<number> {
  const n = wholeField(text, 'workers', 1, MAX_WORKERS);
  if (!n.ok) {
    return n;
  }
  if (n.value === undefined) {
    return { ok: false, error: 'workers: how many should the cluster have?' };
  }
  return { ok: true, value: n.value };
}
