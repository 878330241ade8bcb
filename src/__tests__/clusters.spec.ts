import { chooseCluster, clusterRows } from '../clusters';
import { listed, task, worker } from './fixtures';

describe('chooseCluster', () => {
  const own = listed('own', true);
  const nb = listed('nb');
  it('keeps the picked cluster while it is listed, else shows the first', () => {
    expect(chooseCluster([own, nb], 'nb')).toBe(nb);
    expect(chooseCluster([own, nb], null)).toBe(own);
    expect(chooseCluster([own], 'nb')).toBe(own);
    expect(chooseCluster([nb], null)).toBe(nb);
    expect(chooseCluster([], 'nb')).toBeNull();
  });
});

describe('clusterRows', () => {
  it("names who started each, its size and running tasks, and how another's is stopped", () => {
    const nb = listed('nb', false, [worker('w0'), worker('w1')], [task('e1', 'running', 0.5)]);
    const rows = clusterRows([listed('own', true, [worker('w0')]), nb], 'nb');
    expect(rows.map(r => [r.id, r.own, r.selected, r.title])).toEqual([
      ['own', true, false, 'this Jupyter server'],
      ['nb', false, true, 'notebook nb.ipynb']
    ]);
    expect(rows[0].detail).toBe('http://127.0.0.1:9/own · 1 worker on 1 host · 2 cores · 1.0 GiB memory · idle');
    expect(rows[1].detail).toBe(
      'http://127.0.0.1:9/nb · 2 workers on 1 host · 4 cores · 1.0 GiB memory · 1 running'
    );
    expect(rows[0].hint).toBeNull();
    expect(rows[1].hint).toBe('started by notebook nb.ipynb: stop it there with %mars stop');
  });

  it('shows a cluster whose supervisor does not answer by its address and the reason', () => {
    const mute = { ...listed('mute'), supervisor_error: 'the supervisor did not answer' };
    const [row] = clusterRows([mute], null);
    expect(row.detail).toBe('http://127.0.0.1:9/mute');
    expect(row.error).toBe('the supervisor did not answer');
  });
});
