// docs/gateway-protocol.md §4.1 (the request: an AI SDK 6 call as the V4 call).
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4FilePart,
  LanguageModelV4Message,
  LanguageModelV4ToolResultOutput,
} from '@ai-sdk/provider';
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3FilePart,
  LanguageModelV3Message,
  LanguageModelV3ToolResultOutput,
} from '@ai-sdk/provider-v3';

/**
 * An AI SDK 6 call (`LanguageModelV3CallOptions`) as the V4 call the gateway models take. Nothing
 * is lost: every V3 option has a V4 field of the same meaning; only file data and the items of a
 * `content` tool result are shaped differently.
 */
export function convertV3CallOptions(
  options: LanguageModelV3CallOptions,
): LanguageModelV4CallOptions {
  const { prompt, ...rest } = options;
  return { ...rest, prompt: prompt.map(convertMessage) };
}

function convertMessage(message: LanguageModelV3Message): LanguageModelV4Message {
  switch (message.role) {
    case 'system':
      return message;
    case 'user':
      return {
        ...message,
        content: message.content.map((part) =>
          part.type === 'file' ? convertFilePart(part) : part,
        ),
      };
    case 'assistant':
      return {
        ...message,
        content: message.content.map((part) => {
          if (part.type === 'file') return convertFilePart(part);
          if (part.type === 'tool-result')
            return { ...part, output: convertToolResultOutput(part.output) };
          return part;
        }),
      };
    case 'tool':
      return {
        ...message,
        content: message.content.map((part) =>
          part.type === 'tool-result'
            ? { ...part, output: convertToolResultOutput(part.output) }
            : part,
        ),
      };
  }
}

/** V3 file data is a URL, base64 text or bytes; V4 says which. */
function convertFilePart(part: LanguageModelV3FilePart): LanguageModelV4FilePart {
  const { data, ...rest } = part;
  return {
    ...rest,
    data: data instanceof URL ? { type: 'url', url: data } : { type: 'data', data },
  };
}

/**
 * The gateway sends a `content` tool result as text: text items as they are, any other item as
 * its JSON. A V3 item that is not text becomes that JSON here, so the model reads the item the
 * AI SDK 6 app gave (not a V4 re-shaping of it).
 */
function convertToolResultOutput(
  output: LanguageModelV3ToolResultOutput,
): LanguageModelV4ToolResultOutput {
  if (output.type !== 'content') return output;
  return {
    ...output,
    value: output.value.map((item) =>
      item.type === 'text' ? item : { type: 'text' as const, text: JSON.stringify(item) },
    ),
  };
}
