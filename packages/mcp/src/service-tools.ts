// docs/gateway-protocol.md §7 (translation), §8 (OCR), §9 (transcription) as MCP tools.
import { LIMITS } from '@infergate/core';
import { serviceToolDefinition, serviceToolRequest } from '@infergate/core/internal';
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { readMedia } from './media-input';
import { registerGatewayTool, runTool, type ToolContext, toolResult } from './tool-context';
import { ocrOutput, transcribeOutput, translateOutput } from './tool-output-schemas';
import { type MediaArgs, ocrInput, transcribeInput, translateInput } from './tool-schemas';

function mediaHow(kind: 'image' | 'audio', files: boolean): string {
  const ways = [
    ...(files ? [`a file path (${kind}_path, under the allowed roots)`] : []),
    `an http(s) URL (${kind}_url)`,
    `base64 data (${kind}_base64)`,
  ];
  return `Give the ${kind} as exactly one of: ${ways.join(', ')}.`;
}

/**
 * `translate`, `ocr` and `transcribe`: the gateway's services, described as core defines them.
 * Their answers' fields are copied as sent; `registerGatewayTool` makes them fit the output schemas
 * (a `null` language left out, a `"3.2"` duration read as 3.2, …).
 */
export function registerServiceTools(
  server: McpServer,
  context: ToolContext,
  files: boolean,
): Record<'translate' | 'ocr' | 'transcribe', RegisteredTool> {
  const { client } = context;

  const translate = registerGatewayTool(
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
      runTool(context, extra, async () => {
        const answer = await client.translate(serviceToolRequest('translate', args), {
          signal: extra.signal,
        });
        return toolResult(answer.text, {
          text: answer.text,
          target_language: answer.target_language,
          source_language: answer.source_language,
        });
      }),
  );

  const ocr = registerGatewayTool(
    server,
    'ocr',
    {
      title: 'Read text in an image (OCR)',
      description: `${serviceToolDefinition('ocr').description} ${mediaHow('image', files)} At most ${LIMITS.ocrMaxImageBytes / 1024 / 1024} MiB.`,
      inputSchema: ocrInput(files),
      outputSchema: ocrOutput,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args: MediaArgs, extra) =>
      runTool(context, extra, async (progress) => {
        const image = await readMedia(
          'image',
          args,
          LIMITS.ocrMaxImageBytes,
          context.media,
          extra.signal,
        );
        progress.step('image read');
        const answer = await client.ocr(
          serviceToolRequest('ocr', { image: '' }, { media: image }),
          {
            signal: extra.signal,
          },
        );
        return toolResult(answer.text, {
          text: answer.text,
          confidence: answer.confidence,
          language: answer.language,
        });
      }),
  );

  const transcribe = registerGatewayTool(
    server,
    'transcribe',
    {
      title: 'Transcribe speech',
      description: `${serviceToolDefinition('transcribe').description} ${mediaHow('audio', files)}`,
      inputSchema: transcribeInput(files),
      outputSchema: transcribeOutput,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args: MediaArgs, extra) =>
      runTool(context, extra, async (progress) => {
        const audio = await readMedia(
          'audio',
          args,
          LIMITS.audioMaxBytes,
          context.media,
          extra.signal,
        );
        progress.step('audio read');
        const request = serviceToolRequest(
          'transcribe',
          {
            audio: '',
            language: args.language as string | undefined,
            translate: args.translate as boolean | undefined,
          },
          { media: audio },
        );
        const answer = await client.transcribe(request, { signal: extra.signal });
        return toolResult(answer.text, {
          text: answer.text,
          language: answer.language,
          duration_seconds: answer.duration,
          translated_to: args.translate === true ? 'en' : undefined,
        });
      }),
  );

  return { translate, ocr, transcribe };
}
