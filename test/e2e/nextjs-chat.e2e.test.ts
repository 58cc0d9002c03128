import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { childEnv, examplesDir, repoRoot, runNode, stop } from '../helpers/run';
import { type HoldingProxy, startHoldingProxy } from './holding-proxy';

// The Next.js example, built and started as in production, driven by headless Chromium.
const appDir = examplesDir('nextjs-chat');
const nextBin = `${appDir}/node_modules/next/dist/bin/next`;
const artifacts = `${repoRoot}test/artifacts`;
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
// Without the background-networking flags Chromium tries to reach Google services, which a
// closed network turns into hangs.
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

let gateway: EmulatedGateway;
// The app reaches the emulator through this proxy, which can hold a stream mid-way (Stop test).
let proxy: HoldingProxy;
let app: ChildProcess | undefined;
let appURL: string;
let browser: Browser;
let page: Page;
let appLog = '';

/**
 * Resolves to the app's URL once `next start -p 0` prints it: Next.js logs the port the system gave
 * it when it listens, and holds requests until its handlers are loaded. Rejects when it exits first.
 */
function appListening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const read = () => {
      // Up to the line's end: a chunk of output can end inside the URL.
      const url = /- Local:\s+(http:\/\/\S+)\s/.exec(appLog)?.[1];
      if (url) resolve(url);
    };
    child.stdout?.on('data', read);
    child.once('exit', (code) => reject(new Error(`next start exited with ${code}:\n${appLog}`)));
  });
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: run bash scripts/ensure-chromium.sh (or set CHROMIUM_PATH)`,
    );
  }
  await mkdir(artifacts, { recursive: true });
  // `pnpm test` builds the app first (Turbo: this task depends on its build); a direct vitest run
  // builds it here. Two `next build`s at once would fail on Next's build lock.
  if (!existsSync(`${appDir}/.next/BUILD_ID`)) {
    const build = await runNode(appDir, [nextBin, 'build'], {}, 170_000);
    expect(build.code, build.output).toBe(0);
  }

  gateway = await emulate({ as: 'http', scenario: { streamChunkDelayMs: 20 } });
  proxy = await startHoldingProxy(gateway.baseURL);
  // Port 0: the system picks a free port when Next.js binds, so no other process can take it first.
  app = spawn(process.execPath, [nextBin, 'start', '-p', '0', '-H', '127.0.0.1'], {
    cwd: appDir,
    env: childEnv({ INFERGATE_BASE_URL: proxy.url, INFERGATE_API_KEY: gateway.apiKey }),
  });
  app.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    appLog += chunk;
  });
  app.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    appLog += chunk;
  });
  appURL = await appListening(app);
  const models = await fetch(`${appURL}/api/models`);
  expect(models.status, appLog).toBe(200);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await stop(app);
  await proxy?.close();
  await gateway?.close();
});

beforeEach(async () => {
  gateway.emulator.resetCounters();
  gateway.emulator.clearFaults();
  gateway.emulator.scenario.streamChunkDelayMs = 20;
  page = await browser.newPage({ viewport: { width: 900, height: 700 } });
  return async () => {
    await page.close();
  };
});

async function send(text: string): Promise<void> {
  await page.getByLabel('Message').fill(text);
  await page.getByLabel('Message').press('Enter');
}

describe('examples/nextjs-chat in Chromium', () => {
  it('lists the gateway’s models, streams an answer and shows the tool call', async () => {
    await page.goto(appURL);
    const options = await page.getByLabel('Model').locator('option').allTextContents();
    expect(options.some((label) => label.includes('community/general'))).toBe(true);
    expect(await page.getByLabel('Model').inputValue()).toBe('community/general');

    // Streaming is asserted by a state it must pass through, not by counting renders (a loaded
    // machine may batch renders): with a slow scripted stream (150 ms between events), the page
    // must at some point show part of the answer while the chat is still streaming.
    gateway.emulator.scenario.streamChunkDelayMs = 150;
    await page.evaluate(() => {
      const seen: { text: string; status: string }[] = [];
      (window as unknown as { seen: typeof seen }).seen = seen;
      new MutationObserver(() => {
        const text = document.querySelector('article[data-role="assistant"]')?.textContent ?? '';
        const status = document.querySelector('[data-testid="status"]')?.textContent ?? '';
        const last = seen.at(-1);
        if (text && (last?.text !== text || last.status !== status)) seen.push({ text, status });
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await send('Use get_weather for "Kyiv"');
    const assistant = page.locator('article[data-role="assistant"]');
    await expect
      .poll(() => assistant.textContent(), { timeout: 30_000 })
      .toContain('Tool get_weather returned: {"city":"Kyiv"');
    await expect
      .poll(() => page.getByTestId('status').textContent(), { timeout: 30_000 })
      .toBe('ready');
    const finalText = (await assistant.textContent()) ?? '';
    const seen = await page.evaluate(
      () => (window as unknown as { seen: { text: string; status: string }[] }).seen,
    );
    const partial = seen.filter(
      (state) => state.status === 'streaming' && state.text !== finalText,
    );
    expect(partial.length, 'part of the answer was shown while it streamed').toBeGreaterThan(0);
    const toolCall = page.getByTestId('tool-call');
    expect(await toolCall.textContent()).toMatch(
      /get_weather\(\{"city":"Kyiv"\}\) → \{"city":"Kyiv"/,
    );
    expect(await page.locator('article[data-role="user"]').textContent()).toContain(
      'Use get_weather for "Kyiv"',
    );
    await page.screenshot({ path: `${artifacts}/nextjs-chat-answer.png`, fullPage: true });
    // The tool round trip is two chat requests: the call, then the answer after its result.
    expect(gateway.emulator.counters.requests.chat).toBe(2);
  });

  it('says why a model is disabled, and sends the picked model without tools when it has none', async () => {
    await page.goto(appURL);
    const picker = page.getByLabel('Model');
    // From the catalog's capabilities: the chat streams, and with Tools on it sends get_weather.
    const plain = picker.locator('option[value="community/plain"]');
    expect(await plain.isDisabled()).toBe(true);
    expect(await plain.textContent()).toContain('unavailable: no streaming');
    const streamer = picker.locator('option[value="community/streamer"]');
    expect(await streamer.isDisabled()).toBe(true);
    expect(await streamer.textContent()).toContain('unavailable: no tools');
    expect(await picker.locator('option[value="community/tools"]').isDisabled()).toBe(false);
    expect(await page.getByTestId('model-note').textContent()).toContain('without streaming');

    // Tools off: a streaming model without tools can be picked; one without streaming still not.
    await page.getByLabel('Tools').uncheck();
    expect(await streamer.isDisabled()).toBe(false);
    expect(await streamer.textContent()).not.toContain('unavailable');
    expect(await plain.isDisabled()).toBe(true);
    await picker.selectOption('community/streamer');
    // Any request still going to the default model would fail visibly.
    gateway.emulator.injectFault({
      fault: 'bad_gateway',
      endpoint: 'chat',
      model: 'community/general',
    });
    await send('Hello from the picker');
    const assistant = page.locator('article[data-role="assistant"]');
    await expect
      .poll(() => assistant.textContent(), { timeout: 20_000 })
      .toContain('Echo: Hello from the picker');
    await expect
      .poll(() => page.getByTestId('status').textContent(), { timeout: 20_000 })
      .toBe('ready');
    // community/streamer lacks tools: sending them would have been refused before any request.
    expect(gateway.emulator.counters.requests.chat).toBe(1);
    expect(await page.getByTestId('chat-error').count()).toBe(0);
    // The served model under the answer; no fallback badge when it is the one asked for.
    expect(await assistant.getByTestId('served-model').textContent()).toContain(
      'community/streamer',
    );
    expect(await assistant.getByTestId('fallback-badge').count()).toBe(0);
  });

  it('marks an answer from a fallback model with a badge naming the model asked for', async () => {
    // The emulator's own model my/laptop-model is offline (so not listed); the key's offline
    // setting lets the gateway answer with pool-a/llama-3-8b.
    await page.goto(`${appURL}/?model=my/laptop-model`);
    expect(await page.getByLabel('Model').inputValue()).toBe('my/laptop-model');
    await send('Hello laptop');
    const assistant = page.locator('article[data-role="assistant"]');
    await expect
      .poll(() => page.getByTestId('status').textContent(), { timeout: 20_000 })
      .toBe('ready');
    expect(await assistant.textContent()).toContain('Echo: Hello laptop');
    expect(await assistant.getByTestId('served-model').textContent()).toContain(
      'pool-a/llama-3-8b',
    );
    const badge = assistant.getByTestId('fallback-badge');
    expect(await badge.textContent()).toContain('fallback for my/laptop-model');
    expect(await badge.getAttribute('title')).toContain('answered with pool-a/llama-3-8b');
    await page.screenshot({ path: `${artifacts}/nextjs-chat-fallback.png` });
  });

  it('marks a stopped answer as stopped, keeping what had arrived', async () => {
    await page.goto(appURL);
    await page.getByLabel('Tools').uncheck();
    // Held after its first text by the proxy: the answer is mid-stream for as long as the test
    // needs, whatever the machine's speed.
    const held = proxy.holdNextStream();
    await send('Tell me a long story about gateways');
    await held.reached;
    const assistant = page.locator('article[data-role="assistant"]');
    await expect.poll(() => assistant.textContent(), { timeout: 20_000 }).toContain('Echo:');
    expect(await page.getByTestId('status').textContent()).toBe('streaming');
    await page.getByRole('button', { name: 'Stop' }).click();
    // Stop reaches the gateway: the app closes its connection (the proxy sees it).
    await held.clientClosed;
    await expect
      .poll(() => page.getByTestId('status').textContent(), { timeout: 20_000 })
      .toBe('ready');
    const stopped = assistant.getByTestId('stopped');
    expect(await stopped.count()).toBe(1);
    expect(await stopped.textContent()).toContain('Stopped');
    expect(await assistant.textContent()).toContain('Echo:');
    expect(await page.getByTestId('chat-error').count()).toBe(0);
    held.release();
  });

  it('shows a reasoning model’s reasoning collapsed above the answer', async () => {
    await page.goto(appURL);
    await page.getByLabel('Model').selectOption('community/reasoner');
    await send('Is seven a prime number');
    const assistant = page.locator('article[data-role="assistant"]');
    await expect
      .poll(() => page.getByTestId('status').textContent(), { timeout: 30_000 })
      .toBe('ready');
    const reasoning = assistant.getByTestId('reasoning');
    expect(await reasoning.count()).toBe(1);
    // Collapsed: only the summary shows until it is opened.
    expect(await reasoning.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false);
    expect(await reasoning.textContent()).toContain('I answer by echoing them');
    expect(await assistant.textContent()).toContain('Echo: Is seven a prime number');
    // Above the answer: the details element comes before the answer's text in the message.
    const reasoningFirst = await assistant.evaluate((article) => {
      const details = article.querySelector('[data-testid="reasoning"]');
      const answer = [...article.querySelectorAll('span')].find((span) =>
        span.textContent?.includes('Echo:'),
      );
      return Boolean(
        details &&
          answer &&
          details.compareDocumentPosition(answer) & Node.DOCUMENT_POSITION_FOLLOWING,
      );
    });
    expect(reasoningFirst).toBe(true);
    await reasoning.locator('summary').click();
    expect(await reasoning.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(true);
  });

  it('shows the error when the gateway fails mid-stream', async () => {
    await page.goto(appURL);
    gateway.emulator.injectFault({
      fault: 'stream_error',
      endpoint: 'chat',
      times: 1,
      afterChunks: 3,
    });
    const logBefore = appLog.length;
    await send('Tell me a long story about gateways');
    const alert = page.getByTestId('chat-error');
    await alert.waitFor({ timeout: 20_000 });
    expect(await alert.textContent()).toContain('The request failed.');
    expect(await alert.textContent()).toContain('provider_request_failed');
    expect(await alert.textContent()).not.toContain(gateway.apiKey);
    await expect
      .poll(() => page.getByTestId('status').textContent(), { timeout: 20_000 })
      .toBe('error');
    await page.screenshot({ path: `${artifacts}/nextjs-chat-error.png`, fullPage: true });
    // The server logs the refusal as one line, without a stack trace.
    await expect
      .poll(() => refusalLines(appLog.slice(logBefore)), { timeout: 20_000 })
      .toHaveLength(1);
    const log = appLog.slice(logBefore);
    expect(refusalLines(log)[0]).toContain(
      'chat: community/general failed: provider_request_failed: ',
    );
    expect(log).not.toMatch(/^\s+at /m);
  });

  it('keeps the newest message and the error in view, above the input bar', async () => {
    await page.goto(appURL);
    await page.getByLabel('Tools').uncheck();
    const assistant = page.locator('article[data-role="assistant"]');
    // Enough exchanges to fill more than the 700 px viewport.
    for (let turn = 1; turn <= 6; turn++) {
      await send(`Message number ${turn}, with a few words to make the bubble a little taller`);
      await expect
        .poll(() => page.getByTestId('status').textContent(), { timeout: 20_000 })
        .toBe('ready');
      expect(await assistant.count()).toBe(turn);
      // (The page scrolls smoothly; on a loaded machine that takes more than poll's default 1 s.)
      await expect.poll(() => placement(assistant.last()), { timeout: 15_000 }).toEqual(IN_VIEW);
    }
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    // Nothing wider than the window (a long model label once pushed the page sideways).
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);
    await page.screenshot({ path: `${artifacts}/nextjs-chat-scrolled.png` });

    // A refusal: the whole message, in view above the bar (not only the status word "error").
    gateway.emulator.injectFault({ fault: 'provider_request_failed', endpoint: 'chat' });
    const logBefore = appLog.length;
    await send('This one is refused');
    const alert = page.getByTestId('chat-error');
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.textContent()).toMatch(
      /The request failed\. provider_request_failed: .*provider failed/,
    );
    await expect.poll(() => placement(alert), { timeout: 15_000 }).toEqual(IN_VIEW);
    await page.screenshot({ path: `${artifacts}/nextjs-chat-error-in-view.png` });
    await expect
      .poll(() => refusalLines(appLog.slice(logBefore)), { timeout: 20_000 })
      .toHaveLength(1);
    expect(appLog.slice(logBefore)).not.toMatch(/^\s+at /m);
  });
});

const IN_VIEW = { inViewport: true, aboveBar: true };

/** Whether the element is fully inside the viewport and not under the fixed input bar. */
async function placement(element: Locator): Promise<{ inViewport: boolean; aboveBar: boolean }> {
  return element.evaluate((node) => {
    const box = node.getBoundingClientRect();
    const bar = document.querySelector('form')?.getBoundingClientRect();
    return {
      inViewport: box.top >= 0 && box.bottom <= window.innerHeight,
      aboveBar: bar !== undefined && box.bottom <= bar.top,
    };
  });
}

/** The server's log lines about failed answers. */
function refusalLines(log: string): string[] {
  return log.split('\n').filter((line) => line.startsWith('chat: '));
}
