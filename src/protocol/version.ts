/** The runtime's version, reported by engine.ping and by the MCP server. */
export const ENGINE_VERSION = '0.1.0';
