import { createRequire } from 'node:module';
import { join } from 'node:path';
import { emulate } from '@infergate/emulator/testing';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import type * as Core from '../src/index';
import type { GatewayEvent } from '../src/index';
import type * as Otel from '../src/otel';
import { hi } from './helpers';

const dist = (name: string) => join(import.meta.dirname, '..', 'dist', name);

/**
 * Two copies of core in one realm, as an app loading the ESM build beside the CJS one (or two
 * versions) has: the built ESM entry imported, the built CJS entry required.
 */
async function twoCopies(): Promise<[typeof Core, typeof Core, typeof Otel]> {
  const esm = (await import(dist('index.js'))) as typeof Core;
  const cjs = createRequire(import.meta.url)(dist('index.cjs')) as typeof Core;
  const otel = (await import(dist('otel.js'))) as typeof Otel;
  return [esm, cjs, otel];
}

describe('call ids with two copies of core in one realm', () => {
  it('never share an id, so one otelEvents handler ends each span with its own call', async () => {
    const [esm, cjs, otel] = await twoCopies();
    expect(esm.createGatewayClient).not.toBe(cjs.createGatewayClient);
    const gateway = await emulate();
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    }).getTracer('test');
    const spansOf = otel.otelEvents({ tracer });
    const events: GatewayEvent[] = [];
    const onEvent = (event: GatewayEvent) => {
      if (event.operation === 'chat') events.push(event);
      spansOf(event);
    };
    const options = { ...gateway.connection, onEvent };
    const release = gateway.hold();
    const calls = Promise.all([
      esm.createGatewayClient(options).chat(hi('community/general')),
      cjs.createGatewayClient(options).chat(hi('community/reasoner')),
    ]);
    await gateway.untilHeld(2);
    release();
    await calls;

    const starts = events.filter((event) => event.type === 'start');
    expect(new Set(starts.map((event) => event.callId)).size).toBe(2);
    const finished = exporter.getFinishedSpans();
    expect(
      finished
        .filter((span) => span.name.startsWith('chat '))
        .map((span) => [span.name, span.attributes['gen_ai.response.model']])
        .sort(),
    ).toEqual([
      ['chat community/general', 'community/general'],
      ['chat community/reasoner', 'community/reasoner'],
    ]);
    // Both calls' attempt spans ended too (a clash leaves one open).
    expect(finished.filter((span) => span.name === 'POST /chat/completions')).toHaveLength(2);
    await gateway.close();
  });
});
