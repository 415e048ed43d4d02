/**
 * The MCP tool server: one MCP server per MCP session, with the tools of tools/ (one file
 * each: name, annotations, schemas, handler). A tool's failure is a tool error the calling
 * model can read, never a crashed server.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { scrubCredentials } from '../client/models';
import { DeckhandError } from '../protocol/errors';
import { ENGINE_VERSION } from '../protocol/version';
import type { McpSessionState } from './session-state';
import { TOOLS } from './tools';
import type { ToolResult } from './tools/tool';

export { endSession, type McpSessionState } from './session-state';

/** A failure as the calling model reads it: the code and the message, credentials scrubbed. */
function fail(e: unknown): ToolResult {
  const message = scrubCredentials(e instanceof Error ? e.message : String(e));
  return { isError: true, content: [{ type: 'text', text: e instanceof DeckhandError ? `${e.code}: ${message}` : message }] };
}

export function createMcpServer(st: McpSessionState): McpServer {
  const server = new McpServer({ name: 'deckhand', version: ENGINE_VERSION });
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, annotations: tool.annotations, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema },
      async (args: Record<string, unknown>) => {
        try {
          return await tool.handler(st, args as never);
        } catch (e) {
          return fail(e);
        }
      },
    );
  }
  return server;
}
