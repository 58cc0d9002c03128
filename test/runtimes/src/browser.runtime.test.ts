import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from './bundle';
import { OVERLAPPING } from './emulator';
import { defineMatrix, type Outcome, SURFACES, type Target } from './matrix';
import type { Settings } from './worker/handler';

// Chromium (Debian's package, see scripts/ensure-chromium.sh) loads a page from one loopback
// origin; the page calls the emulator on another origin directly, with core, the AI SDK adapter
// and the LangChain adapter bundled for the browser.
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let site: Server;
let siteOrigin: string;
let gateway: EmulatedGateway;
let noCors: EmulatedGateway;
let browser: Browser;
let page: Page;

const PAGE = `<!doctype html><meta charset="utf-8"><title>infergate browser test</title>
<script type="module">
  import * as app from '/app.js';
  window.app = app;
  document.title = 'ready';
</script>`;

async function serveSite(): Promise<void> {
  const script = await bundleWorker('browser-entry.ts', { conditions: ['browser'], format: 'esm' });
  site = createServer((req, res) => {
    if (req.url === '/app.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    } else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: run bash scripts/ensure-chromium.sh (or set CHROMIUM_PATH)`,
    );
  }
  await serveSite();
  // The page's origin only: another origin is refused.
  gateway = await emulate({ as: 'http', scenario: OVERLAPPING, cors: [siteOrigin] });
  noCors = await emulate({ as: 'http', scenario: OVERLAPPING });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  page = await browser.newPage();
  await openSite(page);
}, 300_000);

/**
 * Opens the site and waits for its module to run. A fresh Chromium on a loaded 2-core machine (CI
 * runs the other suites beside this one) once needed more than Playwright's 30 s for the `load`
 * event, so: generous waits, one reload, and what the page said when it still does not come up.
 */
async function openSite(page: Page): Promise<void> {
  const said: string[] = [];
  page.on('console', (message) => said.push(`console.${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => said.push(`pageerror: ${error.message}`));
  page.on('crash', () => said.push('the page crashed'));
  const ready = () =>
    page.waitForFunction(() => document.title === 'ready', undefined, { timeout: 90_000 });
  try {
    await page.goto(siteOrigin, { waitUntil: 'commit', timeout: 90_000 });
    await ready();
  } catch (first) {
    said.push(`first try: ${String(first)}`);
    try {
      await page.reload({ waitUntil: 'commit', timeout: 90_000 });
      await ready();
    } catch (second) {
      throw new Error(`The test page did not come up: ${String(second)}\n${said.join('\n')}`);
    }
  }
}
afterAll(async () => {
  await browser?.close();
  await gateway?.close();
  await noCors?.close();
  await new Promise((resolve) => site?.close(resolve));
});

interface PageApp {
  handle(request: Request, settings: Settings): Promise<Response>;
  createGatewayClient(settings: Settings): { models(): Promise<unknown> };
}

/** Runs the requests inside the page, all at once. */
const pageTarget: Target = {
  run(path, count) {
    const settings: Settings = { baseURL: gateway.baseURL, apiKey: gateway.apiKey };
    return page.evaluate(
      async ({ path, count, settings }) => {
        const app = (window as unknown as { app: PageApp }).app;
        return Promise.all(
          Array.from({ length: count }, async (): Promise<Outcome> => {
            try {
              const response = await app.handle(
                new Request(new URL(path, location.href)),
                settings,
              );
              return { status: response.status, body: await response.text() };
            } catch (error) {
              return { status: 0, body: '', error: String(error) };
            }
          }),
        );
      },
      { path, count, settings },
    );
  },
};

describe('Chromium', () => {
  for (const surface of SURFACES) defineMatrix(surface, () => ({ target: pageTarget, gateway }));

  it('the page and the gateway are on different origins', () => {
    expect(new URL(gateway.baseURL).origin).not.toBe(siteOrigin);
  });

  it('a gateway that does not allow the page origin fails with network_error mentioning CORS', async () => {
    const settings: Settings = { baseURL: noCors.baseURL, apiKey: noCors.apiKey };
    const failure = await page.evaluate(async (settings) => {
      const app = (window as unknown as { app: PageApp }).app;
      const client = app.createGatewayClient({ ...settings, maxRetries: 0 } as Settings);
      return client.models().then(
        () => undefined,
        (error: { code?: string; message?: string }) => ({
          code: error.code,
          message: error.message,
        }),
      );
    }, settings);
    expect(failure?.code).toBe('network_error');
    expect(failure?.message).toContain('CORS');
    expect(failure?.message).toContain(siteOrigin);
  });
});
