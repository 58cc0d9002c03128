// docs/gateway-protocol.md §6 (embeddings: one engine for a query and its texts).

import { GatewayError } from '@infergate/core';
import { clip } from '@infergate/core/internal';
import { checkEmbedMany } from '@infergate/core/internal/service-tools';
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerGatewayTool, runTool, type ToolContext, toolResult } from './tool-context';
import { embeddingArgument, type ToolArgumentOf } from './tool-errors';
import { embedOutput, similarityOutput } from './tool-output-schemas';
import { embedInput, similarityInput } from './tool-schemas';

/**
 * Cosine similarity of two vectors of one length (0 when either is all zeros). Vectors of
 * different lengths are refused (a `RangeError` naming both): no similarity between them means
 * anything, and padding one with zeros would make the result depend on the order. Each vector is
 * scaled by its largest magnitude first, so components near the limits of a double (1e200,
 * 1e-200) neither overflow to Infinity nor underflow to 0.
 */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) {
    throw new RangeError(
      `cosineSimilarity: the vectors have different lengths (${a.length} and ${b.length}); compare vectors of one engine and dimension`,
    );
  }
  const scaleA = largestMagnitude(a);
  const scaleB = largestMagnitude(b);
  if (scaleA === 0 || scaleB === 0) return 0;
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i]! / scaleA;
    const y = b[i]! / scaleB;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  // Rounding may take it a hair past ±1.
  return Math.max(-1, Math.min(1, dot / (Math.sqrt(normA) * Math.sqrt(normB))));
}

/** The largest absolute value of a vector's components (0 for an empty or all-zero vector). */
function largestMagnitude(vector: readonly number[]): number {
  let largest = 0;
  for (const value of vector) largest = Math.max(largest, Math.abs(value));
  return largest;
}

/** Texts in an answer are cut to this many characters (the model has them already). */
const ECHO_CHARS = 200;
/** Cut at a code point (core's `clip`): half an emoji is ill-formed JSON text to strict readers. */
const echo = (text: string) => clip(text, ECHO_CHARS);

/** `embed` (vectors) and `similarity` (texts ranked against a query by cosine similarity). */
export function registerEmbeddingTools(
  server: McpServer,
  context: ToolContext,
): Record<'embed' | 'similarity', RegisteredTool> {
  return { embed: registerEmbed(server, context), similarity: registerSimilarity(server, context) };
}

function registerEmbed(server: McpServer, context: ToolContext): RegisteredTool {
  const { client } = context;
  return registerGatewayTool(
    server,
    'embed',
    {
      title: 'Embed texts',
      description:
        "Turn texts into embedding vectors with the gateway's embedding engines (for storing in a vector index, clustering or your own comparisons). Any number of texts: a long list is sent to the gateway in several requests. To rank texts by meaning against a query, use similarity instead. Returns the engine, the dimension and one vector per text, in order.",
      inputSchema: embedInput,
      outputSchema: embedOutput,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args, extra) =>
      runTool(
        context,
        extra,
        async () => {
          const engine = await client.resolveEmbeddingEngine(args.engine, { signal: extra.signal });
          const vectors = await client.embedMany(args.texts, {
            model: engine.id,
            inputType: args.input_type,
            dimensions: args.dimensions,
            signal: extra.signal,
          });
          const dimensions = vectors[0]?.length ?? 0;
          return toolResult(JSON.stringify({ engine: engine.id, dimensions, vectors }), {
            engine: engine.id,
            dimensions,
            vectors,
          });
        },
        (field) => embeddingArgument(field),
      ),
  );
}

function registerSimilarity(server: McpServer, context: ToolContext): RegisteredTool {
  const { client } = context;
  return registerGatewayTool(
    server,
    'similarity',
    {
      title: 'Rank texts by similarity',
      description:
        'Rank the given texts by how close their meaning is to a query (embeddings and cosine similarity; works across languages with the multilingual engine). Use it to pick the relevant passages, de-duplicate or match items. Returns the texts best first with their index in the input and a score from -1 to 1.',
      inputSchema: similarityInput,
      outputSchema: similarityOutput,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args, extra) => {
      // Core names the one text of an embedMany call `text`, in the query's call as in a one-text
      // list's. The error the query's call threw names `query`: that error, not a flag, as when
      // both calls fail the one told may be the texts'.
      let queryError: unknown;
      const argumentOf: ToolArgumentOf = (field, error) =>
        embeddingArgument(field, error === queryError ? 'query' : 'texts[0]');
      return runTool(
        context,
        extra,
        async () => {
          const engine = await client.resolveEmbeddingEngine(args.engine, { signal: extra.signal });
          const embedQuery = () =>
            client
              .embedMany([args.query], {
                model: engine.id,
                inputType: 'query',
                signal: extra.signal,
              })
              .catch((error: unknown) => {
                queryError = error;
                throw error;
              });
          const embedTexts = () =>
            client.embedMany(args.texts, {
              model: engine.id,
              inputType: 'document',
              signal: extra.signal,
            });
          // Both calls' inputs are checked (core's own embedMany checks) before either sends: a
          // refused text must not follow a query already embedded (README: "each text is checked
          // before anything is sent").
          try {
            checkEmbedMany([args.query], { inputType: 'query' }, engine);
          } catch (error) {
            queryError = error;
            throw error;
          }
          checkEmbedMany(args.texts, { inputType: 'document' }, engine);
          const [[queryVector], documents] = await Promise.all([embedQuery(), embedTexts()]);
          sameLengths(engine.id, queryVector!, documents);
          const ranked = documents
            .map((vector, index) => ({
              index,
              score: Number(cosineSimilarity(queryVector!, vector).toFixed(6)),
            }))
            .sort((a, b) => b.score - a.score || a.index - b.index)
            .slice(0, args.top_k ?? documents.length)
            .map(({ index, score }) => ({ index, score, text: echo(args.texts[index]!) }));
          const lines = ranked.map(
            (entry, rank) =>
              `${rank + 1}. [${entry.index}] ${entry.score.toFixed(3)} ${entry.text}`,
          );
          return toolResult(lines.join('\n'), { engine: engine.id, ranking: ranked });
        },
        argumentOf,
      );
    },
  );
}

/**
 * `similarity`'s two calls (the query, the texts) answered vectors of different lengths: the
 * engine's answer is unusable (`invalid_response`, as core refuses such a mismatch across one
 * `embedMany`'s batches), not this server's failure.
 */
function sameLengths(engine: string, query: number[], documents: number[][]): void {
  const index = documents.findIndex((vector) => vector.length !== query.length);
  if (index === -1) return;
  throw new GatewayError({
    code: 'invalid_response',
    message: `Embedding engine "${engine}" answered vectors of different lengths: ${query.length} for the query, ${documents[index]!.length} for texts[${index}]; vectors of different lengths cannot be compared`,
    model: engine,
  });
}
