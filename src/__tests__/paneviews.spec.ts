import {
  dockOptions,
  notShownMessage,
  PANE_VIEWS,
  paneId,
  paneLabel,
  paneUrl,
  paneView
} from '../paneviews';

describe('pane views', () => {
  it('lists each card once, with the names the dashboard knows', () => {
    const views = PANE_VIEWS.map(p => p.view);
    expect(views).toEqual(['tasks', 'progress', 'memory', 'cpu', 'workers', 'supervisors']);
    expect(new Set(PANE_VIEWS.map(p => p.title)).size).toBe(views.length);
  });

  it('finds a view by name and names the argument when it is wrong', () => {
    expect(paneView('tasks').title).toBe('Task Stream');
    expect(() => paneView('gantt')).toThrow(
      "'view' must be one of tasks, progress, memory, cpu, workers, supervisors, not \"gantt\""
    );
    expect(() => paneView(undefined)).toThrow("'view' must be one of");
  });

  it('gives one id per view', () => {
    expect(paneId('memory')).toBe('jupyter-mars-pane-memory');
    const ids = PANE_VIEWS.map(p => paneId(p.view));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('points at the dashboard under the Jupyter base URL', () => {
    expect(paneUrl('/jl/', 'tasks')).toBe('/jl/mars/dashboard/?view=tasks');
    expect(paneUrl('http://127.0.0.1:8888/a', 'cpu')).toBe(
      'http://127.0.0.1:8888/a/mars/dashboard/?view=cpu'
    );
  });

  it('labels the menu entry by title and the palette entry by what it does', () => {
    expect(paneLabel('progress', false)).toBe('Progress');
    expect(paneLabel('progress', true)).toBe('Open Mars Progress');
    expect(paneLabel('nothing', true)).toBe('Open Mars Pane');
  });
});

describe('docking', () => {
  it('passes a mode and a reference on', () => {
    expect(dockOptions({})).toEqual({});
    expect(dockOptions({ mode: 'split-right', ref: 'jupyter-mars-pane-tasks' })).toEqual({
      mode: 'split-right',
      ref: 'jupyter-mars-pane-tasks'
    });
    expect(dockOptions({ mode: '', ref: null })).toEqual({});
  });

  it('refuses a mode or a reference that is not one, naming it', () => {
    expect(() => dockOptions({ mode: 'left' })).toThrow("'mode' must be one of split-right");
    expect(() => dockOptions({ ref: 3 })).toThrow("'ref' must be the id of a widget, not 3");
  });
});

describe('a frame without the dashboard', () => {
  it("says the server's message, and that the pane waits for a cluster", () => {
    const body = JSON.stringify({ message: 'no cluster is running: start one', reason: 'x' });
    expect(notShownMessage(body)).toBe(
      'no cluster is running: start one. This pane shows the card once a cluster runs.'
    );
  });

  it('says the dashboard did not load when the page says nothing it can read', () => {
    expect(notShownMessage('<h1>Bad Gateway</h1>')).toBe(
      'the dashboard did not load. This pane shows the card once a cluster runs.'
    );
    expect(notShownMessage('null')).toContain('the dashboard did not load');
  });
});
