/**
 * tsup's `dts.entry` for a package's entry files: the declaration files that TypeScript 7 emitted
 * into `.dts/` (each build script runs `tsc-native -p tsconfig.dts.json` first). tsup then only
 * bundles them; given the `.ts` sources, it would type-check and emit them again through
 * TypeScript 6's API, at about four times the CPU.
 */
export declare function emittedDeclarations(entries: string[]): Record<string, string>;
