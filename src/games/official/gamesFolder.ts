/**
 * Finding official games in a folder, as the toolkit does: every metadata.json below it (Kaggle's
 * `<game>/<version>/` and the toolkit's flat folders alike) names a game whose class sits beside it in
 * `<class_name lowercased>.py`. The metadata is read through a schema, so a malformed one is a sentence
 * naming its file and field.
 */
import { existsSync, opendirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { z } from 'zod';
import { formatIssues } from '../../protocol/index.ts';
import { type DownloadDate, downloadDateAt, parseDownloadDate } from '../downloadDate.ts';
import { GameLoadError } from './hostErrors.ts';

export interface OfficialGameFiles {
  readonly metadataFile: string;
  readonly gameFile: string;
  readonly className: string;
  readonly gameId: string;
  /** The metadata's title, else the game id. */
  readonly title: string;
  /** The title as written, null when the metadata has none. */
  readonly titleAsWritten: string | null;
  readonly defaultFps: number;
  readonly baselineActions: readonly number[];
  /** The authors' tags as written, null when the metadata has none. */
  readonly tags: readonly string[] | null;
  /** As written; when the metadata has none, the time the games were loaded (the toolkit's choice too). */
  readonly dateDownloaded: DownloadDate;
}

const metadataSchema = z.looseObject({
  game_id: z.string().regex(/^[a-z0-9]+(-[A-Za-z0-9]+)?$/, 'a game id is its name, a dash and its version, as bt11-fd9df0622a1a'),
  title: z.string().optional(),
  default_fps: z.number().int().positive().optional(),
  baseline_actions: z.array(z.number().int().positive()).min(1, 'needs one human baseline (a positive action count) per level'),
  class_name: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a Python class name')
    .optional(),
  tags: z.array(z.string()).nullish(),
  date_downloaded: z
    .string()
    .refine((text) => parseDownloadDate(text) !== undefined, 'an ISO 8601 date or date-time, as 2024-01-19T10:00:00Z')
    .nullish(),
});

/** Every game under `folder`, in the order the toolkit finds them (metadataFilesInScanOrder). */
export function findOfficialGames(folder: string): OfficialGameFiles[] {
  if (!existsSync(folder)) throw new GameLoadError(`games_dir ${folder} does not exist; point games_dir at the folder holding the games' metadata.json files`);
  const files = [...metadataFilesInScanOrder(folder)];
  if (files.length === 0) throw new GameLoadError(`games_dir ${folder} holds no metadata.json; each game's folder needs one beside its .py file`);
  const loadedAt = downloadDateAt(Date.now());
  return files.map((file) => gameFiles(folder, file, loadedAt));
}

/**
 * The metadata.json files below `folder` in the order Python's `Path.rglob` yields them, which the
 * toolkit's server lists its games in: a folder's own file first, then its subfolders depth first, each
 * folder's entries in the order the file system keeps them (not sorted; symbolic links not followed).
 */
function* metadataFilesInScanOrder(folder: string): Generator<string> {
  const own = join(folder, 'metadata.json');
  if (existsSync(own)) yield own;
  const entries = opendirSync(folder);
  try {
    for (let entry = entries.readSync(); entry !== null; entry = entries.readSync())
      if (entry.isDirectory()) yield* metadataFilesInScanOrder(join(folder, entry.name));
  } finally {
    entries.closeSync();
  }
}

function gameFiles(folder: string, metadataFile: string, loadedAt: DownloadDate): OfficialGameFiles {
  const shown = relative(folder, metadataFile);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(metadataFile, 'utf8'));
  } catch (error) {
    throw new GameLoadError(`${metadataFile}: is not JSON (${(error as Error).message}); fix or remove it`);
  }
  const result = metadataSchema.safeParse(parsed);
  if (!result.success) throw new GameLoadError(`${metadataFile}: ${formatIssues(result.error.issues)}`);
  const metadata = result.data;
  // As the toolkit: class_name, else the game id's first four characters capitalised.
  const className = metadata.class_name ?? metadata.game_id.charAt(0).toUpperCase() + metadata.game_id.slice(1, 4);
  const gameFile = join(dirname(metadataFile), `${className.toLowerCase()}.py`);
  if (!existsSync(gameFile))
    throw new GameLoadError(`${shown}: names class ${className}, but ${gameFile} does not exist; put the game's code there or set class_name`);
  return {
    metadataFile,
    gameFile,
    className,
    gameId: metadata.game_id,
    title: metadata.title ?? metadata.game_id,
    titleAsWritten: metadata.title ?? null,
    defaultFps: metadata.default_fps ?? 5,
    baselineActions: metadata.baseline_actions,
    tags: metadata.tags ?? null,
    dateDownloaded: metadata.date_downloaded ? parseDownloadDate(metadata.date_downloaded)! : loadedAt,
  };
}
