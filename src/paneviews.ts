/**
 * The dashboard's cards that open as JupyterLab panes of their own: which there are, their
 * ids, addresses and where a pane may be docked. No DOM and no JupyterLab here, so it is
 * tested in Node.
 */

/** One card of the dashboard, as a pane. */
export interface IPaneView {
  /** The dashboard's `?view=` name of the card. */
  view: string;
  /** The pane's tab title, and its entry in the Mars menu. */
  title: string;
  /** What it shows, for the palette and the tab's tooltip. */
  caption: string;
}

/** Every card, in the order the menu lists them; the dashboard knows the same names. */
export const PANE_VIEWS: readonly IPaneView[] = [
  {
    view: 'tasks',
    title: 'Task Stream',
    caption: 'The tasks on each worker over the last minutes, a lane each'
  },
  {
    view: 'progress',
    title: 'Progress',
    caption: "Each session's executions: state, progress, chunks done by operator"
  },
  {
    view: 'memory',
    title: 'Memory per Worker',
    caption: "Each worker's memory over the last minutes"
  },
  { view: 'cpu', title: 'CPU per Worker', caption: "Each worker's CPU over the last minutes" },
  {
    view: 'workers',
    title: 'Workers',
    caption: 'The workers and their figures: CPU, memory, store, transfers, GPU, tasks'
  },
  { view: 'supervisors', title: 'Supervisors', caption: "The cluster's supervisors and roles" }
];

/** Where a pane may go, beside the widget `ref` (or the active one), as Lab's DockPanel says. */
export const DOCK_MODES = [
  'split-right',
  'split-left',
  'split-top',
  'split-bottom',
  'tab-after',
  'tab-before'
] as const;

export type DockMode = (typeof DOCK_MODES)[number];

/** The pane of `view`; an Error naming the argument and the views there are otherwise. */
export function paneView(view: unknown): IPaneView {
  const found = PANE_VIEWS.find(p => p.view === view);
  if (!found) {
    const known = PANE_VIEWS.map(p => p.view).join(', ');
    throw new Error(`'view' must be one of ${known}, not ${JSON.stringify(view)}`);
  }
  return found;
}

/** The id of the pane of `view`: one pane per view, opened again it is shown. */
export function paneId(view: string): string {
  return `jupyter-mars-pane-${view}`;
}

/** The card's address through the Jupyter server at `baseUrl`, whatever cluster runs. */
export function paneUrl(baseUrl: string, view: string): string {
  const base = baseUrl.endsWith('/') ? baseUrl : baseUrl + '/';
  return `${base}mars/dashboard/?view=${encodeURIComponent(view)}`;
}

/** The command's label: the card's title in the menu, with what it does in the palette. */
export function paneLabel(view: unknown, isPalette: boolean): string {
  const known = PANE_VIEWS.find(p => p.view === view);
  const title = known ? known.title : 'Pane';
  return isPalette ? `Open Mars ${title}` : title;
}

/** Where the command's `mode` and `ref` say to put the pane; an Error for anything else. */
export function dockOptions(args: {
  mode?: unknown;
  ref?: unknown;
}): { mode?: DockMode; ref?: string } {
  const options: { mode?: DockMode; ref?: string } = {};
  if (args.mode !== undefined && args.mode !== null && args.mode !== '') {
    if (!(DOCK_MODES as readonly unknown[]).includes(args.mode)) {
      throw new Error(`'mode' must be one of ${DOCK_MODES.join(', ')}, not ${JSON.stringify(args.mode)}`);
    }
    options.mode = args.mode as DockMode;
  }
  if (args.ref !== undefined && args.ref !== null && args.ref !== '') {
    if (typeof args.ref !== 'string') {
      throw new Error(`'ref' must be the id of a widget, not ${JSON.stringify(args.ref)}`);
    }
    options.ref = args.ref;
  }
  return options;
}

/**
 * What a pane says when its frame holds something other than the dashboard: the Jupyter
 * server's answer while no cluster runs (JSON with a `message`), its own words otherwise.
 */
export function notShownMessage(body: string): string {
  let said = '';
  try {
    const data = JSON.parse(body);
    if (data && typeof data.message === 'string') {
      said = data.message;
    }
  } catch {
    said = '';
  }
  const why = said || 'the dashboard did not load';
  return `${why}. This pane shows the card once a cluster runs.`;
}
