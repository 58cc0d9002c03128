// docs/gateway-protocol.md §4.1 (messages, content parts, tool turns, reasoning sent back).
import {
  InvalidArgumentError,
  type LanguageModelV4FilePart,
  type LanguageModelV4Message,
  type LanguageModelV4Prompt,
  type LanguageModelV4ToolResultOutput,
  type SharedV4ProviderOptions,
  type SharedV4Warning,
  UnsupportedFunctionalityError,
} from '@ai-sdk/provider';
import {
  convertToBase64,
  isParsableJson,
  stringifyWithBigIntAndCycles,
} from '@ai-sdk/provider-utils';
import {
  type ChatContentPart,
  type ChatMessage,
  isGatewayError,
  type ToolCall,
} from '@infergate/core';
import { joinTextParts, mediaPart, sendsReasoningBack, toolCallOf } from '@infergate/core/internal';
import { PROVIDER_OPTIONS_KEY } from '../shared/parse-infergate-options';
import { CALL_SETTINGS, refuseMisplacedOptions } from './chat-provider-options';
import { ANSWER_METADATA_KEYS } from './provider-metadata';
import { replayedExtraContent } from './tool-call-metadata';

/**
 * Converts an AI SDK prompt into gateway chat messages (docs/gateway-protocol.md §4.1).
 *
 * - A user message made only of text is sent as a plain string, its text parts joined by a line
 *   break; image or file parts, or a part with `providerOptions.infergate` (its fields are added
 *   to the part: `cache_control`; an image's `detail` goes on `image_url`), turn it into an array
 *   of content parts, which only models that accept parts understand.
 * - An assistant message's text parts are joined as they are: they are the pieces of one answer,
 *   split where its stream turned to reasoning or a tool call.
 * - Assistant tool calls become `tool_calls`, each with the `extra_content` its answer had (from
 *   the part's `providerOptions`: Gemini's thought signature); each tool result becomes its own
 *   `tool` message, named by its tool (`name`).
 * - `providerOptions.infergate` on a message adds its fields to that message unchanged
 *   (the spec allows additional fields).
 * - Reasoning parts go back as `reasoning_content` on turns that made tool calls (thinking models
 *   refuse such a turn without it), every turn's with `sendReasoning: true`, none with `false`.
 * - An assistant's `file` part that is audio the model spoke (its `providerOptions.infergate.audioId`,
 *   ai's copy of the part's metadata) goes back as `audio: {id}` (OpenAI's form: the model hears
 *   it); any other (an image it made) has no place on the wire: left out, with one warning.
 */
export function convertToGatewayChatMessages(
  prompt: LanguageModelV4Prompt,
  options: {
    sendReasoning?: boolean;
    sentKey?: () => string | undefined;
    warnings?: SharedV4Warning[];
  } = {},
): ChatMessage[] {
  const messageExtras = (providerOptions: SharedV4ProviderOptions | undefined) =>
    extrasOf(providerOptions, options.sentKey);
  const messages: ChatMessage[] = [];

  for (const message of prompt) {
    const extra = messageExtras(message.providerOptions);

    switch (message.role) {
      case 'system':
        messages.push({ role: 'system', content: message.content, ...extra });
        break;

      case 'user':
        messages.push({ role: 'user', content: userContent(message, options.sentKey), ...extra });
        break;

      case 'assistant':
        messages.push({ ...assistantMessage(message, options), ...extra });
        break;

      case 'tool':
        for (const part of message.content) {
          if (part.type !== 'tool-result') continue; // approval responses have no wire form
          messages.push({
            role: 'tool',
            tool_call_id: part.toolCallId,
            // Gemini's OpenAI-compatible endpoint refuses a tool result without its tool's name.
            name: part.toolName,
            content: toolResultContent(part.output),
            ...extra,
          });
        }
        break;

      default: {
        const unknownRole: never = message;
        throw new UnsupportedFunctionalityError({
          functionality: `message role ${String((unknownRole as { role?: unknown }).role)}`,
        });
      }
    }
  }

  return messages;
}

type MessageOf<Role extends LanguageModelV4Message['role']> = Extract<
  LanguageModelV4Message,
  { role: Role }
>;

/**
 * Text alone as a plain string, which every model takes (the spec: parts only where the model
 * accepts them, and the catalog does not say which do), its parts a line apart (core's
 * `joinTextParts`). With image or file parts, or a part carrying `providerOptions.infergate`
 * (a mark a string would lose), an array of content parts.
 */
function userContent(
  message: MessageOf<'user'>,
  sentKey?: () => string | undefined,
): string | ChatContentPart[] {
  const plain = message.content.every(
    (part) => part.type === 'text' && part.providerOptions?.[PROVIDER_OPTIONS_KEY] === undefined,
  );
  if (plain) {
    return joinTextParts(message.content.map((part) => (part.type === 'text' ? part.text : '')));
  }
  return message.content.map((part) => {
    const extra = extrasOf(part.providerOptions, sentKey);
    if (part.type === 'text') return { type: 'text', text: part.text, ...extra };
    const { detail, ...rest } = extra;
    const imageDetail = typeof detail === 'string' ? detail : undefined;
    const converted = convertFilePart(part, imageDetail);
    // An image's `detail` goes on `image_url` (OpenAI's only place for it; core puts it there),
    // never on another part (a file by id); the other fields on the part.
    return { ...converted, ...rest };
  });
}

/** Text, client tool calls as `tool_calls`, reasoning as `reasoning_content` when sent back (core's rule). */
function assistantMessage(
  message: MessageOf<'assistant'>,
  options: { sendReasoning?: boolean; warnings?: SharedV4Warning[] },
): ChatMessage {
  let text = '';
  let reasoning = '';
  let audioId: string | undefined;
  let leftOut = false;
  const toolCalls: ToolCall[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
        text += part.text;
        break;
      case 'tool-call':
        // Tools run by the provider are not a gateway concept: only client tool calls are replayed.
        if (part.providerExecuted) break;
        toolCalls.push(
          toolCallOf(
            part.toolCallId,
            part.toolName,
            toolArguments(part.input),
            // Its `extra_content` back as it came (Gemini refuses the step without its signature).
            replayedExtraContent(part.providerOptions),
          ),
        );
        break;
      case 'reasoning':
        reasoning += part.text;
        break;
      case 'file': {
        // The wire has one `audio` per message: the first spoken answer's id; any other file left out.
        const id = part.providerOptions?.[PROVIDER_OPTIONS_KEY]?.audioId;
        if (typeof id === 'string' && audioId === undefined) audioId = id;
        else leftOut = true;
        break;
      }
      // Custom parts and provider tool results have no field on the wire.
      default:
        break;
    }
  }
  if (leftOut) warnFileLeftOut(options.warnings);
  return {
    role: 'assistant',
    content: text.length > 0 ? text : toolCalls.length > 0 || audioId ? null : '',
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...(reasoning && sendsReasoningBack(options.sendReasoning, toolCalls.length > 0)
      ? { reasoning_content: reasoning }
      : {}),
    ...(audioId !== undefined ? { audio: { id: audioId } } : {}),
  };
}

const FILE_LEFT_OUT = 'file parts in assistant messages';

/** One warning per call however many files were left out. */
function warnFileLeftOut(warnings: SharedV4Warning[] | undefined): void {
  if (warnings === undefined) return;
  if (warnings.some((w) => w.type === 'unsupported' && w.feature === FILE_LEFT_OUT)) return;
  warnings.push({
    type: 'unsupported',
    feature: FILE_LEFT_OUT,
    details:
      "An assistant message's file (an image the model made) has no field in the gateway chat: left out of the messages sent. Audio the model spoke goes back by its id.",
  });
}

/**
 * A message's (or part's) `providerOptions.infergate`: fields added to it on the wire. A call
 * setting there (`fallbackModels`, `chunkTimeoutMs`, `streamUsage`, …) steers nothing per message
 * and would reach the model server as a message field: refused, as a value that is no object, and
 * so is what the call's refuses (`timeoutMs`, `fallbackModel`, `tools`: the same check).
 */
function extrasOf(
  providerOptions: SharedV4ProviderOptions | undefined,
  sentKey: (() => string | undefined) | undefined,
): Record<string, unknown> {
  const given: unknown = providerOptions?.[PROVIDER_OPTIONS_KEY];
  if (given === undefined || given === null) return {};
  const where = `message providerOptions.${PROVIDER_OPTIONS_KEY}`;
  if (typeof given !== 'object' || Array.isArray(given)) {
    throw new InvalidArgumentError({
      argument: where,
      message: `${where} is ${Array.isArray(given) ? 'an array' : JSON.stringify(given)}; allowed: an object of fields added to the message`,
    });
  }
  // (An answer's metadata handed back, as the OpenAI Agents SDK does: what it said, not a field.)
  const extras = Object.fromEntries(
    Object.entries(given).filter(([key]) => !ANSWER_METADATA_KEYS.includes(key)),
  );
  const setting = Object.keys(extras).find((key) => CALL_SETTINGS.includes(key));
  if (setting !== undefined) {
    throw new InvalidArgumentError({
      argument: `${where}.${setting}`,
      message: `${where}.${setting} is a call option, not a message's: give it in the call's providerOptions.${PROVIDER_OPTIONS_KEY}`,
    });
  }
  refuseMisplacedOptions(extras, where, sentKey);
  return extras;
}

/**
 * A call's arguments, always JSON (as openai-compatible sends them): a string as it is when it
 * parses (history kept as text), else JSON-encoded (a call the model wrote badly); anything else
 * as JSON, a BigInt as its digits.
 */
function toolArguments(input: unknown): string {
  if (typeof input === 'string') return isParsableJson(input) ? input : JSON.stringify(input);
  return stringifyWithBigIntAndCycles(input ?? {});
}

function convertFilePart(part: LanguageModelV4FilePart, detail?: string): ChatContentPart {
  const { mediaType, data } = part;
  if (data.type === 'text') return { type: 'text', text: data.text };
  let converted: ChatContentPart | undefined;
  try {
    converted = corePartOf(part, detail);
  } catch (error) {
    // Core refuses a part it cannot type (a `video/*` of unknown bytes): an AI SDK error, as
    // openai-compatible refuses it, with core's words (what to give instead).
    if (!isGatewayError(error) || error.code !== 'invalid_request_error') throw error;
    throw new UnsupportedFunctionalityError({
      functionality: `file part with media type ${mediaType}`,
      message: error.message,
    });
  }
  if (converted) return converted;
  throw new UnsupportedFunctionalityError({
    functionality: `file part with media type ${mediaType} (${data.type}); the gateway chat takes images and video by URL or data, audio and other files as data, and any file by its id (a provider reference keyed "${PROVIDER_OPTIONS_KEY}")`,
  });
}

/** Core builds the part (images, video, audio, files: one rule for every adapter). */
function corePartOf(part: LanguageModelV4FilePart, detail?: string): ChatContentPart | undefined {
  const { mediaType, data } = part;
  if (data.type === 'text') return { type: 'text', text: data.text };
  return data.type === 'url'
    ? mediaPart({ mediaType, url: data.url.toString(), detail })
    : data.type === 'data'
      ? mediaPart({
          mediaType,
          data: typeof data.data === 'string' ? data.data : convertToBase64(data.data),
          filename: part.filename,
          detail,
        })
      : // A file the server holds, by its id for this provider (else refused by `convertFilePart`, saying so).
        mediaPart({ mediaType, fileId: data.reference[PROVIDER_OPTIONS_KEY] });
}

function toolResultContent(output: LanguageModelV4ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      // A BigInt as its digits, a cycle as "[Circular]" (as openai-compatible sends them).
      return stringifyWithBigIntAndCycles(output.value);
    case 'execution-denied':
      return output.reason ?? 'Tool execution denied.';
    case 'content':
      return joinTextParts(
        output.value.map((item) => (item.type === 'text' ? item.text : JSON.stringify(item))),
      );
    default:
      return JSON.stringify(output);
  }
}
