// docs/gateway-protocol.md §7 (translation), §8 (OCR), §9 (transcription) as MCP tools.
import { LIMITS } from '@infergate/core';
import { serviceToolDefinition } from '@infergate/core/internal';
import { serviceToolRequest } from '@infergate/core/internal/service-tools';
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { readMedia } from './media-input';
import { registerGatewayTool, runTool, type ToolContext, toolResult } from './tool-context';
import { mediaArgument } from './tool-errors';
import { ocrOutput, transcribeOutput, translateOutput } from './tool-output-schemas';
import {
  type MediaArgs,
  type MediaOffer,
  ocrInput,
  transcribeInput,
  translateInput,
} from './tool-schemas';

function mediaHow(kind: 'image' | 'audio', { files, urls }: MediaOffer): string {
  const ways = [
    ...(files ? [`a file path (${kind}_path, under the allowed roots)`] : []),
    ...(urls ? [`an http(s) URL (${kind}_url)`] : []),
    `base64 data (${kind}_base64)`,
  ];
  return `Give the ${kind} as exactly one of: ${ways.join(', ')}.`;
}

/** `translate`'s names: the request's `input` is the tool's `text`. */
const translateArgument = (field: string) => (field === 'input' ? 'text' : undefined);

/**
 * `translate`, `ocr` and `transcribe`: the gateway's services, described as core defines them.
 * Their answers' fields are copied as sent; `registerGatewayTool` makes them fit the output schemas
 * (a `null` language left out, a `"3.2"` duration read as 3.2, …).
 */
export function registerServiceTools(
  server: McpServer,
  context: ToolContext,
  offer: MediaOffer,
): Record<'translate' | 'ocr' | 'transcribe', RegisteredTool> {
  return {
    translate: registerTranslate(server, context),
    ocr: registerOcr(server, context, offer),
    transcribe: registerTranscribe(server, context, offer),
  };
}

function registerTranslate(server: McpServer, context: ToolContext): RegisteredTool {
  return registerGatewayTool(
    server,
    'translate',
    {
      title: 'Translate text',
      description: `${serviceToolDefinition('translate').description} At most ${LIMITS.translationMaxInputBytes} bytes of UTF-8 per call: split longer text.`,
      inputSchema: translateInput,
      outputSchema: translateOutput,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args, extra) =>
      runTool(
        context,
        extra,
        async () => {
          const answer = await context.client.translate(serviceToolRequest('translate', args), {
            signal: extra.signal,
          });
          return toolResult(answer.text, {
            text: answer.text,
            target_language: answer.target_language,
            source_language: answer.source_language,
          });
        },
        translateArgument,
      ),
  );
}

function registerOcr(server: McpServer, context: ToolContext, offer: MediaOffer): RegisteredTool {
  return registerGatewayTool(
    server,
    'ocr',
    {
      title: 'Read text in an image (OCR)',
      description: `${serviceToolDefinition('ocr').description} ${mediaHow('image', offer)} At most ${LIMITS.ocrMaxImageBytes / 1024 / 1024} MiB.`,
      inputSchema: ocrInput(offer),
      outputSchema: ocrOutput,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args: MediaArgs, extra) =>
      runTool(
        context,
        extra,
        async (progress) => {
          const { signal } = extra;
          const image = await readMedia(
            'image',
            args,
            LIMITS.ocrMaxImageBytes,
            context.media,
            signal,
          );
          progress.step('image read');
          const request = serviceToolRequest('ocr', { image: '' }, { media: image });
          const answer = await context.client.ocr(request, { signal });
          return toolResult(answer.text, {
            text: answer.text,
            confidence: answer.confidence,
            language: answer.language,
          });
        },
        mediaArgument('image', args),
      ),
  );
}

function registerTranscribe(
  server: McpServer,
  context: ToolContext,
  offer: MediaOffer,
): RegisteredTool {
  return registerGatewayTool(
    server,
    'transcribe',
    {
      title: 'Transcribe speech',
      description: `${serviceToolDefinition('transcribe').description} ${mediaHow('audio', offer)}`,
      inputSchema: transcribeInput(offer),
      outputSchema: transcribeOutput,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args: MediaArgs, extra) =>
      runTool(
        context,
        extra,
        async (progress) => {
          const { signal } = extra;
          const audio = await readMedia('audio', args, LIMITS.audioMaxBytes, context.media, signal);
          progress.step('audio read');
          const spoken = {
            audio: '',
            language: args.language as string | undefined,
            translate: args.translate as boolean | undefined,
          };
          const request = serviceToolRequest('transcribe', spoken, { media: audio });
          const answer = await context.client.transcribe(request, { signal });
          return toolResult(answer.text, {
            text: answer.text,
            language: answer.language,
            duration_seconds: answer.duration,
            translated_to: args.translate === true ? 'en' : undefined,
          });
        },
        mediaArgument('audio', args),
      ),
  );
}
