import { type ChildProcess } from 'node:child_process';
export declare const bin: string;
/** The bin runs the built CLI; build once when the tests run before any build. */
export declare function ensureBuilt(): void;
/** Starts `infergate-mcp --http …` and resolves with its URL once it listens. */
export declare function spawnHttpCli(args: string[], env: NodeJS.ProcessEnv): Promise<{
    url: string;
    child: ChildProcess;
    stderr: () => string;
}>;
