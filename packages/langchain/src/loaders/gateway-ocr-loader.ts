// docs/gateway-protocol.md §8 (OCR).
import type { AudioLike, GatewayClient } from '@infergate/core';
import { BaseDocumentLoader } from '@langchain/core/document_loaders/base';
import { Document } from '@langchain/core/documents';
import { type ClientTuning, type GatewayConnectionFields, resolveClient } from '../utils/client';
import { withLangChainErrors } from '../utils/errors';
import { refuseUnknownFields } from '../utils/known-fields';
import { clientTuning, runnableCallOptions } from '../utils/runnable-call-options';

export interface GatewayOcrLoaderFields extends GatewayConnectionFields, ClientTuning {
  /** The image: a Blob/File, bytes, or base64 (decoded 1 byte .. 23 MiB). */
  image: AudioLike;
  /** Metadata added to the document (e.g. `source`). */
  metadata?: Record<string, unknown>;
}

/**
 * Loads one Document with the text read from an image (`POST /ocr`; Ukrainian and English).
 * Metadata: `model` (the engine that read it), `confidence` (0..1) and `language` when the
 * gateway's answer has them, plus your own.
 */
export class GatewayOcrLoader extends BaseDocumentLoader {
  private readonly fields: GatewayOcrLoaderFields;
  private readonly client: GatewayClient;
  /** `timeout` and `maxRetries`, handed to the call (`load()` takes no signal: the deadline is its bound). */
  private readonly tuning: ClientTuning;

  constructor(fields: GatewayOcrLoaderFields) {
    super();
    refuseUnknownFields(fields, { image: true, metadata: true }, 'new GatewayOcrLoader');
    // Only the request fields are kept: the connection fields (API key) stay inside the client.
    const { image, metadata } = fields;
    this.fields = { image, metadata };
    this.client = resolveClient(fields, 'new GatewayOcrLoader');
    this.tuning = clientTuning(fields);
  }

  async load(): Promise<Document[]> {
    const { image, metadata } = this.fields;
    const result = await withLangChainErrors(() =>
      this.client.ocr({ image }, runnableCallOptions(undefined, this.tuning)),
    );
    const name = (image as { name?: unknown }).name;
    return [
      new Document({
        pageContent: result.text,
        metadata: {
          ...(typeof name === 'string' ? { source: name } : {}),
          ...(typeof result.model === 'string' ? { model: result.model } : {}),
          ...(result.confidence !== undefined ? { confidence: result.confidence } : {}),
          ...(typeof result.language === 'string' ? { language: result.language } : {}),
          ...metadata,
        },
      }),
    ];
  }
}
