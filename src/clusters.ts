/**
 * The panel's list of this machine's clusters: which one the panel shows (pure, tested in
 * Node) and the list's DOM (built only when called, in the browser).
 */
import { IListedCluster } from './types';
import { clusterTotals } from './view';

/**
 * The cluster whose workers and tasks the panel shows: the one the user picked while it
 * is still listed, else the first listed (the server's own when it runs, which the server
 * lists first), else none (the panel then shows the server's own, stopped).
 */
export function chooseCluster(
  clusters: IListedCluster[],
  picked: string | null
): IListedCluster | null {
  if (picked !== null) {
    const found = clusters.find(c => c.id === picked);
    if (found) {
      return found;
    }
  }
  return clusters[0] ?? null;
}

/** A line of the cluster list. */
export interface IClusterRow {
  id: string;
  own: boolean;
  selected: boolean;
  /** Who started it: "this Jupyter server", "notebook a.ipynb"... */
  title: string;
  /** Its address, size and running tasks, or that its supervisor did not answer. */
  detail: string;
  /** How it is stopped, when not from the panel. */
  hint: string | null;
  /** Why its supervisor did not answer; null when it did. */
  error: string | null;
}

export function clusterRows(clusters: IListedCluster[], selected: string | null): IClusterRow[] {
  return clusters.map(c => {
    const running = c.tasks.length;
    const parts = [c.endpoint];
    if (!c.supervisor_error) {
      parts.push(...clusterTotals(c));
      parts.push(running ? `${running} running` : 'idle');
    }
    return {
      id: c.id,
      own: c.own,
      selected: c.id === selected,
      title: c.own ? 'this Jupyter server' : c.started_by,
      detail: parts.join(' · '),
      hint: c.stop_hint,
      error: c.supervisor_error
    };
  });
}

/** Draw the rows into `list`; a click on one calls `onSelect` with its id. */
export function renderClusterList(
  list: HTMLElement,
  rows: IClusterRow[],
  onSelect: (id: string) => void
): void {
  list.replaceChildren();
  if (!rows.length) {
    const empty = document.createElement('li');
    empty.className = 'jp-MarsPanel-empty';
    empty.textContent = 'none running';
    list.appendChild(empty);
  }
  for (const row of rows) {
    const item = document.createElement('li');
    item.className = 'jp-MarsPanel-cluster' + (row.selected ? ' jp-mod-selected' : '');
    item.dataset.cluster = row.id;
    item.dataset.own = String(row.own);
    const pick = document.createElement('button');
    pick.type = 'button';
    pick.className = 'jp-MarsPanel-link jp-MarsPanel-clusterName';
    pick.textContent = row.title;
    pick.title = 'Show its workers and tasks';
    pick.addEventListener('click', () => onSelect(row.id));
    item.appendChild(pick);
    const detail = document.createElement('div');
    detail.className = 'jp-MarsPanel-clusterDetail';
    detail.textContent = row.error ? `${row.detail} · not answering: ${row.error}` : row.detail;
    item.appendChild(detail);
    if (row.hint) {
      const hint = document.createElement('div');
      hint.className = 'jp-MarsPanel-clusterHint';
      hint.textContent = row.hint;
      item.appendChild(hint);
    }
    list.appendChild(item);
  }
}
