/**
 * The server extension's API over HTTP, with the Jupyter server's own settings (its base
 * URL, and the token or XSRF cookie it wants).
 */
import { URLExt } from '@jupyterlab/coreutils';
import { ServerConnection } from '@jupyterlab/services';

import {
  IAdaptBounds,
  IClusterStatus,
  IHostList,
  IListedCluster,
  IMarsApi,
  IStartOptions,
  ITask
} from './types';

/** A refused request, with the server's message. */
export class MarsApiError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
  }
}

/** The dashboard's address through the Jupyter server; `page` a `#/...` of one of its pages. */
export function dashboardUrl(settings: ServerConnection.ISettings, page = ''): string {
  return URLExt.join(settings.baseUrl, 'mars', 'dashboard') + '/' + page;
}

/** The dashboard of a listed cluster (`clusterId`), through the Jupyter server. */
export function clusterDashboardUrl(
  settings: ServerConnection.ISettings,
  clusterId: string,
  page = ''
): string {
  return URLExt.join(settings.baseUrl, 'mars', 'dashboards', encodeURIComponent(clusterId)) + '/' + page;
}

export class MarsApi implements IMarsApi {
  constructor(
    readonly settings: ServerConnection.ISettings = ServerConnection.makeSettings()
  ) {}

  cluster(): Promise<IClusterStatus> {
    return this._request('cluster');
  }

  async tasks(): Promise<ITask[]> {
    const reply = await this._request<{ tasks: ITask[] }>('tasks');
    return reply.tasks;
  }

  start(options: IStartOptions): Promise<IClusterStatus> {
    return this._request('cluster/start', 'POST', options);
  }

  stop(): Promise<IClusterStatus> {
    return this._request('cluster/stop', 'POST', {});
  }

  scale(n: number): Promise<IClusterStatus> {
    return this._request('cluster/scale', 'POST', { n });
  }

  adapt(bounds: IAdaptBounds): Promise<IClusterStatus> {
    return this._request('cluster/adapt', 'POST', bounds);
  }

  stopAdapting(): Promise<IClusterStatus> {
    return this._request('cluster/adapt', 'POST', { enabled: false });
  }

  async cancel(sessionId: string, executionId: string): Promise<void> {
    const path = `tasks/${encodeURIComponent(sessionId)}/${encodeURIComponent(executionId)}/cancel`;
    await this._request(path, 'POST', {});
  }

  async clusters(): Promise<IListedCluster[]> {
    const reply = await this._request<{ clusters: IListedCluster[] }>('clusters');
    return reply.clusters;
  }

  async clusterTasks(clusterId: string): Promise<ITask[]> {
    const path = `clusters/${encodeURIComponent(clusterId)}/tasks`;
    const reply = await this._request<{ tasks: ITask[] }>(path);
    return reply.tasks;
  }

  async cancelIn(clusterId: string, sessionId: string, executionId: string): Promise<void> {
    const task = `${encodeURIComponent(sessionId)}/${encodeURIComponent(executionId)}`;
    await this._request(`clusters/${encodeURIComponent(clusterId)}/tasks/${task}/cancel`, 'POST', {});
  }

  hostList(): Promise<IHostList> {
    return this._request('hostlist');
  }

  saveHostList(text: string): Promise<IHostList> {
    return this._request('hostlist', 'PUT', { text });
  }

  private async _request<T>(path: string, method = 'GET', body?: unknown): Promise<T> {
    const url = URLExt.join(this.settings.baseUrl, 'mars', 'api', path);
    const init: RequestInit = { method };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { 'Content-Type': 'application/json' };
    }
    let response: Response;
    try {
      response = await ServerConnection.makeRequest(url, init, this.settings);
    } catch (error) {
      throw new MarsApiError(`the Jupyter server did not answer: ${String(error)}`, 0);
    }
    const text = await response.text();
    let data: any = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = null;
    }
    if (!response.ok) {
      let why = data && typeof data.message === 'string' ? data.message : response.statusText;
      if (response.status === 404 && !(data && data.message)) {
        why = 'the jupyter_mars server extension does not answer on this Jupyter server: ' +
          "is it enabled? ('jupyter server extension list' tells)";
      }
      // the server's own message says what is wrong; the status only where it said nothing
      const told = data && typeof data.message === 'string';
      throw new MarsApiError(told ? why : `${why} (HTTP ${response.status})`, response.status);
    }
    return data as T;
  }
}
