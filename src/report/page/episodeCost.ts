/** The episodes list's cost columns: tokens in and out (cached and reasoning in the tooltip) and dollars. */
import type { EpisodeRow } from '../pageData.ts';
import { dollars } from './cost.ts';
import { el } from './dom.ts';
import * as format from './format.ts';

const tokens = (row: EpisodeRow) => (row.usage ? row.usage.input_tokens + row.usage.output_tokens : -1);

export const usageColumns = [
  {
    key: 'tokens',
    title: 'tokens',
    numeric: true,
    value: tokens,
    cell: (row: EpisodeRow) =>
      row.usage
        ? el(
            'span',
            {
              title: `${format.count(row.usage.input_tokens)} input (${format.count(row.usage.cached_input_tokens)} cached), ${format.count(row.usage.output_tokens)} output (${format.count(row.usage.reasoning_tokens)} reasoning), ${format.count(row.usage.calls)} call(s)`,
            },
            format.count(tokens(row)),
          )
        : '–',
  },
  {
    key: 'dollars',
    title: '$',
    numeric: true,
    value: (row: EpisodeRow) => row.usage?.cost_usd ?? -1,
    cell: (row: EpisodeRow) => (row.usage ? dollars(row.usage.cost_usd) : '–'),
  },
];
