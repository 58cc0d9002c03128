// The guided tour of infergate: every package, on the embedded emulator or on your gateway.
// Run: pnpm demo (from the repository root), or npm start here (in this folder, or a copy of it).

import { isGatewayError } from '@infergate/core';
import { APICallError } from 'ai';
import { connectGateway } from './connect-gateway.ts';
import {
  aiSdkOutputObject,
  aiSdkReasoning,
  aiSdkStreamTools,
  embeddingsSearch,
} from './steps/ai-sdk.ts';
import { listCatalog } from './steps/catalog.ts';
import {
  capabilityRefusal,
  offlineFallback,
  parallelBudget,
  rateLimitRetry,
} from './steps/gateway-behaviour.ts';
import {
  langchainInvoke,
  langchainStream,
  langchainStructured,
  langchainToolLoop,
} from './steps/langchain.ts';
import { mcpServer } from './steps/mcp-server.ts';
import { ocr, transcription, translation } from './steps/services.ts';
import { whatHappened } from './steps/what-happened.ts';
import { failed, heading, skipped, style } from './terminal.ts';
import { createTour, type Step, StepSkipped } from './tour.ts';

const STEPS: Step[] = [
  listCatalog,
  langchainInvoke,
  langchainStream,
  langchainToolLoop,
  langchainStructured,
  aiSdkStreamTools,
  aiSdkOutputObject,
  aiSdkReasoning,
  embeddingsSearch,
  translation,
  ocr,
  transcription,
  offlineFallback,
  capabilityRefusal,
  rateLimitRetry,
  parallelBudget,
  mcpServer,
  whatHappened,
];

/** The typed error, as a user would branch on it. */
function describeError(error: unknown): string {
  if (isGatewayError(error)) {
    const status = error.status === undefined ? '' : ` (HTTP ${error.status})`;
    return `GatewayError ${error.code}${status}: ${error.message}`;
  }
  if (APICallError.isInstance(error)) {
    const code = (error.data as { code?: string } | undefined)?.code ?? 'unknown';
    return `APICallError ${code} (HTTP ${error.statusCode ?? '-'}): ${error.message}`;
  }
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

async function main(): Promise<number> {
  console.log(style.bold('infergate: a guided tour'));
  // On the emulator, a little latency and a delay between streamed events make streaming and
  // queueing visible, as on a real gateway.
  const connection = await connectGateway({
    scenario: { streamChunkDelayMs: 25, latencyMs: { min: 20, max: 60 } },
  });
  const results: { step: Step; outcome: 'passed' | 'skipped' | 'failed'; detail?: string }[] = [];
  try {
    const tour = await createTour(connection);
    for (const [index, step] of STEPS.entries()) {
      heading(index + 1, STEPS.length, step.title, step.what);
      if (step.emulatorOnly && !tour.emulator) {
        skipped(`${step.emulatorOnly}; unset INFERGATE_BASE_URL to see it on the emulator`);
        results.push({ step, outcome: 'skipped' });
        continue;
      }
      try {
        await step.run(tour);
        results.push({ step, outcome: 'passed' });
      } catch (error) {
        if (error instanceof StepSkipped) {
          skipped(error.message);
          results.push({ step, outcome: 'skipped' });
        } else {
          failed(describeError(error));
          results.push({ step, outcome: 'failed', detail: describeError(error) });
        }
      }
    }
  } finally {
    await connection.close();
  }
  const count = (outcome: string) => results.filter((result) => result.outcome === outcome).length;
  console.log(
    `\n${style.bold('Summary:')} ${count('passed')} passed, ${count('skipped')} skipped, ${count('failed')} failed`,
  );
  for (const result of results.filter((r) => r.outcome === 'failed')) {
    console.log(style.red(`  failed: ${result.step.title}: ${result.detail}`));
  }
  return count('failed') === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(style.red(`The tour could not start: ${describeError(error)}`));
    process.exit(1);
  },
);
