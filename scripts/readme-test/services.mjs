// What a README's blocks talk to, started as a reader would have them running: the emulator as
// the gateway (INFERGATE_BASE_URL / INFERGATE_API_KEY), and when a README's blocks ask for them,
// a Redis (REDIS_URL) and the MCP server over Streamable HTTP (INFERGATE_MCP_URL /
// INFERGATE_MCP_TOKEN). Each from the workspace's build, which is what the tarballs hold.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Starts `command` and resolves once its output matches `ready` (to the match), or rejects with
 * what it printed when it exits first or takes longer than 120 s (a hang guard: on 2 cores
 * oversubscribed ~15×, the emulator took over 20 s to print its address).
 */
function startProcess(name, command, args, { env, ready }) {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const fail = (why) => {
      clearTimeout(timer);
      child.kill();
      reject(new Error(`${name} ${why}:\n${output}`));
    };
    const timer = setTimeout(() => fail('did not start within 120 s'), 120_000);
    const read = (chunk) => {
      output += chunk;
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ match, stop: () => child.kill() });
      }
    };
    child.stdout.setEncoding('utf8').on('data', read);
    child.stderr.setEncoding('utf8').on('data', read);
    child.on('error', (error) => fail(`could not start (${error.message})`));
    child.on('exit', (code) => fail(`exited with ${code}`));
  });
}

async function startEmulator(root, env) {
  const { match, stop } = await startProcess(
    'the emulator',
    process.execPath,
    [join(root, 'packages/emulator/bin/infergate-emulator.js'), '--port', '0'],
    { env, ready: /INFERGATE_BASE_URL=(\S+)\s+(?:export\s+)?INFERGATE_API_KEY=(\S+)/ },
  );
  return { env: { INFERGATE_BASE_URL: match[1], INFERGATE_API_KEY: match[2] }, stop };
}

/** The test kit's redis-server (it picks another port when its first is taken before it binds). */
async function startRedis(root) {
  const kit = pathToFileURL(join(root, 'packages/emulator/dist/testing-redis.js')).href;
  const redis = await (await import(kit)).startRedis().catch((error) => {
    throw new Error(`redis-server (bash scripts/ensure-redis.sh installs it): ${error.message}`);
  });
  return { env: { REDIS_URL: redis.url }, stop: () => redis.stop() };
}

async function startMcpHttp(root, env) {
  const token = randomBytes(24).toString('hex');
  const { match, stop } = await startProcess(
    'infergate-mcp --http',
    process.execPath,
    [join(root, 'packages/mcp/bin/infergate-mcp.js'), '--http', '--port', '0', '--token', token],
    { env, ready: /listening on (http:\/\/\S+)/ },
  );
  return { env: { INFERGATE_MCP_URL: match[1], INFERGATE_MCP_TOKEN: token }, stop };
}

/**
 * Starts what `code` (all of a README's blocks) uses; resolves to the variables that name them
 * and a `stop()` for all of them.
 */
export async function startServices(root, code, baseEnv) {
  const started = [];
  const stop = () => {
    for (const service of started) service.stop();
  };
  try {
    started.push(await startEmulator(root, baseEnv));
    const gatewayEnv = { ...baseEnv, ...started[0].env };
    if (/\bREDIS_URL\b/.test(code)) started.push(await startRedis(root));
    if (/\bINFERGATE_MCP_URL\b/.test(code)) started.push(await startMcpHttp(root, gatewayEnv));
  } catch (error) {
    stop();
    throw error;
  }
  return { env: Object.assign({}, ...started.map((service) => service.env)), stop };
}
