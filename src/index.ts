/**
 * jupyter_mars in JupyterLab: the cluster panel in the left sidebar, the dashboard in a
 * Lab tab, its cards as panes of their own (`panes.ts`), and a command that inserts the
 * connect code into the active notebook.
 */
import {
  ILayoutRestorer,
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette, IFrame, MainAreaWidget } from '@jupyterlab/apputils';
import { INotebookTracker, NotebookActions } from '@jupyterlab/notebook';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import { LabIcon } from '@jupyterlab/ui-components';

import { clusterDashboardUrl, dashboardUrl, MarsApi } from './api';
import { DEFAULT_REFRESH_SECONDS, PanelModel } from './model';
import { MarsPanel } from './panel';
import panes from './panes';
import { connectCode } from './view';

const PLUGIN_ID = 'jupyter_mars:plugin';

export namespace CommandIDs {
  export const openPanel = 'jupyter-mars:open-panel';
  export const openDashboard = 'jupyter-mars:open-dashboard';
  export const insertConnect = 'jupyter-mars:insert-connect-code';
}

const MARS_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">
<circle class="jp-icon3" cx="8" cy="8" r="6.5" fill="#616161"/>
<circle cx="5.5" cy="6" r="1.4" fill="#fff" opacity="0.7"/>
<circle cx="10" cy="10" r="1.8" fill="#fff" opacity="0.5"/>
</svg>`;

export const marsIcon = new LabIcon({ name: 'jupyter_mars:mars', svgstr: MARS_SVG });

const plugin: JupyterFrontEndPlugin<void> = {
  id: PLUGIN_ID,
  description: 'The Mars cluster of this Jupyter server: workers, tasks and controls',
  autoStart: true,
  optional: [ILayoutRestorer, ICommandPalette, INotebookTracker, ISettingRegistry],
  activate: (
    app: JupyterFrontEnd,
    restorer: ILayoutRestorer | null,
    palette: ICommandPalette | null,
    notebooks: INotebookTracker | null,
    settings: ISettingRegistry | null
  ) => {
    const api = new MarsApi(app.serviceManager.serverSettings);
    const model = new PanelModel(api);
    const { commands, shell } = app;
    const category = 'Mars';
    let dashboards = 0;

    commands.addCommand(CommandIDs.openDashboard, {
      label: 'Open the Mars Dashboard',
      caption: 'The cluster dashboard, served through this Jupyter server',
      execute: args => {
        const page = typeof args.page === 'string' ? args.page : '';
        const label = typeof args.title === 'string' && args.title ? args.title : 'Mars Dashboard';
        // another cluster of this machine than the server's own, by its id
        const cluster = typeof args.cluster === 'string' ? args.cluster : '';
        const frame = new IFrame({
          sandbox: ['allow-scripts', 'allow-same-origin', 'allow-forms']
        });
        frame.url = cluster
          ? clusterDashboardUrl(api.settings, cluster, page)
          : dashboardUrl(api.settings, page);
        const tab = new MainAreaWidget({ content: frame });
        tab.id = `jupyter-mars-dashboard-${++dashboards}`;
        tab.title.label = label;
        tab.title.icon = marsIcon;
        tab.title.closable = true;
        shell.add(tab, 'main');
        shell.activateById(tab.id);
      }
    });

    commands.addCommand(CommandIDs.insertConnect, {
      label: 'Insert Mars Connect Code',
      caption: 'Insert a cell above the active one that connects the notebook to the cluster',
      isEnabled: () => !!notebooks?.currentWidget,
      execute: () => {
        const current = notebooks?.currentWidget;
        if (!current) {
          return;
        }
        const notebook = current.content;
        NotebookActions.insertAbove(notebook);
        notebook.activeCell?.model.sharedModel.setSource(connectCode());
        shell.activateById(current.id);
      }
    });

    const panel = new MarsPanel(model, {
      openDashboard: (page, title, cluster) =>
        void commands.execute(CommandIDs.openDashboard, {
          page: page ?? '',
          title: title ?? '',
          cluster: cluster ?? ''
        }),
      insertConnectCode: () => void commands.execute(CommandIDs.insertConnect),
      canInsertConnectCode: () => commands.isEnabled(CommandIDs.insertConnect)
    });
    panel.id = 'jupyter-mars-panel';
    panel.title.icon = marsIcon;
    shell.add(panel, 'left', { rank: 600 });
    restorer?.add(panel, 'jupyter-mars-panel');
    notebooks?.currentChanged.connect(() => panel.render());

    commands.addCommand(CommandIDs.openPanel, {
      label: 'Show the Mars Cluster Panel',
      execute: () => shell.activateById(panel.id)
    });
    for (const command of Object.values(CommandIDs)) {
      palette?.addItem({ command, category });
    }

    const applySettings = (s: ISettingRegistry.ISettings) => {
      const seconds = s.get('refreshSeconds').composite as number;
      model.refreshSeconds = seconds ?? DEFAULT_REFRESH_SECONDS;
    };
    if (settings) {
      settings
        .load(PLUGIN_ID)
        .then(s => {
          applySettings(s);
          s.changed.connect(applySettings);
        })
        .catch(reason => console.error('jupyter_mars: settings not loaded', reason));
    }
  }
};

export default [plugin, panes];
