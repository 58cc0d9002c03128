import { type RunningEmulator, type ScenarioInput } from '@infergate/emulator';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type GatewayMcpServer, type GatewayMcpServerOptions } from '../src/index';
/** Every JSON-RPC message that crossed a transport, as sent (to check what never appears). */
export declare const wire: string[];
export interface Harness {
    gateway: RunningEmulator;
    mcp: GatewayMcpServer;
    /** A directory that is the server's only allowed root. */
    root: string;
    /** Outside the root (for traversal tests). */
    outside: string;
    connect(): Promise<Client>;
    close(): Promise<void>;
}
/** The emulator's HTTP server, a gateway MCP server on it, and SDK clients over in-memory pairs. */
export declare function startHarness(options?: {
    scenario?: ScenarioInput;
    server?: Partial<GatewayMcpServerOptions>;
}): Promise<Harness>;
/** The text of a tool result's first content block. */
export declare function textOf(result: unknown): string;
