/**
 * Games as the toolkit's server names them (docs/protocol.md §7a): an official game by its metadata.json's
 * words (its authors' `tags`, null when it has none, and its `date_downloaded` as pydantic writes it), where
 * arcbench shows input kinds and its own time form (§2, §10). Our own games have no metadata and keep
 * their input kinds. A card's tags_scores are pooled under the same tags.
 */
import { downloadDateText, parseDownloadDate } from '../../games/downloadDate.ts';
import type { GameDescriptor, Scorecard } from '../../protocol/index.ts';
import type { ReferenceService } from '../referenceService.ts';
import { toolkitTagsScores } from './toolkitTagScores.ts';

/** The descriptor the toolkit's server answers: no baselines, the metadata's tags and date. */
export function toolkitDescriptor(descriptor: GameDescriptor, backend: ReferenceService): unknown {
  const { baseline_actions: _dropped, ...rest } = descriptor;
  const metadata = backend.gameMetadata(descriptor.game_id);
  const date = metadata?.dateDownloaded ?? parseDownloadDate(descriptor.date_downloaded ?? '');
  const words = metadata ? { title: metadata.title, tags: metadata.tags } : {};
  return { ...rest, ...words, ...(date ? { date_downloaded: downloadDateText(date) } : {}) };
}

/** The card with its tags_scores as the toolkit computes them (toolkitTagScores.ts), under the games' toolkit tags. */
export function withToolkitTagScores(card: Scorecard, backend: ReferenceService, key: string | undefined): Scorecard {
  const environments = card.environments.map((environment) => ({ tags: toolkitTagsOf(environment.id, backend, key), environment }));
  card.tags_scores = toolkitTagsScores(environments);
  return card;
}

function toolkitTagsOf(gameId: string, backend: ReferenceService, key: string | undefined): readonly string[] | null {
  const metadata = backend.gameMetadata(gameId);
  return metadata ? metadata.tags : (backend.getGame(key, gameId).tags ?? null);
}
