// docs/gateway-protocol.md §7–§9 (the services as tools), §3.2 (which services are offered).
import type { AudioLike, ServiceId } from '@infergate/core';
import {
  describeGiven,
  isServiceOffered,
  type OcrToolArguments,
  refusal,
  refuseUnknownOptions,
  SERVICE_OF_TOOL,
  type ServiceToolName,
  serviceToolDefinition,
  type ToolParametersSchema,
  type TranscribeToolArguments,
  type TranslateToolArguments,
} from '@infergate/core/internal';
import { serviceToolCallProblem, serviceToolRequest } from '@infergate/core/internal/service-tools';
import type { RunnableConfig } from '@langchain/core/runnables';
import {
  DynamicStructuredTool,
  type StructuredToolCallInput,
  ToolInputParsingException,
  type ToolReturnType,
  type ToolRunnableConfig,
} from '@langchain/core/tools';
import {
  type ClientTuning,
  type GatewayConnectionFields,
  resolveClient,
  withSharedClient,
} from '../utils/client';
import { withLangChainErrors } from '../utils/errors';
import { refuseUnknownFields } from '../utils/known-fields';
import { clientTuning, runnableCallOptions } from '../utils/runnable-call-options';

/**
 * Turns what a model passes for an image or audio file into bytes. Models cannot carry large
 * files in a tool call, so apps usually pass a reference (a file id, a URL) and resolve it here.
 * Without a resolver the tool input is read as base64. `undefined` or `null` (a reference the app
 * does not know) fails the tool call with an error the model can read.
 */
export type MediaResolver = (
  reference: string,
) => Promise<AudioLike | undefined | null> | AudioLike | undefined | null;

export interface GatewayToolOptions extends GatewayConnectionFields, ClientTuning {
  /** Resolves `image` / `audio` tool arguments to bytes (default: they are base64). */
  resolveMedia?: MediaResolver;
}

/**
 * A LangChain tool of core's service-tool definition. Its input is checked by core's rules before
 * LangChain's own schema check, so a bad input is refused with core's message (the field, the
 * value or its size, the limit) rather than LangChain's "did not match expected schema". Without
 * `resolveMedia` that is every check core runs before the network (`serviceToolCallProblem`: the
 * media's kind, its base64, a URL where data belongs); with it, the media's checks run once it is
 * resolved (`checkedMedia`), refused alike.
 */
class GatewayServiceTool<Args> extends DynamicStructuredTool<
  ToolParametersSchema,
  Args,
  Args,
  string
> {
  readonly #tool: ServiceToolName;
  readonly #resolvesMedia: boolean;

  constructor(
    tool: ServiceToolName,
    options: GatewayToolOptions,
    run: (args: Args, config: RunnableConfig | undefined) => Promise<string>,
  ) {
    const definition = serviceToolDefinition(tool, {
      resolvesMedia: options.resolveMedia !== undefined,
    });
    super({
      name: definition.name,
      description: definition.description,
      schema: definition.parameters,
      verboseParsingErrors: true,
      func: (args, _runManager, config) => withLangChainErrors(() => run(args, config)),
    });
    this.#tool = tool;
    this.#resolvesMedia = options.resolveMedia !== undefined;
  }

  override async call<
    TArg extends StructuredToolCallInput<ToolParametersSchema, Args>,
    TConfig extends ToolRunnableConfig | undefined,
  >(
    arg: TArg,
    configArg?: TConfig,
    tags?: string[],
  ): Promise<ToolReturnType<TArg, TConfig, string>> {
    const args = isToolCall(arg) ? arg.args : arg;
    const problem = await serviceToolCallProblem(this.#tool, args, {
      resolvesMedia: this.#resolvesMedia,
    });
    if (problem !== undefined) {
      throw new ToolInputParsingException(
        `${this.name}: ${problem}${this.#urlHint(args)}`,
        JSON.stringify(args),
      );
    }
    return super.call(arg, configArg, tags);
  }

  /**
   * For a URL where the media's data belongs (core says it is not fetched): how the app can take
   * URLs, since the model may only have one to give.
   */
  #urlHint(args: unknown): string {
    if (this.#resolvesMedia || this.#tool === 'translate') return '';
    const field = this.#tool === 'ocr' ? 'image' : 'audio';
    const value = (args as Record<string, unknown> | null)?.[field];
    return typeof value === 'string' && /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(value)
      ? ' (an app that should take URLs or file ids gives the tool a `resolveMedia`)'
      : '';
  }
}

function serviceTool<Args>(
  name: ServiceToolName,
  options: GatewayToolOptions,
  run: (args: Args, config: RunnableConfig | undefined) => Promise<string>,
): DynamicStructuredTool<ToolParametersSchema, Args, Args, string> {
  return new GatewayServiceTool<Args>(name, options, run);
}

/** A LangChain tool call (`{ args, name, id, type: 'tool_call' }`) rather than plain input. */
function isToolCall(input: unknown): input is { args: unknown } {
  return (
    typeof input === 'object' &&
    input !== null &&
    (input as { type?: unknown }).type === 'tool_call'
  );
}

/**
 * The bytes `resolveMedia` gives for a reference (none without a resolver: the input is base64,
 * checked as the call was parsed). A reference it does not know (`undefined` or `null`, as
 * `files.get(reference)` answers), or media core would refuse before sending (not WAV, MP3 or
 * FLAC, too large, empty), is a tool input error the model can read and repair, nothing sent.
 */
async function checkedMedia(
  options: GatewayToolOptions,
  tool: ServiceToolName,
  args: OcrToolArguments | TranscribeToolArguments,
): Promise<AudioLike | undefined> {
  if (!options.resolveMedia) return undefined;
  const field = tool === 'ocr' ? 'image' : 'audio';
  const reference = (args as unknown as Record<string, string>)[field]!;
  const media = await options.resolveMedia(reference);
  if (media === undefined || media === null) {
    throw new ToolInputParsingException(
      `${tool}: "${field}" is ${JSON.stringify(reference)}, a reference resolveMedia does not know ` +
        `(it returned ${media}): pass the name, URL or id of a known ${field === 'audio' ? 'audio file' : field}`,
      JSON.stringify({ [field]: reference }),
    );
  }
  const problem = await serviceToolCallProblem(tool, args, { media });
  if (problem !== undefined) {
    throw new ToolInputParsingException(`${tool}: ${problem}`, JSON.stringify(args));
  }
  return media;
}

/** `translate`: text → text in another language (about 60 languages, ≤ 4096 bytes per call). */
export function createTranslateTool(options: GatewayToolOptions = {}) {
  refuseUnknownFields(options, { resolveMedia: true }, 'createTranslateTool');
  const gateway = resolveClient(options, 'createTranslateTool');
  // The call's signal and timeout, and the tool's own timeout and maxRetries (with a shared
  // client too): an aborted call frees its slot at once, a Retry-After that cannot fit fails now.
  const tuning = clientTuning(options);
  return serviceTool<TranslateToolArguments>('translate', options, async (args, config) => {
    const request = serviceToolRequest('translate', args);
    return (await gateway.translate(request, runnableCallOptions(config, tuning))).text;
  });
}

/** `ocr`: image → the text in it (Ukrainian and English; photo, scan or screenshot). */
export function createOcrTool(options: GatewayToolOptions = {}) {
  refuseUnknownFields(options, { resolveMedia: true }, 'createOcrTool');
  const gateway = resolveClient(options, 'createOcrTool');
  const tuning = clientTuning(options);
  return serviceTool<OcrToolArguments>('ocr', options, async (args, config) => {
    const media = await checkedMedia(options, 'ocr', args);
    const request = serviceToolRequest('ocr', args, { media });
    return (await gateway.ocr(request, runnableCallOptions(config, tuning))).text;
  });
}

/** `transcribe`: speech (WAV, MP3, FLAC) → text, 99 languages, optionally translated to English. */
export function createTranscribeTool(options: GatewayToolOptions = {}) {
  refuseUnknownFields(options, { resolveMedia: true }, 'createTranscribeTool');
  const gateway = resolveClient(options, 'createTranscribeTool');
  const tuning = clientTuning(options);
  return serviceTool<TranscribeToolArguments>('transcribe', options, async (args, config) => {
    const media = await checkedMedia(options, 'transcribe', args);
    const request = serviceToolRequest('transcribe', args, { media });
    return (await gateway.transcribe(request, runnableCallOptions(config, tuning))).text;
  });
}

export type GatewayTool =
  | ReturnType<typeof createTranslateTool>
  | ReturnType<typeof createOcrTool>
  | ReturnType<typeof createTranscribeTool>;

const CREATE_TOOL: Record<
  ServiceToolName,
  typeof createTranslateTool | typeof createOcrTool | typeof createTranscribeTool
> = {
  translate: createTranslateTool,
  ocr: createOcrTool,
  transcribe: createTranscribeTool,
};

/**
 * The service tools whose service is offered now (`GET /capabilities`, core's availability rule
 * `isServiceOffered`: a tool is left out only when its service is listed with `available_nodes`
 * 0), sharing one client: `translate`, `ocr`, `transcribe`.
 */
export async function createGatewayTools(
  options: GatewayToolOptions & { include?: ('translate' | 'ocr' | 'transcribe')[] } = {},
): Promise<GatewayTool[]> {
  refuseUnknownFields(options, { resolveMedia: true, include: true }, 'createGatewayTools');
  const { include, ...toolOptions } = options;
  if (include !== undefined) refuseUnknownToolNames(include);
  const client = resolveClient(options, 'createGatewayTools');
  const services = await withLangChainErrors(() => client.services());
  const tools: GatewayTool[] = [];
  for (const [name, service] of Object.entries(SERVICE_OF_TOOL) as [ServiceToolName, ServiceId][]) {
    if (!isServiceOffered(services, service)) continue;
    if (include && !include.includes(name)) continue;
    // The shared client carries the connection and hooks (made with them above).
    tools.push(CREATE_TOOL[name](withSharedClient(toolOptions, client)));
  }
  return tools;
}

/**
 * `include` lists tool names: a list that is not an array, or a name that is no tool (`translat`,
 * `OCR`), is refused naming the closest tool, as an unknown option is; it would leave tools out
 * silently.
 */
function refuseUnknownToolNames(include: unknown): void {
  const names = Object.keys(CREATE_TOOL);
  if (!Array.isArray(include)) {
    const what = `must be an array of tool names (${names.join(', ')}), got ${describeGiven(include)}`;
    throw refusal('model setting', 'include', what);
  }
  const given = Object.fromEntries(include.map((name) => [String(name), true]));
  refuseUnknownOptions(given, names, 'createGatewayTools include', 'model setting');
}
