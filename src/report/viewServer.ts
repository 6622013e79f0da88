/**
 * `arcbench view`: serves run folders on 127.0.0.1. The front page lists the runs of a results folder
 * (or goes straight to the one run it was given); each run's page is the report, with every recording
 * fetched from here instead of embedded, and a run in progress followed live (the pages poll).
 *
 * Only what the folder listing names is served: a run is found by its id among the listed runs and a
 * recording by its name among the run's recordings, so no request path ever reaches the file system.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { ArcbenchError } from '../errors.ts';
import { pageAssets } from './pageBundle.ts';
import type { ReportData, RunListing } from './pageData.ts';
import { renderPage } from './pageHtml.ts';
import { buildReportData } from './reportData.ts';
import {
  folderStamp,
  folderStatus,
  isRunFolder,
  readEpisodeFileText,
  readRunFolderSnapshot,
  RunFolderError,
  type RunFolderSnapshot,
  runName,
} from '../runfolder/folderSnapshot.ts';

export const VIEW_HOST = '127.0.0.1';

export interface ViewServer {
  url: string;
  close(): Promise<void>;
}

/** `view` cannot serve what it was given: no such folder (`VIEW_FOLDER_MISSING`), or its port is taken (`VIEW_PORT_IN_USE`). */
export class ViewFolderError extends ArcbenchError {
  constructor(message: string, code: 'VIEW_FOLDER_MISSING' | 'VIEW_PORT_IN_USE' = 'VIEW_FOLDER_MISSING') {
    super(code, message);
  }
}

export async function startViewServer(folderArgument: string, port: number): Promise<ViewServer> {
  const folder = resolve(folderArgument);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new ViewFolderError(`${folderArgument}: no such folder; give a results folder (where arcbench run writes, results/ by default) or one run's folder`);
  }
  const runs = new RunCatalog(folder);
  const server = createServer((request, response) => {
    route(runs, request, response).catch((error: unknown) => send(response, 500, 'text/plain', `arcbench view: ${(error as Error).message}\n`));
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new ViewFolderError(`port ${port} is in use on ${VIEW_HOST}; pass --port <n> (0 picks a free one)`, 'VIEW_PORT_IN_USE')
          : error,
      ),
    );
    server.listen(port, VIEW_HOST, () => resolveListen());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${VIEW_HOST}:${bound}/`,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

async function route(runs: RunCatalog, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, 'text/plain', 'arcbench view only reads: use GET\n');
  const segments = pathSegments(request.url ?? '/');
  if (segments === undefined) return send(response, 400, 'text/plain', 'malformed path\n');
  if (segments.length === 0) {
    const single = runs.single();
    if (single !== undefined) return redirect(response, runUrl(single));
    return sendPage(response, `runs · ${runs.folder}`, { page: 'runs', runs: runs.listing(), folder: runs.folder, live_url: '/api/runs' });
  }
  if (segments.length === 2 && segments[0] === 'api' && segments[1] === 'runs') return sendJson(response, runs.listing());
  const [area, id, ...rest] = segments;
  if (area !== 'runs' || id === undefined) return notFound(response);
  let run: RunFolderSnapshot | undefined;
  try {
    run = runs.find(id);
  } catch (error) {
    if (!(error instanceof RunFolderError)) throw error;
    return send(response, 422, 'text/plain; charset=utf-8', `arcbench view cannot read run "${id}": ${error.message}\n`);
  }
  if (run === undefined) return notFound(response, `no run "${id}" in ${runs.folder}`);
  if (rest.length === 0) {
    if (!(request.url ?? '').endsWith('/')) return redirect(response, runUrl(id));
    const data = reportData(id, run);
    return sendPage(response, `${data.run.name} · arcbench view`, {
      page: 'report',
      data,
      live_url: data.run.status === 'running' ? `${runUrl(id)}data.json` : null,
    });
  }
  if (rest.length === 1 && rest[0] === 'data.json') return sendJson(response, reportData(id, run));
  const text = await readEpisodeFileText(run, rest);
  if (text !== undefined) return send(response, 200, 'application/x-ndjson; charset=utf-8', text);
  return notFound(response);
}

const runUrl = (id: string) => `/runs/${encodeURIComponent(id)}/`;

function reportData(id: string, run: RunFolderSnapshot): ReportData {
  return buildReportData(run, { kind: 'served', base_url: runUrl(id) });
}

/** The path's segments, decoded; undefined when one is malformed or tries to climb (`..`). */
function pathSegments(url: string): string[] | undefined {
  try {
    const segments = new URL(url, 'http://view.invalid').pathname
      .split('/')
      .filter((s) => s !== '')
      .map(decodeURIComponent);
    return segments.some((s) => s === '..' || s.includes('/') || s.includes('\\')) ? undefined : segments;
  } catch {
    return undefined;
  }
}

async function sendPage(response: ServerResponse, title: string, bootstrap: Parameters<typeof renderPage>[0]['bootstrap']): Promise<void> {
  send(response, 200, 'text/html; charset=utf-8', renderPage({ title, bootstrap, assets: await pageAssets(), network: 'server' }));
}

function sendJson(response: ServerResponse, value: unknown): void {
  send(response, 200, 'application/json; charset=utf-8', JSON.stringify(value));
}

function redirect(response: ServerResponse, location: string): void {
  response.writeHead(302, { location, 'cache-control': 'no-store' }).end();
}

function notFound(response: ServerResponse, why = 'not found'): void {
  send(response, 404, 'text/plain; charset=utf-8', `${why}\n`);
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }).end(body);
}

/**
 * The runs under the served folder, each read again only when its files changed (sizes and times of
 * run.json, episodes.jsonl and recordings/), so polling pages cost little.
 */
class RunCatalog {
  private readonly cache = new Map<string, { stamp: string; run: RunFolderSnapshot }>();

  constructor(readonly folder: string) {}

  /** The one run when the folder served is itself a run folder. */
  single(): string | undefined {
    return isRunFolder(this.folder) ? basename(this.folder) : undefined;
  }

  private folders(): Map<string, string> {
    if (isRunFolder(this.folder)) return new Map([[basename(this.folder), this.folder]]);
    const found = new Map<string, string>();
    for (const entry of readdirSync(this.folder, { withFileTypes: true })) {
      const dir = join(this.folder, entry.name);
      if (entry.isDirectory() && isRunFolder(dir)) found.set(entry.name, dir);
    }
    return found;
  }

  find(id: string): RunFolderSnapshot | undefined {
    const dir = this.folders().get(id);
    return dir === undefined ? undefined : this.read(dir);
  }

  /** Newest first: run folders are named by their start time. A folder that cannot be read is listed with why. */
  listing(): RunListing[] {
    return [...this.folders()].map(([id, dir]) => this.listed(id, dir)).sort((a, b) => (b.started_at ?? b.id).localeCompare(a.started_at ?? a.id));
  }

  private listed(id: string, dir: string): RunListing {
    let run: RunFolderSnapshot;
    try {
      run = this.read(dir);
    } catch (error) {
      if (!(error instanceof RunFolderError)) throw error;
      return {
        id,
        name: id,
        status: 'unreadable',
        problem: error.message,
        started_at: null,
        agents: [],
        games: 0,
        episodes: 0,
        recordings: 0,
        url: runUrl(id),
      };
    }
    return {
      id,
      name: runName(run),
      status: folderStatus(run),
      problem: null,
      started_at: run.run?.started_at ?? run.episodes[0]?.started_at ?? null,
      agents: [...new Set([...(run.run?.agents ?? []).map((a) => a.label), ...run.episodes.map((e) => e.agent)])],
      games: new Set([...(run.run?.games ?? []), ...run.episodes.map((e) => e.game_id)]).size,
      episodes: run.episodes.length,
      recordings: run.recordingFiles.length,
      url: runUrl(id),
    };
  }

  private read(dir: string): RunFolderSnapshot {
    const stamp = folderStamp(dir);
    const cached = this.cache.get(dir);
    if (cached?.stamp === stamp) return cached.run;
    const run = readRunFolderSnapshot(dir);
    this.cache.set(dir, { stamp, run });
    return run;
  }
}
