// docs/gateway-protocol.md §7 (translation).
import { type GatewayClient, LIMITS, type TranslationResponse } from '@infergate/core';
import { runSiblingRequests } from '@infergate/core/internal';
import { Document } from '@langchain/core/documents';
import { ensureConfig, Runnable, type RunnableConfig } from '@langchain/core/runnables';
import { type ClientTuning, type GatewayConnectionFields, resolveClient } from '../utils/client';
import { withLangChainErrors } from '../utils/errors';
import { splitForTranslation } from './split-for-translation';

export interface GatewayTranslatorFields extends GatewayConnectionFields, ClientTuning {
  /** Language to translate into (`en`, `uk`, `pt-BR`, …). */
  targetLanguage: string;
  /** Language of the input; detected when omitted. */
  sourceLanguage?: string;
}

export type TranslatorInput = string | Document;

/**
 * A Runnable that translates with the gateway's translation service: a string gives a string,
 * a Document gives a Document (metadata kept, plus `source_language` / `target_language`).
 * Text over the service's 4096-byte limit is split at paragraph or sentence boundaries and the
 * pieces are translated in parallel within the key's concurrency budget; the first piece that
 * fails stops the others.
 */
export class GatewayTranslator<RunInput extends TranslatorInput = string> extends Runnable<
  RunInput,
  RunInput extends Document ? Document : string
> {
  static override lc_name(): string {
    return 'GatewayTranslator';
  }

  lc_namespace = ['infergate', 'runnables'];

  targetLanguage: string;
  sourceLanguage?: string;
  declare readonly client: GatewayClient;

  constructor(fields: GatewayTranslatorFields) {
    super({ targetLanguage: fields.targetLanguage, sourceLanguage: fields.sourceLanguage });
    this.targetLanguage = fields.targetLanguage;
    this.sourceLanguage = fields.sourceLanguage;
    Object.defineProperty(this, 'client', {
      value: resolveClient(fields, 'new GatewayTranslator'),
      enumerable: false,
    });
  }

  async invoke(
    input: RunInput,
    options?: Partial<RunnableConfig>,
  ): Promise<RunInput extends Document ? Document : string> {
    // `_callWithConfig` races the call with the config's signal and rejects with its reason (a
    // DOMException) when it aborts. The call is handed the signal itself (the call's `timeout`
    // folded into it) and `_callWithConfig` one that never aborts, so an aborted translation
    // rejects, and is recorded, as core's GatewayError `timeout` / `aborted`, as the chat model's
    // and the tools' do.
    const config = ensureConfig(options);
    const { signal } = config;
    return this._callWithConfig(
      ((value: RunInput) => this.translateInput(value, signal)) as (
        value: RunInput,
      ) => Promise<RunInput extends Document ? Document : string>,
      input,
      { ...config, signal: new AbortController().signal },
    ) as Promise<RunInput extends Document ? Document : string>;
  }

  private async translateInput(
    input: RunInput,
    signal: AbortSignal | undefined,
  ): Promise<string | Document> {
    if (typeof input === 'string') {
      return (await withLangChainErrors(() => this.translateText(input, signal))).text;
    }
    const result = await withLangChainErrors(() => this.translateText(input.pageContent, signal));
    return new Document({
      pageContent: result.text,
      metadata: {
        ...input.metadata,
        ...(result.sourceLanguage ? { source_language: result.sourceLanguage } : {}),
        target_language: this.targetLanguage,
      },
      ...(input.id !== undefined ? { id: input.id } : {}),
    });
  }

  private async translateText(
    text: string,
    signal: AbortSignal | undefined,
  ): Promise<{ text: string; sourceLanguage?: string }> {
    const pieces = splitForTranslation(text, LIMITS.translationMaxInputBytes).map(
      separateWhitespace,
    );
    // Core's rule for a call of several requests: the first piece that fails stops the others
    // (queued or in flight), and the call fails once they have ended.
    const results = await runSiblingRequests(pieces, signal, ({ core }, sibling) =>
      core === ''
        ? Promise.resolve(undefined)
        : this.client.translate(
            {
              input: core,
              target_language: this.targetLanguage,
              ...(this.sourceLanguage ? { source_language: this.sourceLanguage } : {}),
            },
            { signal: sibling.signal },
          ),
    );
    // The whitespace around each piece is kept as it was, so paragraphs survive the split.
    const translated = pieces
      .map((piece, i) => `${piece.leading}${results[i]?.text ?? ''}${piece.trailing}`)
      .join('');
    const first = results.find((result): result is TranslationResponse => result !== undefined);
    return { text: translated, sourceLanguage: first?.source_language };
  }
}

function separateWhitespace(piece: string): { leading: string; core: string; trailing: string } {
  const leading = /^\s*/.exec(piece)![0];
  const rest = piece.slice(leading.length);
  const trailing = /\s*$/.exec(rest)![0];
  return { leading, core: rest.slice(0, rest.length - trailing.length), trailing };
}
