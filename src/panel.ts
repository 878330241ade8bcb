/**
 * The sidebar panel: a view of `PanelModel`, redrawn on each change. The form fields and
 * the host list editor are built once, so a refresh never loses what the user is typing.
 */
import { Message } from '@lumino/messaging';
import { Widget } from '@lumino/widgets';

import { renderClusterList } from './clusters';
import { AdaptControl } from './adapt';
import { PanelModel } from './model';
import { IWorker } from './types';
import { clusterTotals, executionPage, IBar, ITaskRow, workerBars, workerPage } from './view';

/** What the panel's buttons call outside it: JupyterLab commands, in `index.ts`. */
export interface IPanelActions {
  /**
   * Open the dashboard in a Lab tab, at `page` (a `#/...`) under `title` when given: the
   * server's own cluster's, or that of the listed cluster `cluster`.
   */
  openDashboard(page?: string, title?: string, cluster?: string): void;
  insertConnectCode(): void;
  canInsertConnectCode(): boolean;
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text?: string
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) {
    node.className = className;
  }
  if (text !== undefined) {
    node.textContent = text;
  }
  return node;
}

function button(label: string, className: string, onClick: () => void): HTMLButtonElement {
  const b = el('button', `jp-Button jp-mod-styled jp-MarsPanel-button ${className}`, label);
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}

function field(label: string, name: string, placeholder: string): [HTMLLabelElement, HTMLInputElement] {
  const wrapper = el('label', 'jp-MarsPanel-field', label);
  const input = el('input', 'jp-mod-styled');
  input.name = name;
  input.placeholder = placeholder;
  input.size = 6;
  wrapper.appendChild(input);
  return [wrapper, input];
}

function bar(b: IBar): HTMLElement {
  const row = el('div', 'jp-MarsPanel-bar');
  row.dataset.label = b.label;
  if (b.title) {
    row.title = b.title;
  }
  row.appendChild(el('span', 'jp-MarsPanel-barLabel', b.label));
  const track = el('span', 'jp-MarsPanel-barTrack');
  const fill = el('span', 'jp-MarsPanel-barFill');
  fill.style.width = `${(b.fraction * 100).toFixed(1)}%`;
  track.appendChild(fill);
  row.appendChild(track);
  row.appendChild(el('span', 'jp-MarsPanel-barText', b.text));
  return row;
}

export class MarsPanel extends Widget {
  constructor(model: PanelModel, actions: IPanelActions) {
    super();
    this.model = model;
    this._actions = actions;
    this.addClass('jp-MarsPanel');
    this.title.caption = 'Mars cluster';
    this.node.appendChild(this._build());
    this._unlisten = model.onChange(() => this.render());
    this.render();
  }

  readonly model: PanelModel;

  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this._unlisten();
    super.dispose();
  }

  /** The panel reads the cluster only while it is shown. */
  protected onAfterShow(msg: Message): void {
    super.onAfterShow(msg);
    this.model.startPolling();
  }

  protected onAfterHide(msg: Message): void {
    super.onAfterHide(msg);
    this.model.stopPolling();
  }

  /** Bring the shown figures up to date with the model. */
  render(): void {
    const m = this.model;
    const status = m.status;
    const state = status?.state ?? 'unknown';
    this._state.textContent = m.busy ? `${state} (${m.busy}…)` : state;
    this._state.dataset.state = state;
    const info: string[] = [];
    if (status?.kind) {
      info.push(status.kind === 'ssh' ? 'on a host list' : 'on this machine');
    }
    if (status?.state === 'running') {
      info.push(...clusterTotals(status));
    }
    this._info.textContent = info.join(' · ');
    const errors = [m.connectionError, m.actionError, status?.error, status?.supervisor_error];
    this._error.textContent = errors.filter(e => !!e).join('\n');
    this._error.hidden = !this._error.textContent;

    const running = state === 'running';
    const idle = state === 'stopped' || state === 'failed' || state === 'unknown';
    this._startButton.disabled = !!m.busy || !idle;
    this._stopButton.disabled = !!m.busy || idle || state === 'stopping';
    this._scaleButton.disabled = !!m.busy || !running;
    this._dashboardButton.disabled = !running && !m.showsOther;
    this._connectButton.disabled = !running || !this._actions.canInsertConnectCode();

    renderClusterList(this._clusters, m.clusterRows, id => void m.select(id));
    const shown = m.selected;
    this._shown.textContent =
      shown && !shown.own ? `Showing the cluster started by ${shown.started_by}` : '';
    this._shown.hidden = !this._shown.textContent;
    this._adapt.render();
    this._renderWorkers(m.workers);
    this._renderTasks(m.taskRows);
    const hosts = m.hostList;
    if (hosts && hosts !== this._shownHostList) {
      this._shownHostList = hosts;
      this._hostPath.textContent = hosts.configured
        ? hosts.path
        : hosts.path
          ? `none in use: saving writes ${hosts.path}, and clusters then start over SSH on it`
          : 'none configured: set MarsExtension.host_list to keep one';
      this._hostText.value = hosts.text;
      // a host list can be created from here wherever the server says where it would go
      this._hostText.disabled = !hosts.path;
      this._hostSave.disabled = !hosts.path;
    }
  }

  private _renderWorkers(workers: IWorker[]): void {
    this._workers.replaceChildren();
    this._workersHeading.textContent = `Workers (${workers.length})`;
    if (!workers.length) {
      this._workers.appendChild(el('li', 'jp-MarsPanel-empty', 'none'));
    }
    for (const w of workers) {
      const item = el('li', 'jp-MarsPanel-worker');
      item.dataset.address = w.address;
      const title = el('div', 'jp-MarsPanel-workerTitle');
      title.appendChild(
        this._link(w.address, 'jp-MarsPanel-workerName', workerPage(w.address), `Mars: ${w.address}`)
      );
      if (w.running) {
        const tasks = `${w.running} task${w.running === 1 ? '' : 's'}`;
        title.appendChild(el('span', 'jp-MarsPanel-running', tasks));
      }
      item.appendChild(title);
      for (const b of workerBars(w)) {
        item.appendChild(bar(b));
      }
      this._workers.appendChild(item);
    }
  }

  private _renderTasks(rows: ITaskRow[]): void {
    this._tasks.replaceChildren();
    if (!rows.length) {
      this._tasks.appendChild(el('li', 'jp-MarsPanel-empty', 'none yet'));
    }
    for (const row of rows) {
      const item = el('li', 'jp-MarsPanel-task');
      item.dataset.execution = row.executionId;
      item.dataset.state = row.state;
      const head = el('div', 'jp-MarsPanel-taskTitle');
      const page = executionPage(row.sessionId, row.executionId);
      head.appendChild(this._link(row.name, 'jp-MarsPanel-taskName', page, `Mars: ${row.name}`));
      head.appendChild(el('span', 'jp-MarsPanel-taskState', row.state));
      item.appendChild(head);
      item.appendChild(
        bar({ label: 'progress', fraction: row.percent / 100, text: `${row.percent}%` })
      );
      const foot = el('div', 'jp-MarsPanel-taskDetail');
      const detail = row.detail ? `${row.elapsed} · ${row.detail}` : row.elapsed;
      foot.appendChild(el('span', 'jp-MarsPanel-taskText', detail));
      if (row.cancellable) {
        const cancel = button('Cancel', 'jp-MarsPanel-cancel', () => void this.model.cancel(row));
        cancel.title = 'Cancel this task';
        foot.appendChild(cancel);
      }
      item.appendChild(foot);
      this._tasks.appendChild(item);
    }
  }

  /** A name that opens its dashboard page in a Lab tab. */
  private _link(text: string, className: string, page: string, title: string): HTMLElement {
    const link = el('button', `jp-MarsPanel-link ${className}`, text);
    link.type = 'button';
    link.title = 'Open its page of the dashboard in a tab';
    link.addEventListener('click', () => this._openDashboard(page, title));
    return link;
  }

  /** The dashboard of the cluster shown. */
  private _openDashboard(page?: string, title?: string): void {
    const other = this.model.showsOther ? this.model.selected?.id : undefined;
    this._actions.openDashboard(page, title, other);
  }

  private _build(): HTMLElement {
    const root = el('div', 'jp-MarsPanel-body');
    const header = el('header', 'jp-MarsPanel-header');
    header.appendChild(el('h2', '', 'Mars cluster'));
    header.appendChild(this._state);
    root.appendChild(header);
    root.appendChild(this._info);
    root.appendChild(this._error);

    const controls = el('section', 'jp-MarsPanel-controls');
    const [workersLabel, workersInput] = field('workers', 'n_workers', 'default');
    const [cpuLabel, cpuInput] = field('cores each', 'n_cpu', 'default');
    const [memoryLabel, memoryInput] = field('memory each', 'memory', 'e.g. 4g');
    const form = el('div', 'jp-MarsPanel-form');
    form.append(workersLabel, cpuLabel, memoryLabel);
    controls.appendChild(form);
    this._startButton = button('Start', 'jp-mod-accept jp-MarsPanel-start', () => {
      void this.model.start({
        n_workers: workersInput.value,
        n_cpu: cpuInput.value,
        memory: memoryInput.value
      });
    });
    this._stopButton = button('Stop', 'jp-mod-warn jp-MarsPanel-stop', () => void this.model.stop());
    const [scaleLabel, scaleInput] = field('scale to', 'scale', 'workers');
    this._scaleButton = button('Scale', 'jp-MarsPanel-scale', () => void this.model.scale(scaleInput.value));
    const row1 = el('div', 'jp-MarsPanel-row');
    row1.append(this._startButton, this._stopButton);
    const row2 = el('div', 'jp-MarsPanel-row');
    row2.append(scaleLabel, this._scaleButton);
    this._dashboardButton = button('Open dashboard', 'jp-MarsPanel-dashboard', () =>
      this._openDashboard()
    );
    this._dashboardButton.title = 'The dashboard of the cluster shown, in a tab';
    this._stopButton.title = "Stop this Jupyter server's cluster";
    this._connectButton = button('Insert connect code', 'jp-MarsPanel-connect', () =>
      this._actions.insertConnectCode()
    );
    this._connectButton.title = 'Insert a cell that connects the notebook to this cluster';
    const row3 = el('div', 'jp-MarsPanel-row');
    row3.append(this._dashboardButton, this._connectButton);
    this._adapt = new AdaptControl(this.model);
    controls.append(row1, row2, this._adapt.node, row3);
    root.appendChild(controls);

    const clusters = el('section', 'jp-MarsPanel-clusters');
    clusters.append(el('h3', '', 'Clusters on this machine'), this._clusters, this._shown);
    root.appendChild(clusters);

    const workers = el('section', 'jp-MarsPanel-workers');
    workers.append(this._workersHeading, this._workers);
    root.appendChild(workers);

    const tasks = el('section', 'jp-MarsPanel-tasks');
    tasks.append(el('h3', '', 'Tasks'), this._tasks);
    root.appendChild(tasks);

    const hosts = el('details', 'jp-MarsPanel-hosts');
    hosts.appendChild(el('summary', '', 'Host list'));
    hosts.addEventListener('toggle', () => {
      if (hosts.open && !this.model.hostList) {
        void this.model.loadHostList();
      }
    });
    this._hostText.rows = 8;
    this._hostText.spellcheck = false;
    this._hostText.placeholder = 'hosts:\n  - 10.0.0.5\n  - {address: 10.0.0.6, n_cpu: 8}';
    this._hostSave = button('Save', 'jp-MarsPanel-saveHosts', () => {
      this._hostStatus.textContent = '';
      void this.model.saveHostList(this._hostText.value).then(() => {
        const saved = !this.model.actionError;
        this._hostStatus.textContent = saved ? `saved ${new Date().toLocaleTimeString()}` : '';
      });
    });
    const reload = button('Reload', 'jp-MarsPanel-reloadHosts', () => void this.model.loadHostList());
    const hostButtons = el('div', 'jp-MarsPanel-row');
    hostButtons.append(this._hostSave, reload, this._hostStatus);
    hosts.append(this._hostPath, this._hostText, hostButtons);
    root.appendChild(hosts);
    return root;
  }

  private _actions: IPanelActions;
  private _unlisten: () => void;
  private _state = el('span', 'jp-MarsPanel-state');
  private _info = el('div', 'jp-MarsPanel-info');
  private _error = el('pre', 'jp-MarsPanel-error');
  private _clusters = el('ul', 'jp-MarsPanel-list jp-MarsPanel-clusterList');
  private _shown = el('div', 'jp-MarsPanel-shown');
  private _workersHeading = el('h3', '', 'Workers');
  private _workers = el('ul', 'jp-MarsPanel-list');
  private _tasks = el('ul', 'jp-MarsPanel-list');
  private _hostPath = el('div', 'jp-MarsPanel-hostPath');
  private _hostText = el('textarea', 'jp-MarsPanel-hostText jp-mod-styled');
  private _hostStatus = el('span', 'jp-MarsPanel-hostStatus');
  private _shownHostList: unknown = null;
  private _startButton!: HTMLButtonElement;
  private _stopButton!: HTMLButtonElement;
  private _scaleButton!: HTMLButtonElement;
  private _dashboardButton!: HTMLButtonElement;
  private _connectButton!: HTMLButtonElement;
  private _hostSave!: HTMLButtonElement;
  private _adapt!: AdaptControl;
}
