// Real headless Chromium for the report's tests: Debian's `chromium` package driven by playwright-core
// (never a downloaded browser). Without it the tests fail with the command that installs it.
import { execFileSync } from 'node:child_process';
import { chromium, type Browser, type Page } from 'playwright-core';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function chromiumPath(): string {
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('Chromium is not installed: the report tests need a real browser; install it with: apt-get update && apt-get install -y chromium');
  }
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ARGS });
}

/** What a page did that a test must see: console errors, uncaught exceptions, and every request. */
export interface PageWatch {
  errors: string[];
  requests: string[];
}

export function watchPage(page: Page): PageWatch {
  const watch: PageWatch = { errors: [], requests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') watch.errors.push(message.text());
  });
  page.on('pageerror', (error) => watch.errors.push(error.message));
  page.on('request', (request) => watch.requests.push(request.url()));
  return watch;
}

// The page's canvas read from the test: written as expressions, because this project's Node code
// is type-checked without the DOM's types.

/** The canvas pixel at the centre of grid cell (x, y) (8 pixels a cell), as [r, g, b]. */
export function gridCellColour(page: Page, x: number, y: number): Promise<number[]> {
  return page.evaluate(`[...document.querySelector('[data-testid=grid]').getContext('2d').getImageData(${x * 8 + 4}, ${y * 8 + 4}, 1, 1).data.slice(0, 3)]`);
}

/** The canvas as a data URL, to tell whether it changed. */
export function gridImage(page: Page): Promise<string> {
  return page.evaluate(`document.querySelector('[data-testid=grid]').toDataURL()`);
}
