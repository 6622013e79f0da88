/**
 * Recordings and the report, on the quickstart (configs/quickstart.yaml, the first command anyone
 * runs): the size of its recordings, gzip and plain; what the gzip writer costs a line against
 * encoding the text and gzipping it with zlib (level 3, zlib's fastest good ratio on these lines),
 * on the quickstart's own frames; and writing its report.html.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { parse, stringify } from 'yaml';
import { parseExperiment, runExperiment } from '../src/index.ts';
import type { ActionInput, FrameResponse } from '../src/protocol/index.ts';
import { writeReport } from '../src/report/writeReport.ts';
import { GzipRecordingEncoder } from '../src/recording/recordingGzip.ts';
import { recordingLine } from '../src/recording/recordingLine.ts';
import { readRecording } from '../src/recording/recordingReader.ts';
import type { BenchFigure, BenchSuite } from './figure.ts';
import { scratchFolder } from './scratch.ts';
import { timeInterleaved } from './measure.ts';

const QUICKSTART = fileURLToPath(new URL('../configs/quickstart.yaml', import.meta.url));
const MB = 1e6;

async function runQuickstart(dir: string, recordings: 'gzip' | 'jsonl'): Promise<string> {
  const config = { ...parse(readFileSync(QUICKSTART, 'utf8')), recordings };
  const experiment = await parseExperiment(stringify(config), { file: QUICKSTART, baseDir: dir });
  return (await runExperiment(experiment, { out: join(dir, recordings) })).runDir;
}

function folderBytes(folder: string): number {
  return readdirSync(folder).reduce((sum, name) => sum + statSync(join(folder, name)).size, 0);
}

interface Line {
  response: FrameResponse;
  sent: ActionInput;
  timestamp: string;
}

/** The run's recorded lines as the writer got them: grids as Uint8Array, action_input as sent. */
async function recordedLines(runDir: string): Promise<Line[]> {
  const lines: Line[] = [];
  for (const file of readdirSync(join(runDir, 'recordings')).sort()) {
    for await (const entry of readRecording(join(runDir, 'recordings', file))) {
      const data = entry.data;
      const frame = data.frame.map((rows) => Uint8Array.from(rows.flat()));
      lines.push({ response: { ...data, frame } as unknown as FrameResponse, sent: data.action_input as ActionInput, timestamp: entry.timestamp });
    }
  }
  return lines;
}

const suite: BenchSuite = {
  name: 'recordings',
  async run(): Promise<BenchFigure[]> {
    const dir = scratchFolder('quickstart');
    const gzipRun = await runQuickstart(dir, 'gzip');
    const plainRun = await runQuickstart(dir, 'jsonl');
    const gzipBytes = folderBytes(join(gzipRun, 'recordings'));
    const plainBytes = folderBytes(join(plainRun, 'recordings'));
    const lines = await recordedLines(gzipRun);
    const [ours, zlib] = timeInterleaved(
      [
        () => {
          const encoder = new GzipRecordingEncoder();
          for (const line of lines) encoder.write(line.response, line.sent, line.timestamp);
          return encoder.finish();
        },
        () => gzipSync(lines.map((line) => recordingLine(line.response, line.sent, line.timestamp)).join(''), { level: 3 }),
      ],
      { callsPerRound: 1, rounds: 7 },
    );
    const reportStarted = process.hrtime.bigint();
    const report = await writeReport(gzipRun);
    const reportMs = Number(process.hrtime.bigint() - reportStarted) / 1e6;
    const perLine = (µs: number) => µs / lines.length;
    return [
      {
        figure: 'quickstart recordings, gzip (the default)',
        value: gzipBytes / MB,
        unit: 'MB',
        target: { op: '<=', value: 5 },
        note: `plain jsonl: ${(plainBytes / MB).toFixed(0)} MB, ${(plainBytes / gzipBytes).toFixed(0)}× more`,
      },
      {
        figure: 'gzip recording writer, per line of the quickstart',
        value: perLine(ours.fastest),
        unit: 'µs',
        note: `CPU time, fastest of 7 rounds over its ${lines.length.toLocaleString('en-US')} lines (median ${perLine(ours.median).toFixed(2)})`,
      },
      {
        figure: 'the same lines encoded as text and gzipped by zlib level 3, per line',
        value: perLine(zlib.fastest),
        unit: 'µs',
        note: `median ${perLine(zlib.median).toFixed(2)}; zlib's output ${(gzipSync(lines.map((l) => recordingLine(l.response, l.sent, l.timestamp)).join(''), { level: 3 }).length / MB).toFixed(2)} MB`,
      },
      {
        figure: 'report.html of the quickstart, written',
        value: reportMs,
        unit: 'ms',
        note: `${(report.bytes / MB).toFixed(1)} MB, ${report.embedded} of ${report.recordings} recordings embedded; first page of the process (bundling included)`,
      },
    ];
  },
};
export default suite;
