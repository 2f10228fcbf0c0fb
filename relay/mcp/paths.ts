/** Where AI assistants reach the relay. */
export const MCP_PATH = '/mcp';
/** Where an MCP client learns how to get a token for /mcp (RFC 9728), told in every 401 of /mcp. */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource/mcp';
