import { describe, expect, it } from 'vitest';
import { mapGatewayFinishReason } from './map-gateway-finish-reason';

describe('mapGatewayFinishReason', () => {
  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['content_filter', 'content-filter'],
    ['tool_calls', 'tool-calls'],
    ['function_call', 'tool-calls'],
    ['max_tokens', 'length'],
    ['error', 'error'],
    ['something_new', 'other'],
  ])('maps %s to %s and keeps the raw value', (raw, unified) => {
    expect(mapGatewayFinishReason(raw)).toEqual({ unified, raw });
  });

  it('maps a missing reason to other with raw undefined', () => {
    expect(mapGatewayFinishReason(null)).toEqual({ unified: 'other', raw: undefined });
    expect(mapGatewayFinishReason(undefined)).toEqual({ unified: 'other', raw: undefined });
    // Core's word for none (a non-streamed answer's finish_reason null).
    expect(mapGatewayFinishReason(null)).toEqual({ unified: 'other', raw: undefined });
    // A server's own word is kept as its raw reason, whatever it is.
    expect(mapGatewayFinishReason('unknown')).toEqual({ unified: 'other', raw: 'unknown' });
  });
});
