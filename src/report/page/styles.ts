/**
 * The report's look: system fonts, one accent, tables that read at a glance. A module rather than a
 * .css file, so that it ships wherever the page's code does (the sources, or the build in dist/).
 */
export const PAGE_STYLES = `
:root {
  --ink: #1d2430;
  --muted: #5d6775;
  --line: #dfe3e8;
  --panel: #f6f7f9;
  --accent: #1e93ff;
  --good: #2e9a1f;
  --bad: #c8281e;
  --warn: #b36b00;
  font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
  font-size: 14px;
  color: var(--ink);
  background: #fff;
}
body { margin: 0; }
#app { max-width: 1180px; margin: 0 auto; padding: 20px 24px 48px; }
h1 { font-size: 24px; margin: 0 0 4px; display: flex; align-items: center; gap: 10px; }
h2 { font-size: 17px; margin: 32px 0 10px; padding-bottom: 6px; border-bottom: 1px solid var(--line); }
h3 { font-size: 14px; margin: 0 0 8px; }
.top .facts { color: var(--muted); margin: 0; }
.live { color: var(--accent); font-weight: 600; margin: 6px 0 0; }
.live::before { content: '● '; animation: pulse 1.6s infinite; }
@keyframes pulse { 50% { opacity: 0.3; } }
.note, .empty, .keys, .replay-status { color: var(--muted); }
.mono, pre, code { font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace; font-size: 12px; }
.sub { color: var(--muted); }

.badge { font-size: 12px; font-weight: 600; padding: 2px 8px; border-radius: 10px; background: var(--panel); color: var(--muted); border: 1px solid var(--line); }
.status-completed { background: #e7f6e4; color: var(--good); border-color: #bfe5b8; }
.status-failed, .status-unreadable { background: #fde8e6; color: var(--bad); border-color: #f4c1bc; }
.status-running { background: #e3f1ff; color: var(--accent); border-color: #b8dcff; }
.status-interrupted, .status-partial { background: #fff3df; color: var(--warn); border-color: #f4d9a8; }

table { border-collapse: collapse; width: 100%; }
th, td { padding: 5px 8px; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
th { font-weight: 600; color: var(--muted); font-size: 12px; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.total td { font-weight: 600; background: var(--panel); }
.bad { color: var(--bad); }
.table-scroll { max-height: 420px; overflow: auto; border: 1px solid var(--line); border-radius: 6px; }
.table-scroll thead th { position: sticky; top: 0; background: #fff; z-index: 1; }
th.sortable button { all: unset; cursor: pointer; }
th.sortable button:hover { color: var(--ink); }
th[aria-sort='ascending'], th[aria-sort='descending'] { color: var(--ink); }

.filters { display: flex; gap: 14px; align-items: center; margin-bottom: 8px; flex-wrap: wrap; }
.filters .count { color: var(--muted); margin-left: auto; }
select, button { font: inherit; }
button { cursor: pointer; border: 1px solid var(--line); background: #fff; border-radius: 5px; padding: 3px 10px; }
button:hover:not(:disabled) { border-color: var(--accent); }
button:disabled { cursor: not-allowed; opacity: 0.45; }

.outcome { font-size: 12px; padding: 1px 6px; border-radius: 8px; background: var(--panel); }
.outcome-win { background: #e7f6e4; color: var(--good); }
.outcome-error { background: #fde8e6; color: var(--bad); }
.outcome-in-progress { background: #e3f1ff; color: var(--accent); }

tr.differs th, tr.differs td, tr.frontier td { background: #fff6d6; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(370px, 1fr)); gap: 10px 18px; }
.charts .note { grid-column: 1 / -1; margin: 0; }
.chart { margin: 0; }
.chart figcaption { font-weight: 600; font-size: 13px; margin-bottom: 2px; }
.chart .label, .chart .value, .chart .tick { font-size: 11px; fill: var(--ink); }
.chart .tick { fill: var(--muted); }
.chart .grid-line { stroke: var(--line); }
.chart .whisker line { stroke: var(--ink); stroke-width: 1.5; }

.viewer { outline: none; }
.replay-title { font-size: 15px; }
.stage { display: flex; gap: 20px; align-items: flex-start; flex-wrap: wrap; }
.canvas-box { border: 1px solid var(--line); line-height: 0; }
.canvas-box canvas { width: 512px; max-width: 100%; image-rendering: pixelated; }
.side { flex: 1; min-width: 240px; }
.readout { display: grid; grid-template-columns: max-content 1fr; gap: 4px 14px; margin: 0 0 12px; }
.readout dt { color: var(--muted); }
.readout dd { margin: 0; font-variant-numeric: tabular-nums; font-weight: 600; }
.event { min-height: 1.4em; padding: 6px 10px; border-radius: 6px; background: var(--panel); margin: 0 0 10px; }
.event-none { visibility: hidden; }
.event-level, .event-win { background: #e7f6e4; color: var(--good); }
.event-game-over { background: #fde8e6; color: var(--bad); }
.event-full-reset, .event-level-reset { background: #fff3df; color: var(--warn); }
.reasoning pre { white-space: pre-wrap; max-height: 240px; overflow: auto; background: var(--panel); padding: 8px; }
.scrub { position: relative; margin: 12px 0 4px; max-width: 760px; }
.scrub input { width: 100%; margin: 0; }
.scrub-marks { position: relative; height: 8px; margin: 0 8px; }
.mark { position: absolute; top: 0; width: 3px; height: 8px; margin-left: -1px; border-radius: 1px; }
.mark-level, .mark-win { background: var(--good); }
.mark-full-reset, .mark-level-reset { background: var(--warn); }
.mark-game-over { background: var(--bad); }
.controls { display: flex; gap: 6px; align-items: center; margin-top: 6px; }
.controls .speed { margin-left: 12px; color: var(--muted); }
.controls .fps { font-size: 12px; }
.keys { font-size: 12px; }

.details-grid { display: grid; grid-template-columns: 1fr 1fr; gap: 20px; }
.details-grid .config { grid-column: 1 / -1; }
.provenance { display: grid; grid-template-columns: max-content 1fr; gap: 3px 12px; margin: 0; }
.provenance dt { color: var(--muted); }
.provenance dd { margin: 0; overflow-wrap: anywhere; }
.config pre { background: var(--panel); padding: 10px; overflow: auto; max-height: 400px; }

.verdict-better { background: #e7f6e4; color: var(--good); }
.verdict-worse { background: #fde8e6; color: var(--bad); }
.regression { font-weight: 600; }
.chart .zero-line { stroke: var(--ink); }
.chart .threshold-line { stroke: var(--bad); stroke-dasharray: 3 3; }
.transcript { margin-top: 10px; }
.transcript > summary { cursor: pointer; font-weight: 600; }
.transcript .call { margin: 6px 0 6px 12px; }
.transcript .call.compaction > summary { color: var(--muted); font-style: italic; }
.transcript pre { white-space: pre-wrap; max-height: 320px; overflow: auto; font-size: 12px; }
.transcript-grid { width: 256px; height: 256px; image-rendering: pixelated; }
.cost .chart { margin-top: 12px; }
`;
