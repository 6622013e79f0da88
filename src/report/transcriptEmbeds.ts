/**
 * The transcripts report.html embeds: those of the episodes whose recordings it embeds, by their path. A
 * file on disk holds a gzip member per call (transcriptFile.ts); the browser's DecompressionStream reads
 * one member only, so each is embedded as its text in one member.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { RunFolderSnapshot } from '../runfolder/folderSnapshot.ts';
import { readTranscriptText } from '../runfolder/transcriptFile.ts';

export async function transcriptEmbeds(folder: RunFolderSnapshot, embeddedRecordings: readonly string[]): Promise<Array<{ path: string; base64: string }>> {
  const wanted = new Set(embeddedRecordings);
  const embeds: Array<{ path: string; base64: string }> = [];
  for (const episode of folder.episodes) {
    const path = episode.transcript;
    if (episode.recording === null || !wanted.has(episode.recording) || !path || !existsSync(join(folder.dir, path))) continue;
    embeds.push({ path, base64: gzipSync(await readTranscriptText(join(folder.dir, path))).toString('base64') });
  }
  return embeds;
}
