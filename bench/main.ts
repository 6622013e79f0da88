/**
 * `npm run bench`: runs every bench suite in one process and prints one table of figures against their
 * targets. `npm run bench -- codec games` runs only the named suites. Speed is measured here, never
 * asserted in timed tests.
 */
import Table from 'cli-table3';
import { availableParallelism, cpus, totalmem } from 'node:os';
import type { BenchFigure, BenchSuite } from './figure.ts';
import { machineSpeedMicroseconds } from './machineSpeed.ts';

/** Suites in the order they run; each module default-exports a BenchSuite. */
const suiteModules: Record<string, () => Promise<{ default: BenchSuite }>> = {
  codec: () => import('./codec.ts'),
  games: () => import('./games.ts'),
  runner: () => import('./runner.ts'),
  recordings: () => import('./recordings.ts'),
  http: () => import('./http.ts'),
  server: () => import('./server.ts'),
  memory: () => import('./memory.ts'),
  scale: () => import('./scale.ts'),
  resume: () => import('./resume.ts'),
  python: () => import('./python.ts'),
  'python-start': () => import('./pythonStart.ts'),
  llm: () => import('./llm.ts'),
  checkpoints: () => import('./checkpoints.ts'),
  official: () => import('./officialGames.ts'),
  transcripts: () => import('./transcripts.ts'),
};

function meets(figure: BenchFigure): string {
  if (!figure.target) return '';
  const ok = figure.target.op === '<=' ? figure.value <= figure.target.value : figure.value >= figure.target.value;
  return ok ? 'yes' : 'NO';
}

function formatValue(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString('en-US');
  return value.toFixed(value >= 100 ? 0 : value >= 10 ? 1 : 2);
}

const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const unknown = wanted.filter((name) => !Object.hasOwn(suiteModules, name));
if (unknown.length > 0) {
  console.error(`bench: no suite named ${unknown.join(', ')}; suites: ${Object.keys(suiteModules).join(', ')}`);
  process.exit(2);
}
const selected = Object.entries(suiteModules).filter(([name]) => wanted.length === 0 || wanted.includes(name));

console.log(
  `arcbench bench on Node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB`,
);
const table = new Table({ head: ['suite', 'figure', 'value', 'unit', 'target', 'met'] });
let missed = 0;
const speedBefore = machineSpeedMicroseconds();
for (const [, load] of selected) {
  const suite = (await load()).default;
  const started = Date.now();
  const figures = await suite.run();
  for (const figure of figures) {
    const met = meets(figure);
    if (met === 'NO') missed++;
    const target = figure.target ? `${figure.target.op === '<=' ? '≤' : '≥'} ${formatValue(figure.target.value)}` : '';
    table.push([suite.name, figure.note ? `${figure.figure} (${figure.note})` : figure.figure, formatValue(figure.value), figure.unit, target, met]);
  }
  console.error(`bench: ${suite.name} took ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
const speedAfter = machineSpeedMicroseconds();
table.push([
  'machine',
  'reference workload (JSON.parse of a fixed 64×64 grid) before / after the suites; a wide gap means the machine changed speed during the run',
  formatValue(speedBefore),
  `µs (after: ${formatValue(speedAfter)})`,
  '',
  '',
]);
console.log(table.toString());
console.log(missed === 0 ? 'every figure with a target meets it' : `${missed} figure(s) miss their target`);
