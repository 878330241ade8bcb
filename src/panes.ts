/**
 * The dashboard's cards as Lab panes of their own (task stream, progress, memory, ...):
 * each a main-area widget framing the dashboard at `?view=<card>`, docked anywhere as any
 * Lab widget is, opened from the palette or the Mars menu (declared in
 * `schema/panes.json`), and reopened where it was when the page is reloaded.
 *
 * A pane frames `<base_url>mars/dashboard/`, which the Jupyter server forwards to whatever
 * cluster it runs now: a pane restored or reconnected meets the current cluster. While the
 * cluster is stopped the card says so itself (its stream retries); a pane opened while
 * none runs shows the server's words and loads the card again until one does.
 */
import { ILayoutRestorer, JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ICommandPalette, IFrame, MainAreaWidget, WidgetTracker } from '@jupyterlab/apputils';
import { LabIcon } from '@jupyterlab/ui-components';

import {
  dockOptions,
  IPaneView,
  notShownMessage,
  PANE_VIEWS,
  paneId,
  paneLabel,
  paneUrl,
  paneView
} from './paneviews';

export namespace PaneCommandIDs {
  /** Args: `view` (one of PANE_VIEWS), optional `mode` and `ref` to dock it beside `ref`. */
  export const openPane = 'jupyter-mars:open-pane';
}

/** How long a pane whose frame holds no dashboard waits before loading it again. */
const RETRY_MS = 3000;

/** One card of the dashboard in a Lab tab. */
export class DashboardPane extends MainAreaWidget<IFrame> {
  constructor(readonly pane: IPaneView, url: string) {
    const frame = new IFrame({ sandbox: ['allow-scripts', 'allow-same-origin', 'allow-forms'] });
    frame.url = url;
    super({ content: frame });
    this.id = paneId(pane.view);
    this.addClass('jp-MarsPane');
    this.node.dataset.view = pane.view;
    this.title.label = `Mars ${pane.title}`;
    this.title.caption = pane.caption;
    this.title.icon = LabIcon.resolve({ icon: 'jupyter_mars:mars' });
    this.title.closable = true;
    this._notice.className = 'jp-MarsPane-notice';
    this._notice.hidden = true;
    frame.node.append(this._notice);
    this._iframe = frame.node.querySelector('iframe');
    this._iframe?.addEventListener('load', () => this._loaded());
  }

  dispose(): void {
    window.clearTimeout(this._retry);
    super.dispose();
  }

  /** The frame's page is the dashboard, or the pane says why not and loads it again soon. */
  private _loaded(): void {
    window.clearTimeout(this._retry);
    let page: Document | null = null;
    try {
      page = this._iframe?.contentDocument ?? null;
    } catch {
      page = null; // not this origin's page: treated as not the dashboard
    }
    const isDashboard = !!page?.getElementById('view-cluster');
    this.node.dataset.shown = isDashboard ? 'dashboard' : 'waiting';
    this._notice.hidden = isDashboard;
    if (isDashboard) {
      return;
    }
    this._notice.textContent = notShownMessage(page?.body?.textContent ?? '');
    this._retry = window.setTimeout(() => {
      this._iframe?.contentWindow?.location.reload();
    }, RETRY_MS);
  }

  private _iframe: HTMLIFrameElement | null;
  private _notice = document.createElement('div');
  private _retry = 0;
}

const panes: JupyterFrontEndPlugin<void> = {
  id: 'jupyter_mars:panes',
  description: "The Mars dashboard's cards as dockable Lab panes",
  autoStart: true,
  optional: [ILayoutRestorer, ICommandPalette],
  activate: (
    app: JupyterFrontEnd,
    restorer: ILayoutRestorer | null,
    palette: ICommandPalette | null
  ) => {
    const { commands, shell } = app;
    const tracker = new WidgetTracker<DashboardPane>({ namespace: 'jupyter-mars-pane' });

    commands.addCommand(PaneCommandIDs.openPane, {
      label: args => paneLabel(args.view, !!args.isPalette),
      caption: args =>
        PANE_VIEWS.find(p => p.view === args.view)?.caption ??
        'A card of the Mars dashboard in a pane of its own',
      execute: args => {
        const pane = paneView(args.view);
        const where = dockOptions(args);
        let widget = tracker.find(w => w.pane.view === pane.view);
        if (!widget) {
          const url = paneUrl(app.serviceManager.serverSettings.baseUrl, pane.view);
          widget = new DashboardPane(pane, url);
          void tracker.add(widget);
          shell.add(widget, 'main', where);
        } else if (where.mode) {
          shell.add(widget, 'main', where); // moved where it was asked to go
        }
        shell.activateById(widget.id);
        return widget;
      }
    });
    for (const pane of PANE_VIEWS) {
      palette?.addItem({
        command: PaneCommandIDs.openPane,
        category: 'Mars',
        args: { view: pane.view, isPalette: true }
      });
    }
    void restorer?.restore(tracker, {
      command: PaneCommandIDs.openPane,
      args: widget => ({ view: widget.pane.view }),
      name: widget => widget.pane.view
    });
  }
};

export default panes;
