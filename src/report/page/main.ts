/** The page's entry: reads what the writer or the `view` server put in the page, and builds it. */
import { BOOTSTRAP_ELEMENT_ID, type PageBootstrap } from '../pageData.ts';
import { mountComparison } from './comparisonPage.ts';
import { mountReport } from './reportPage.ts';
import { mountRuns } from './runsPage.ts';

const holder = document.getElementById(BOOTSTRAP_ELEMENT_ID);
const root = document.getElementById('app');
if (holder === null || root === null) throw new Error('arcbench page: the data or the #app element is missing; write the page again with arcbench report');
const bootstrap = JSON.parse(holder.textContent ?? '') as PageBootstrap;
if (bootstrap.page === 'report') mountReport(root, bootstrap.data, bootstrap.live_url);
else if (bootstrap.page === 'comparison') mountComparison(root, bootstrap.data, bootstrap.generated_at);
else mountRuns(root, bootstrap.runs, bootstrap.folder, bootstrap.live_url);
