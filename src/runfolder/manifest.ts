/**
 * manifest.json: every file of a run folder with its size and SHA-256, the arcbench version that wrote
 * it and the run's scorecard pages. Written last, at the end of every attempt (run and resume), so a
 * reader can tell whether anything in the folder changed since (`arcbench verify`).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { packageManifest } from '../packageFiles.ts';
import { ISSUE_OPTIONS, issueLines } from '../protocol/index.ts';
import { MANIFEST_FILE, RUN_FILE } from './fileNames.ts';
import { RunFolderError, type RunReport } from './runReport.ts';

/** Version of manifest.json's layout. */
export const MANIFEST_FORMAT = 'arcbench.manifest/1';

const manifestSchema = z.looseObject({
  format: z.literal(MANIFEST_FORMAT),
  arcbench_version: z.string(),
  written_at: z.string(),
  run: z.string(),
  status: z.string(),
  /** Each agent's latest card and its page on the service's site (null when the service has none). */
  scorecards: z.array(z.object({ agent: z.string(), card_id: z.string(), url: z.string().nullable() })),
  /** Every file but the manifest itself, by its path in the folder (always with `/`), sorted. */
  files: z.array(z.object({ path: z.string(), bytes: z.int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
});
export type RunManifest = z.infer<typeof manifestSchema>;
export type ManifestFile = RunManifest['files'][number];

/**
 * The folder's files (not the manifest), as paths relative to it with `/`, sorted. By relative(), not
 * by slicing: a folder given as `run/` (a trailing slash) lost each name's first letter.
 */
export function folderFiles(runDir: string): string[] {
  return readdirSync(runDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(runDir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((path) => path !== MANIFEST_FILE)
    .sort();
}

export function hashFile(path: string): { bytes: number; sha256: string } {
  const content = readFileSync(path);
  return { bytes: content.length, sha256: createHash('sha256').update(content).digest('hex') };
}

export function buildManifest(runDir: string, report: RunReport): RunManifest {
  return {
    format: MANIFEST_FORMAT,
    arcbench_version: packageManifest().version,
    written_at: new Date().toISOString(),
    run: report.name,
    status: report.status,
    scorecards: report.agents.map((agent) => ({ agent: agent.label, card_id: agent.card_id, url: agent.scorecard_url })),
    files: folderFiles(runDir).map((path) => ({ path, ...hashFile(join(runDir, path)) })),
  };
}

/** Writes manifest.json atomically (a reader never sees half of it). */
export function writeManifest(runDir: string, report: RunReport): RunManifest {
  const manifest = buildManifest(runDir, report);
  saveManifest(runDir, manifest);
  return manifest;
}

/**
 * After a command wrote `path` (report, export --out) into a finished run folder: its entry in the
 * manifest replaced (or added), every other entry kept as it was, so `verify` still finds what changed
 * before. Returns the path as listed, or null when `path` is outside the folder or the folder has no
 * manifest yet (a run that has not ended gets one when it does).
 */
export function recordWrittenFile(runDir: string, path: string): string | null {
  const listed = relative(resolve(runDir), resolve(path)).split(sep).join('/');
  if (listed === '' || listed.startsWith('..') || listed === MANIFEST_FILE) return null;
  const manifest = readManifest(runDir);
  if (manifest === undefined) return null;
  const files = manifest.files.filter((file) => file.path !== listed);
  files.push({ path: listed, ...hashFile(resolve(path)) });
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  saveManifest(runDir, { ...manifest, files });
  return listed;
}

function saveManifest(runDir: string, manifest: RunManifest): void {
  const path = join(runDir, MANIFEST_FILE);
  writeFileSync(`${path}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}

/** The folder's manifest, or undefined when it has none (a run folder from before manifests). */
export function readManifest(runDir: string): RunManifest | undefined {
  let text: string;
  try {
    text = readFileSync(join(runDir, MANIFEST_FILE), 'utf8');
  } catch {
    return undefined;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new RunFolderError(`${join(runDir, MANIFEST_FILE)}: not JSON (${(error as Error).message}); the manifest is damaged`);
  }
  const parsed = manifestSchema.safeParse(raw, ISSUE_OPTIONS);
  if (!parsed.success)
    throw new RunFolderError(`${join(runDir, MANIFEST_FILE)}: not a manifest of this arcbench: ${issueLines(parsed.error.issues).join('; ')}`);
  return parsed.data;
}

/** Every file against manifest.json: missing, changed, or added since it was written. */
export function manifestDifferences(dir: string): { problems: string[]; checked: number } {
  const manifest = readManifest(dir);
  if (manifest === undefined) return { problems: [`${MANIFEST_FILE}: missing; a run folder gets one when its run ends (arcbench run, resume)`], checked: 0 };
  const problems: string[] = [];
  const present = new Set(folderFiles(dir));
  for (const file of manifest.files) {
    if (!present.has(file.path)) {
      problems.push(`${file.path}: listed in ${MANIFEST_FILE} but missing`);
      continue;
    }
    present.delete(file.path);
    const now = hashFile(join(dir, file.path));
    if (now.sha256 !== file.sha256)
      problems.push(`${file.path}: changed since ${MANIFEST_FILE} was written (${file.bytes} bytes then, ${now.bytes} now; SHA-256 differs)`);
  }
  for (const path of present) problems.push(`${path}: not listed in ${MANIFEST_FILE} (added after the run ended)`);
  return { problems, checked: manifest.files.length };
}

/** The SHA-256 of run.json as the manifest lists it; null without a manifest (or run.json in it). */
export function runFileHash(manifest: RunManifest | undefined): string | null {
  return manifest?.files.find((file) => file.path === RUN_FILE)?.sha256 ?? null;
}
