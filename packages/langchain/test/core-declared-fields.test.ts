import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CLIENT_FIELD_KEYS } from '../src/utils/client';

// Each option is declared once, in core: the LangChain fields and call options that are core's
// options are core's declarations (their type, default and doc comment), not copies that could
// drift from them. Read through TypeScript: each property's declaration must be the very one
// core's type has (an equal type declared again here would pass a type-equality test, with its
// own doc).
const root = join(import.meta.dirname, '..');
const program = ts.createProgram([join(root, 'src', 'index.ts')], {
  noEmit: true,
  skipLibCheck: true,
  strict: true,
  types: [],
  target: ts.ScriptTarget.ES2023,
  module: ts.ModuleKind.Preserve,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
});
const checker = program.getTypeChecker();

/** The exported interfaces of a module of the program, by name. */
function exportsOf(file: (name: string) => boolean): Map<string, ts.Type> {
  const source = program.getSourceFiles().find((each) => file(each.fileName));
  const module = source && checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error('module not in the program');
  return new Map(
    checker.getExportsOfModule(module).map((symbol) => {
      const target =
        symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return [symbol.name, checker.getDeclaredTypeOfSymbol(target)];
    }),
  );
}

const ours = exportsOf((name) => name === join(root, 'src', 'index.ts'));
const core = exportsOf((name) => /[/\\]core[/\\]dist[/\\]index\.d\.ts$/.test(name));

/** Where `type`'s property `key` is declared. */
function declarationOf(type: ts.Type | undefined, key: string): ts.Declaration | undefined {
  return type?.getProperty(key)?.declarations?.[0];
}

const STEERING = ['fallbackModels', 'firstChunkTimeoutMs', 'chunkTimeoutMs', 'hedge'];

describe("LangChain's fields that are core's options are core's declarations", () => {
  it.each([
    'GatewayConnectionFields',
    'GatewayChatModelFields',
    'GatewayEmbeddingsFields',
    'GatewayTranslatorFields',
    'GatewayOcrLoaderFields',
    'GatewayAudioTranscriptLoaderFields',
  ])("%s: the connection and budget fields are createGatewayClient's", (name) => {
    const fields = ours.get(name);
    expect(fields, name).toBeDefined();
    for (const key of CLIENT_FIELD_KEYS) {
      const declared = declarationOf(fields, key);
      expect(declared, `${name}.${key}`).toBeDefined();
      expect(declared === declarationOf(core.get('GatewayClientOptions'), key), key).toBe(true);
    }
  });

  it("GatewayChatModelCallOptions: a call's headers and steering are core's", () => {
    const options = ours.get('GatewayChatModelCallOptions');
    const headers = declarationOf(options, 'headers');
    expect(headers).toBeDefined();
    expect(headers === declarationOf(core.get('CallOptions'), 'headers')).toBe(true);
    for (const key of STEERING) {
      expect(declarationOf(options, key) === declarationOf(core.get('SteeringOptions'), key)).toBe(
        true,
      );
    }
  });
});
