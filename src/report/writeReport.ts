/**
 * Writes report.html into a run folder: one self-contained file (script, styles, data and recordings
 * inline) that opens straight from disk, with no network.
 */
import { randomUUID } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { isGzipped, readRecordingText } from '../recording/recordingReader.ts';
import { pageAssets } from './pageBundle.ts';
import { renderPage } from './pageHtml.ts';
import { runFolderLayout } from '../runfolder/layout.ts';
import { EMBED_BUDGET_BYTES, recordingPriority } from './recordingChoice.ts';
import { buildReportData } from './reportData.ts';
import { transcriptEmbeds } from './transcriptEmbeds.ts';
import { readRunFolderSnapshot, type RunFolderSnapshot } from '../runfolder/folderSnapshot.ts';

export interface WrittenReport {
  path: string;
  /** Recordings embedded, and recordings the run has. */
  embedded: number;
  recordings: number;
  bytes: number;
}

export interface ReportOptions {
  /** Where to write; default `<run-dir>/report.html`. */
  out?: string;
  /** Compressed recording bytes to embed beyond the best and worst episodes. */
  budgetBytes?: number;
}

export async function writeReport(runDir: string, options: ReportOptions = {}): Promise<WrittenReport> {
  const folder = readRunFolderSnapshot(runDir);
  const html = await reportHtml(folder, options.budgetBytes ?? EMBED_BUDGET_BYTES);
  const path = options.out ?? runFolderLayout(folder.dir).report;
  // Written aside and renamed, so a reader never sees half a page.
  const temporary = `${path}.${randomUUID()}.tmp`;
  await writeFile(temporary, html.text);
  await rename(temporary, path);
  return { path, embedded: html.embedded, recordings: html.recordings, bytes: Buffer.byteLength(html.text) };
}

async function reportHtml(folder: RunFolderSnapshot, budgetBytes: number): Promise<{ text: string; embedded: number; recordings: number }> {
  const draft = buildReportData(folder, { kind: 'embedded', embedded: [], total: 0, reason: '' });
  const { ordered, required } = recordingPriority(draft.episodes);
  const recordings: Array<{ path: string; base64: string }> = [];
  let used = 0;
  const finished = new Set(folder.episodes.map((e) => e.recording));
  for (const [index, path] of ordered.entries()) {
    const bytes = await embeddableGzip(join(folder.dir, path), finished.has(path));
    if (index >= required && used + bytes.length > budgetBytes) break;
    used += bytes.length;
    recordings.push({ path, base64: bytes.toString('base64') });
  }
  // Each embedded episode's transcript goes with it (compressed, its messages stored once).
  recordings.push(
    ...(await transcriptEmbeds(
      folder,
      recordings.map((r) => r.path),
    )),
  );
  const reason = `the best and the worst episode of every agent on every game, then others up to ${Math.round(budgetBytes / 2 ** 20)} MB`;
  const embedded = recordings.map((r) => r.path).filter((path) => ordered.includes(path));
  const data = { ...draft, recordings: { kind: 'embedded' as const, embedded, total: ordered.length, reason } };
  const text = renderPage({
    title: `${data.run.name} · arcbench report`,
    bootstrap: { page: 'report', data, live_url: null },
    assets: await pageAssets(),
    recordings,
    network: 'offline',
  });
  return { text, embedded: embedded.length, recordings: ordered.length };
}

const gzipAsync = promisify(gzip);

/**
 * The recording as one complete gzip member, which is what the browser's DecompressionStream reads.
 * The compressed recording of a finished episode is one (the writer closed it) and is embedded as it
 * is; any other (plain, or one a killed run left cut short) is compressed again from its text.
 */
async function embeddableGzip(path: string, finished: boolean): Promise<Buffer> {
  const bytes = await readFile(path);
  if (finished && isGzipped(bytes)) return bytes;
  return gzipAsync(Buffer.from(await readRecordingText(path)));
}
