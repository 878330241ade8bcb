import {
  clusterTotals,
  connectCode,
  executionPage,
  formatBytes,
  formatSeconds,
  fraction,
  parseScale,
  parseStartForm,
  taskRows,
  workerBars,
  workerPage
} from '../view';
import { status, task, worker } from './fixtures';

describe('figures', () => {
  it('writes bytes in powers of 1024', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(8 * 1024 ** 3)).toBe('8.0 GiB');
    expect(formatBytes(300 * 1024 ** 2)).toBe('300 MiB');
    expect(formatBytes(null)).toBe('?');
    expect(formatBytes(-1)).toBe('?');
  });

  it('writes seconds, minutes and hours', () => {
    expect(formatSeconds(1.25)).toBe('1.3 s');
    expect(formatSeconds(125)).toBe('2 min 5 s');
    expect(formatSeconds(3 * 3600 + 120)).toBe('3 h 2 min');
    expect(formatSeconds(undefined)).toBe('?');
  });

  it('keeps fractions within 0 and 1', () => {
    expect(fraction(1, 4)).toBe(0.25);
    expect(fraction(5, 4)).toBe(1);
    expect(fraction(-1, 4)).toBe(0);
    expect(fraction(1, 0)).toBe(0);
    expect(fraction(null, 4)).toBe(0);
  });
});

describe('workerBars', () => {
  it('shows CPU of the worker own cores and memory of its limit', () => {
    const bars = workerBars(
      worker('127.0.0.1:7101', {
        cpu_used: 1.5,
        memory_rss: 512 * 1024 ** 2,
        memory_total: 16 * 1024 ** 3,
        store: { phy_mem_bytes: 2 * 1024 ** 3 }
      })
    );
    expect(bars.map(b => b.label)).toEqual(['CPU', 'memory']);
    expect(bars[0].fraction).toBe(0.75);
    expect(bars[0].text).toBe('1.5 / 2 cores');
    expect(bars[1].fraction).toBe(0.25);
    expect(bars[1].text).toBe('512 MiB / 2.0 GiB');
  });

  it('shows memory of the worker share of a machine it shares with others', () => {
    const shared = worker('127.0.0.1:7102', {
      memory_rss: 1024 ** 3,
      memory_total: 16 * 1024 ** 3,
      store: { phy_mem_bytes: 16 * 1024 ** 3 }
    });
    shared.memory_share = 8 * 1024 ** 3;
    const memory = workerBars(shared)[1];
    expect(memory.text).toBe('1.0 GiB / 8.0 GiB');
    expect(memory.fraction).toBe(0.125);
  });

  it('never shows CPU below zero or above the cores', () => {
    const over = workerBars(worker('w', { cpu_used: 7 }, 2))[0];
    expect(over.fraction).toBe(1);
    expect(over.text).toBe('2.0 / 2 cores');
    const under = workerBars(worker('w', { cpu_used: -1 }, 2))[0];
    expect(under.fraction).toBe(0);
  });

  it('falls back on the machine memory and adds a bar pair per GPU', () => {
    const bars = workerBars(
      worker('w', {
        memory_rss: 1024 ** 3,
        memory_total: 4 * 1024 ** 3,
        gpus: [{ index: 0, name: 'H100', utilization: 40, memory_used: 1024 ** 3, memory_total: 8 * 1024 ** 3 }]
      })
    );
    expect(bars.map(b => b.label)).toEqual(['CPU', 'memory', 'GPU 0', 'GPU 0 memory']);
    expect(bars[1].fraction).toBe(0.25);
    expect(bars[2]).toEqual({ label: 'GPU 0', fraction: 0.4, text: '40%', title: 'GPU 0: H100' });
    expect(bars[3].fraction).toBe(0.125);
  });

  it('shows each GPU of a worker with its temperature and power where they are known', () => {
    const bars = workerBars(
      worker('w', {
        gpus: [
          {
            index: 0,
            name: 'NVIDIA H100 80GB HBM3',
            utilization: 87.4,
            memory_used: 60 * 1024 ** 3,
            memory_total: 80 * 1024 ** 3,
            temperature_c: 64,
            power_w: 512.3
          },
          {
            index: 1,
            name: 'NVIDIA H100 80GB HBM3',
            utilization: 0,
            memory_used: 0,
            memory_total: 80 * 1024 ** 3,
            temperature_c: 31,
            power_w: null
          }
        ]
      })
    );
    expect(bars.map(b => b.label)).toEqual(['CPU', 'memory', 'GPU 0', 'GPU 0 memory', 'GPU 1', 'GPU 1 memory']);
    expect(bars[2]).toMatchObject({
      label: 'GPU 0',
      text: '87% · 64 °C · 512 W',
      title: 'GPU 0: NVIDIA H100 80GB HBM3'
    });
    expect(bars[2].fraction).toBeCloseTo(0.874);
    expect(bars[3].text).toBe('60.0 GiB / 80.0 GiB');
    expect(bars[3].fraction).toBe(0.75);
    expect(bars[4].text).toBe('0% · 31 °C'); // no power figure: none said
    expect(bars[4].fraction).toBe(0);
  });

  it('shows nothing of GPUs for a worker without one', () => {
    for (const resources of [{ gpus: [] }, {}]) {
      const bars = workerBars(worker('w', { cpu_used: 1, ...resources }));
      expect(bars.map(b => b.label)).toEqual(['CPU', 'memory']);
      expect(bars.some(b => /GPU/.test(`${b.label} ${b.text} ${b.title ?? ''}`))).toBe(false);
    }
  });

  it('says ? for figures a GPU does not give', () => {
    const bars = workerBars(
      worker('w', {
        gpus: [{ index: 1, utilization: null, memory_used: null, memory_total: null, temperature_c: null, power_w: null }]
      })
    );
    expect(bars[2].text).toBe('?');
    expect(bars[2].title).toBeUndefined(); // no name to tell
    expect(bars[3].text).toBe('? / ?');
    expect(bars[3].fraction).toBe(0);
  });
});

describe('taskRows', () => {
  it('puts running tasks first, newest first, then the finished ones', () => {
    const rows = taskRows([
      task('execution-1-aaaaaaaa', 'succeeded', 1),
      task('execution-2-bbbbbbbb', 'running', 0.5),
      task('execution-3-cccccccc', 'failed', 0.25),
      task('execution-4-dddddddd', 'running', 0.1)
    ]);
    expect(rows.map(r => r.name)).toEqual(['4-dddddddd', '2-bbbbbbbb', '3-cccccccc', '1-aaaaaaaa']);
    expect(rows[0].executionId).toBe('execution-4-dddddddd');
    expect(rows.map(r => r.cancellable)).toEqual([true, true, false, false]);
    expect(rows[1].percent).toBe(50);
    expect(rows[1].detail).toBe('2 / 4 chunks');
  });

  it('names a task as its client did, or by its id where it has no name', () => {
    const named = { ...task('execution-5-eeeeeeee', 'running', 0.2), name: 'sum(matmul)' };
    const rows = taskRows([named, task('execution-6-ffffffff', 'running', 0.1)]);
    expect(rows.map(r => r.name)).toEqual(['6-ffffffff', 'sum(matmul)']);
  });

  it('shows 100% only for a task that succeeded', () => {
    expect(taskRows([task('x', 'running', 0.999)])[0].percent).toBe(99);
    expect(taskRows([task('x', 'running', 1)])[0].percent).toBe(99);
    expect(taskRows([task('x', 'succeeded', 1)])[0].percent).toBe(100);
    expect(taskRows([task('x', 'running', 7)])[0].percent).toBe(99);
  });

  it('keeps the error of a failed task and limits the rows', () => {
    const failed = { ...task('x', 'failed', 0.5), error: 'ZeroDivisionError: division by zero' };
    expect(taskRows([failed])[0].detail).toBe('ZeroDivisionError: division by zero');
    const many = Array.from({ length: 20 }, (_, i) => task(`t${i}`, 'succeeded', 1));
    expect(taskRows(many, 5).map(r => r.executionId)).toEqual(['t19', 't18', 't17', 't16', 't15']);
  });
});

describe('forms', () => {
  it('sends only the fields given', () => {
    expect(parseStartForm({ n_workers: '', n_cpu: '', memory: '' })).toEqual({ ok: true, value: {} });
    expect(parseStartForm({ n_workers: ' 3 ', n_cpu: '2', memory: '4g' })).toEqual({
      ok: true,
      value: { n_workers: 3, n_cpu: 2, memory: '4g' }
    });
    for (const memory of ['512m', '1.5GiB', '80%', '1048576', '2 gb']) {
      expect(parseStartForm({ n_workers: '', n_cpu: '', memory }).ok).toBe(true);
    }
  });

  it('names the field a mistake is in', () => {
    expect(parseStartForm({ n_workers: 'two', n_cpu: '', memory: '' })).toEqual({
      ok: false,
      error: "workers must be a whole number from 1 to 256, got 'two'"
    });
    expect(parseStartForm({ n_workers: '0', n_cpu: '', memory: '' }).ok).toBe(false);
    expect(parseStartForm({ n_workers: '1000', n_cpu: '', memory: '' }).ok).toBe(false);
    const cpu = parseStartForm({ n_workers: '', n_cpu: '1.5', memory: '' });
    expect(cpu.ok === false && cpu.error).toBe("cores per worker must be a whole number at least 1, got '1.5'");
    const memory = parseStartForm({ n_workers: '', n_cpu: '', memory: 'lots' });
    expect(memory.ok === false && memory.error).toMatch(/^memory must be a size/);
  });

  it('asks how many workers to scale to', () => {
    expect(parseScale('4')).toEqual({ ok: true, value: 4 });
    expect(parseScale('').ok).toBe(false);
    expect(parseScale('-2').ok).toBe(false);
  });
});

it('connect code loads the extension and connects to the published cluster', () => {
  const lines = connectCode().split('\n');
  expect(lines[0]).toBe('%load_ext jupyter_mars');
  expect(lines[lines.length - 1]).toBe('%mars connect');
});

it('addresses the dashboard pages of an execution and of a worker', () => {
  expect(executionPage('s-1', 'execution-3-ab')).toBe('#/execution/s-1/execution-3-ab');
  expect(workerPage('127.0.0.1:7101')).toBe('#/worker/127.0.0.1%3A7101');
});

describe('clusterTotals', () => {
  it('says the supervisor totals, each machine counted once', () => {
    const running = status('running', [worker('a:1'), worker('a:2')]);
    running.n_hosts = 1;
    running.n_cpu = 2;
    running.memory = 23.5 * 1024 ** 3;
    expect(clusterTotals(running)).toEqual(['2 workers on 1 host', '2 cores', '23.5 GiB memory']);
  });
});
