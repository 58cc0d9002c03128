// withStructuredOutput's failure says why the answer failed through its cause: core's
// `GatewayError` (`invalid_structured_output`) with `invalidOutput.reason` (`'refused'` for a model
// that declined: OpenAI's `refusal`), as the README tells.

import type { GatewayError } from '@infergate/core';
import { chatsAnsweredBy, emulate, oneMessageAnswer } from '@infergate/emulator/testing';
import { OutputParserException } from '@langchain/core/output_parsers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { GatewayChatModel } from '../src';

const gateway = await emulate();
const fetch = chatsAnsweredBy(gateway.connection, (body) =>
  oneMessageAnswer(body.model, { content: null, refusal: 'Sorry' }, 'stop', body.stream === true),
);

describe("withStructuredOutput's OutputParserException: core's reason on its cause", () => {
  it("a refused answer: cause.invalidOutput.reason 'refused'", async () => {
    const model = new GatewayChatModel('community/json-schema', { ...gateway.connection, fetch });
    const structured = model.withStructuredOutput(z.object({ city: z.string() }));
    const error = await structured.invoke('Where?').then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OutputParserException);
    const cause = (error as OutputParserException).cause as GatewayError;
    expect([cause.code, cause.invalidOutput?.reason]).toEqual([
      'invalid_structured_output',
      'refused',
    ]);
  });
});
