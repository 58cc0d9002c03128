// docs/gateway-protocol.md §7 (translation).

import type { CallOptions } from '@infergate/core';
import { type GatewayClient, LIMITS, type TranslationResponse } from '@infergate/core';
import {
  describeGiven,
  invalidRequest,
  refuseNearMisses,
  runSiblingRequests,
} from '@infergate/core/internal';
import {
  validateTranslationLanguages,
  withCallerFieldNames,
} from '@infergate/core/internal/service-tools';
import { Document } from '@langchain/core/documents';
import { type BaseMessage, isBaseMessage } from '@langchain/core/messages';
import { ensureConfig, Runnable, type RunnableConfig } from '@langchain/core/runnables';
import { LANGCHAIN_KEYS } from '../chat_models/gateway-chat-model-options';
import { type ClientTuning, type GatewayConnectionFields, resolveClient } from '../utils/client';
import { withLangChainErrors } from '../utils/errors';
import { refuseUnknownFields } from '../utils/known-fields';
import { clientTuning, runnableCallOptions } from '../utils/runnable-call-options';
import { splitForTranslation } from './split-for-translation';

export interface GatewayTranslatorFields extends GatewayConnectionFields, ClientTuning {
  /** Language to translate into (`en`, `uk`, `pt-BR`, …). */
  targetLanguage: string;
  /** Language of the input; detected when omitted. */
  sourceLanguage?: string;
}

/** Core's names of the translation request's language fields, as the translator's fields. */
const TRANSLATOR_FIELDS = {
  target_language: 'targetLanguage',
  source_language: 'sourceLanguage',
};

/** What the translator takes: a string, a Document, or a message (a chat model's answer). */
export type TranslatorInput = string | Document | BaseMessage;

const TRANSLATOR_FIELD = 'a translator field: give it to `new GatewayTranslator({ … })`';

/** The translator's fields, which a call's options do not take (each call uses the translator's). */
const PER_CALL_HINTS = {
  targetLanguage: TRANSLATOR_FIELD,
  sourceLanguage: TRANSLATOR_FIELD,
  target_language: TRANSLATOR_FIELD,
  source_language: TRANSLATOR_FIELD,
};

/**
 * A Runnable that translates with the gateway's translation service: a string gives a string,
 * a Document gives a Document (metadata kept, `language` set to the target, plus
 * `source_language` / `target_language`), a
 * message (`model.pipe(translator)`) gives its text translated. Anything else is refused with a
 * GatewayError `invalid_request_error`, before anything is sent.
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

  /**
   * A `targetLanguage` or `sourceLanguage` that is no language code (`'german'`) is refused here,
   * by core's rule, with a GatewayError `invalid_request_error` naming the field as given here,
   * rather than failing every call. An unknown field (`targetLanguag`) is refused first, naming
   * the closest known one: it would do nothing.
   */
  constructor(fields: GatewayTranslatorFields) {
    refuseUnknownFields(
      fields,
      { targetLanguage: true, sourceLanguage: true },
      'new GatewayTranslator',
    );
    try {
      validateTranslationLanguages(translationLanguages(fields));
    } catch (error) {
      throw withCallerFieldNames(error, TRANSLATOR_FIELDS);
    }
    super({ targetLanguage: fields.targetLanguage, sourceLanguage: fields.sourceLanguage });
    this.targetLanguage = fields.targetLanguage;
    this.sourceLanguage = fields.sourceLanguage;
    Object.defineProperty(this, 'client', {
      value: resolveClient(fields, 'new GatewayTranslator'),
      enumerable: false,
    });
    this.#tuning = clientTuning(fields);
  }

  /** The translator's `timeout` and `maxRetries`, handed to each call (a shared client's too). */
  readonly #tuning: ClientTuning;

  async invoke(
    input: RunInput,
    options?: Partial<RunnableConfig>,
  ): Promise<RunInput extends Document ? Document : string> {
    // `_callWithConfig` races the call with the config's signal and rejects with its reason (a
    // DOMException) when it aborts. The call is handed the signal itself (the call's `timeout`
    // folded into it, its number given to core as the deadline) and `_callWithConfig` one that
    // never aborts, so an aborted translation rejects, and is recorded, as core's GatewayError
    // `timeout` / `aborted`, and a Retry-After that cannot fit fails at once with the gateway's
    // answer, as the chat model's and the tools' do.
    // A translator field given per call would do nothing; a near miss of LangChain's own key
    // (`timout`) would leave the call without its deadline: both refused before any request.
    if (options !== undefined) {
      refuseNearMisses(
        options,
        [],
        LANGCHAIN_KEYS,
        'GatewayTranslator call options',
        'call option',
        PER_CALL_HINTS,
        false,
      );
    }
    const config = ensureConfig(options);
    const call = runnableCallOptions(config, this.#tuning);
    return this._callWithConfig(
      ((value: RunInput) => this.translateInput(value, call)) as (
        value: RunInput,
      ) => Promise<RunInput extends Document ? Document : string>,
      input,
      { ...config, signal: new AbortController().signal },
    ) as Promise<RunInput extends Document ? Document : string>;
  }

  private async translateInput(input: RunInput, call: CallOptions): Promise<string | Document> {
    const document = asDocument(input);
    const text = document?.pageContent ?? textOf(input);
    const result = await withLangChainErrors(() => this.translateText(text, call));
    if (!document) return result.text;
    return new Document({
      pageContent: result.text,
      // `language` is the text's, now the target's (a transcript's was the speech's, which is
      // the source's then): labelled as the transcript loader labels its translated text.
      metadata: {
        ...document.metadata,
        language: this.targetLanguage,
        ...(result.sourceLanguage ? { source_language: result.sourceLanguage } : {}),
        target_language: this.targetLanguage,
      },
      ...(document.id !== undefined ? { id: document.id } : {}),
    });
  }

  private async translateText(
    text: string,
    call: CallOptions,
  ): Promise<{ text: string; sourceLanguage?: string }> {
    const pieces = splitForTranslation(text, LIMITS.translationMaxInputBytes).map(
      separateWhitespace,
    );
    // Core's rule for a call of several requests: the first piece that fails stops the others
    // (queued or in flight), and the call fails once they have ended.
    const results = await runSiblingRequests(pieces, call.signal, ({ core }, sibling) =>
      core === ''
        ? Promise.resolve(undefined)
        : this.client.translate(
            { input: core, ...translationLanguages(this) },
            { ...call, signal: sibling.signal },
          ),
    ).catch((error: unknown) =>
      // A refusal names this translator's fields (`targetLanguage`), not core's. (Renamed once
      // the siblings have ended: a rejection of each would reach their stop a tick later.)
      Promise.reject(withCallerFieldNames(error, TRANSLATOR_FIELDS)),
    );
    // The whitespace around each piece is kept as it was, so paragraphs survive the split.
    const translated = pieces
      .map((piece, i) => `${piece.leading}${results[i]?.text ?? ''}${piece.trailing}`)
      .join('');
    const first = results.find((result): result is TranslationResponse => result !== undefined);
    return { text: translated, sourceLanguage: first?.source_language };
  }
}

/** The translator's languages as the request's fields (an empty `sourceLanguage`: detected). */
function translationLanguages(
  fields: Pick<GatewayTranslatorFields, 'targetLanguage' | 'sourceLanguage'>,
) {
  return {
    target_language: fields.targetLanguage,
    ...(fields.sourceLanguage ? { source_language: fields.sourceLanguage } : {}),
  };
}

/** A Document by its shape (one from another copy of `@langchain/core` too), else undefined. */
function asDocument(input: unknown): Document | undefined {
  const candidate = input as Partial<Document> | null;
  const isDocument =
    typeof candidate === 'object' &&
    candidate !== null &&
    !isBaseMessage(candidate) &&
    typeof candidate.pageContent === 'string';
  return isDocument ? (candidate as Document) : undefined;
}

/** The text of a string or a message (its text content), else refused naming what was given. */
function textOf(input: unknown): string {
  if (typeof input === 'string') return input;
  if (isBaseMessage(input)) return input.text;
  throw invalidRequest(
    'input',
    `GatewayTranslator takes a string, a Document or a message, got ${describeInput(input)}`,
  );
}

/** The input's kind, with its class or its keys when it is an object (never its values). */
function describeInput(input: unknown): string {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return describeGiven(input);
  const name = Object.getPrototypeOf(input)?.constructor?.name;
  if (typeof name === 'string' && name !== 'Object') return `a ${name}`;
  const keys = Object.keys(input).slice(0, 5);
  return keys.length === 0 ? 'an empty object' : `an object with ${keys.join(', ')}`;
}

function separateWhitespace(piece: string): { leading: string; core: string; trailing: string } {
  const leading = /^\s*/.exec(piece)![0];
  const rest = piece.slice(leading.length);
  const trailing = /\s*$/.exec(rest)![0];
  return { leading, core: rest.slice(0, rest.length - trailing.length), trailing };
}
