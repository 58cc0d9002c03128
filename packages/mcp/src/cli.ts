// The `infergate-mcp` command (filled in with the transports).
export {};
