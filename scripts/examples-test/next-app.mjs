// The Next.js example in its copy: `npm run build` (next build, with its type check), then
// `npm start` (next start) against the emulator's HTTP server, and three requests a browser would
// make: the page (its model picker filled from the gateway's catalog), GET /api/models, and a chat
// turn on POST /api/chat that calls the app's tool and streams the answer (the UI message stream
// `useChat` reads). Then once more without the two variables: on the emulator the app starts
// itself (instrumentation.ts).
import { exec } from '../readme-test/check-document.mjs';
import { startServices } from '../readme-test/services.mjs';
import { startServer, tail } from './processes.mjs';

/** The text of a UI message stream (`data: {…}` events), the tools it called, their results. */
function readUiStream(body) {
  let text = '';
  let results = 0;
  const tools = [];
  for (const line of body.split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    const part = JSON.parse(line.slice('data: '.length));
    if (part.type === 'text-delta') text += part.delta;
    if (part.type === 'tool-output-available') results++;
    if (part.type === 'tool-input-available') tools.push(part.toolName);
    if (part.type === 'error') throw new Error(`the stream carried an error: ${part.errorText}`);
  }
  return { text, tools, results };
}

async function askTheApp(base) {
  const page = await fetch(`${base}/`);
  const html = await page.text();
  if (!page.ok || !html.includes('community/general'))
    throw new Error(`GET / answered ${page.status} without the catalog's community/general`);

  const models = await fetch(`${base}/api/models`).then((response) => response.json());
  if (!models.some((model) => model.id === 'community/general' && model.tools))
    throw new Error(
      `GET /api/models lists no community/general with tools: ${JSON.stringify(models)}`,
    );

  const chat = await fetch(`${base}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'community/general',
      useTools: true,
      messages: [
        { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'Use get_weather for "Kyiv"' }] },
      ],
    }),
  });
  const body = await chat.text();
  if (!chat.ok) throw new Error(`POST /api/chat answered ${chat.status}: ${body.slice(0, 500)}`);
  const { text, tools, results } = readUiStream(body);
  if (
    !tools.includes('get_weather') ||
    results === 0 ||
    !text.includes('Tool get_weather returned')
  )
    throw new Error(`POST /api/chat did not call get_weather and answer from it:\n${body}`);
  return text;
}

/**
 * `npm start` on a port the system picks (`-p 0`: Next.js prints it once it listens, and holds
 * requests until its handlers are loaded), asked as `ask` says; stopped afterwards.
 */
async function withApp(dir, { env, key, label, fail }, ask) {
  const server = startServer('npm', ['start', '--', '-p', '0', '-H', '127.0.0.1'], {
    cwd: dir,
    env,
  });
  const shown = () => (key ? server.output().replaceAll(key, '[the API key]') : server.output());
  try {
    // Up to the line's end: a chunk of output can end inside the URL.
    const [, url] = await server.printed(/- Local:\s+(http:\/\/\S+)\s/);
    await ask(url, server);
  } catch (error) {
    fail(`${label}: ${error.message}\n  npm start printed:\n${tail(shown())}`);
  } finally {
    await server.stop();
  }
  if (key && server.output().includes(key)) fail(`${label}: the API key appears in its output`);
}

export async function checkNextApp(dir, { root, env, log, fail }) {
  const build = await exec('npm', ['run', 'build'], { cwd: dir, env, timeoutMs: 900_000 });
  if (build.code !== 0) {
    fail(`npm run build (next build) failed:\n${tail(build.stdout + build.stderr)}`);
    return;
  }
  log('next build done');
  const services = await startServices(root, '', env);
  try {
    const label = 'npm start on the emulator (INFERGATE_BASE_URL set)';
    const key = services.env.INFERGATE_API_KEY;
    await withApp(dir, { env: { ...env, ...services.env }, key, label, fail }, async (base) => {
      const answer = await askTheApp(base);
      log(`page, /api/models and /api/chat answered (${JSON.stringify(answer.slice(0, 60))}…)`);
    });
  } finally {
    services.stop();
  }
  // Without the variables, instrumentation.ts starts an emulator inside the server.
  const label = 'npm start on its own emulator (INFERGATE_BASE_URL unset)';
  await withApp(dir, { env, label, fail }, async (base, server) => {
    await askTheApp(base);
    if (!server.output().includes('using the embedded emulator at http://127.0.0.1:'))
      throw new Error('it did not say that it uses its embedded emulator');
    log('on its own emulator too');
  });
}
