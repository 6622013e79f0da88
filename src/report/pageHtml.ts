/**
 * The HTML of a page: the bundled script and styles inline, the data in a JSON `<script>`, embedded
 * recordings each in a `<script>` of their own (decoded only when opened). A content security policy
 * forbids every network request of a report file; a page of the `view` server may reach its server.
 */
import { BOOTSTRAP_ELEMENT_ID, EMBEDDED_RECORDING_ATTRIBUTE, type PageBootstrap } from './pageData.ts';
import type { PageAssets } from './pageBundle.ts';

export interface PageParts {
  title: string;
  bootstrap: PageBootstrap;
  assets: PageAssets;
  /** Recordings embedded as base64 of gzip, by their path in the run folder. */
  recordings?: ReadonlyArray<{ path: string; base64: string }>;
  /** `offline`: no request at all (report.html); `server`: requests to the page's own origin. */
  network: 'offline' | 'server';
}

export function renderPage(parts: PageParts): string {
  const connect = parts.network === 'server' ? "connect-src 'self'" : "connect-src 'none'";
  const policy = `default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; ${connect}; base-uri 'none'; form-action 'none'`;
  const recordings = (parts.recordings ?? []).map(
    ({ path, base64 }) => `<script type="application/octet-stream" ${EMBEDDED_RECORDING_ATTRIBUTE}="${escapeAttribute(path)}">${base64}</script>`,
  );
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${policy}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeText(parts.title)}</title>`,
    `<style>${parts.assets.style}</style>`,
    '</head>',
    '<body>',
    '<div id="app"></div>',
    `<script type="application/json" id="${BOOTSTRAP_ELEMENT_ID}">${jsonForScript(parts.bootstrap)}</script>`,
    ...recordings,
    `<script>${parts.assets.script.replace(/<\/script/gi, '<\\/script')}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** JSON that cannot end its `<script>` early: every `<` is written as its escape. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;');
}
