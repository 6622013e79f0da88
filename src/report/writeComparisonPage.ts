/** `arcbench compare --html <file>`: the comparison of two runs as one self-contained page. */
import { randomUUID } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';
import { pageAssets } from './pageBundle.ts';
import type { ComparisonData } from './pageData.ts';
import { renderPage } from './pageHtml.ts';

export async function writeComparisonPage(comparison: ComparisonData, path: string, now = new Date()): Promise<void> {
  const html = renderPage({
    title: `${comparison.baseline} → ${comparison.candidate} · arcbench comparison`,
    bootstrap: { page: 'comparison', data: comparison, generated_at: now.toISOString() },
    assets: await pageAssets(),
    network: 'offline',
  });
  const temporary = `${path}.${randomUUID()}.tmp`;
  await writeFile(temporary, html);
  await rename(temporary, path);
}
