// docs/gateway-protocol.md §7 (translation), §8 (OCR), §9 (transcription), as AI SDK 6 tools.
import { asSchema, type Tool } from '@ai-sdk/provider-utils';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type {
  GatewayOcrResult,
  GatewayTranscribeResult,
  GatewayTranslateResult,
} from '../tools/gateway-service-types';
import type {
  OcrToolInput,
  OcrToolOptions,
  TranscribeToolInput,
  TranscribeToolOptions,
  TranslateToolInput,
  TranslateToolOptions,
} from '../tools/gateway-tool-options';
import type { GatewayTools } from '../tools/gateway-tools';

/**
 * A service tool for AI SDK 6. Its input schema is a Standard Schema with its JSON Schema (what
 * every ai@6 reads), because `ai@6`'s own `Schema` type carries a symbol each release of
 * `@ai-sdk/provider-utils` declares anew: no one declared type fits every 6.x.
 */
interface GatewayToolV3<INPUT, OUTPUT> {
  description: string;
  inputSchema: StandardSchemaV1<unknown, INPUT> & StandardJSONSchemaV1<unknown, INPUT>;
  execute: (input: INPUT, options: { abortSignal?: AbortSignal }) => Promise<OUTPUT>;
}

/** The gateway's services as AI SDK 6 tools. */
export interface GatewayToolsV3 {
  /** A tool that translates text with the gateway's translation service. */
  translate(
    options?: TranslateToolOptions,
  ): GatewayToolV3<TranslateToolInput, GatewayTranslateResult>;
  /** A tool that reads the text in an image with the gateway's OCR service. */
  ocr(options?: OcrToolOptions): GatewayToolV3<OcrToolInput, GatewayOcrResult>;
  /** A tool that transcribes speech with the gateway's speech-to-text service. */
  transcribe(
    options?: TranscribeToolOptions,
  ): GatewayToolV3<TranscribeToolInput, GatewayTranscribeResult>;
}

/** The main entry's tools for ai@6: the same description, parameters, validation and execution. */
export function toV3Tools(tools: GatewayTools): GatewayToolsV3 {
  return {
    translate: (options) => toV3Tool(tools.translate(options)),
    ocr: (options) => toV3Tool(tools.ocr(options)),
    transcribe: (options) => toV3Tool(tools.transcribe(options)),
  };
}

function toV3Tool<INPUT, OUTPUT>(tool: Tool<INPUT, OUTPUT>): GatewayToolV3<INPUT, OUTPUT> {
  const schema = asSchema(tool.inputSchema);
  const { execute } = tool;
  const parameters = schema.jsonSchema;
  if (
    execute === undefined ||
    typeof tool.description !== 'string' ||
    typeof (parameters as PromiseLike<unknown>).then === 'function'
  ) {
    // Core's service tools always have all three; this guards the cast below.
    throw new TypeError('A gateway service tool needs a description, a JSON schema and execute.');
  }
  const jsonSchema = () => parameters as Record<string, unknown>;
  return {
    description: tool.description,
    inputSchema: {
      '~standard': {
        version: 1,
        vendor: 'infergate',
        validate: async (value) => {
          const result = (await schema.validate?.(value)) ?? {
            success: true,
            value: value as INPUT,
          };
          return result.success
            ? { value: result.value }
            : { issues: [{ message: refusalProblem(result.error) }] };
        },
        jsonSchema: { input: jsonSchema, output: jsonSchema },
      },
    },
    // Core's service tools read only the abort signal of ai's execution options.
    execute: async (input, { abortSignal }) =>
      (await execute(input, { abortSignal } as Parameters<typeof execute>[1])) as OUTPUT,
  };
}

/**
 * The check's problem alone (`translate: text is …`), as the main entry's tools give it: the
 * refusal's message already quotes the whole input, and ai@6 wraps the issue in its own
 * `TypeValidationError` that quotes it again; a tool's base64 media would be sent back twice.
 */
function refusalProblem(refusal: Error): string {
  const { cause } = refusal;
  return cause instanceof Error ? cause.message : refusal.message;
}
