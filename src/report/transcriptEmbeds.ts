/**
 * The transcripts report.html embeds: those of the episodes whose recordings it embeds, as they are on
 * disk (one gzip member each, which the browser's DecompressionStream reads), by their path.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunFolderSnapshot } from '../runfolder/folderSnapshot.ts';

export async function transcriptEmbeds(folder: RunFolderSnapshot, embeddedRecordings: readonly string[]): Promise<Array<{ path: string; base64: string }>> {
  const wanted = new Set(embeddedRecordings);
  const embeds: Array<{ path: string; base64: string }> = [];
  for (const episode of folder.episodes) {
    const path = episode.transcript;
    if (episode.recording === null || !wanted.has(episode.recording) || !path || !existsSync(join(folder.dir, path))) continue;
    embeds.push({ path, base64: (await readFile(join(folder.dir, path))).toString('base64') });
  }
  return embeds;
}
