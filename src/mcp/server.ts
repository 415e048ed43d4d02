/**
 * The MCP tool server: one MCP server per MCP session, with the tools of tools/ (one file
 * each: name, annotations, schemas, handler). A tool's failure is a tool error the calling
 * model can read, never a crashed server.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SetLevelRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { LogLine } from '../client/logging';
import { scrubCredentials } from '../client/models';
import { DeckhandError } from '../protocol/errors';
import { ENGINE_VERSION } from '../protocol/version';
import { MCP_LOG_LEVELS, type McpLogLevel, type McpSessionState, type ToolCall } from './session-state';
import { TOOLS } from './tools';
import type { ToolResult } from './tools/tool';

export { endSession, type McpSessionState } from './session-state';

/** A failure as the calling model reads it: the code and the message, credentials scrubbed. */
function fail(e: unknown): ToolResult {
  const message = scrubCredentials(e instanceof Error ? e.message : String(e));
  return { isError: true, content: [{ type: 'text', text: e instanceof DeckhandError ? `${e.code}: ${message}` : message }] };
}

const LEVEL_OF: Record<LogLine['level'], McpLogLevel> = { debug: 'debug', info: 'info', warn: 'warning', error: 'error' };
const rank = (l: McpLogLevel) => MCP_LOG_LEVELS.indexOf(l);

export function createMcpServer(st: McpSessionState): McpServer {
  const server = new McpServer({ name: 'deckhand', version: ENGINE_VERSION }, { capabilities: { logging: {} } });
  // This session's level, kept with its state so each tool call can filter its own lines.
  server.server.setRequestHandler(SetLevelRequestSchema, async (req) => {
    st.logLevel = req.params.level;
    return {};
  });
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, annotations: tool.annotations, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema },
      async (args: Record<string, unknown>, extra) => {
        const token = extra._meta?.progressToken;
        let progress = 0;
        const call: ToolCall = {
          signal: extra.signal,
          // The operation's lines go back on this call's own stream: as log messages at or
          // above the session's level, and as progress when the client asked for it.
          onLog: (line) => {
            const level = LEVEL_OF[line.level];
            if (rank(level) >= rank(st.logLevel ?? 'info')) {
              void extra.sendNotification({ method: 'notifications/message', params: { level, logger: `deckhand.${tool.name}`, data: scrubCredentials(line.message) } }).catch(() => undefined);
            }
            if (token !== undefined && line.level !== 'debug') {
              void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: ++progress, message: scrubCredentials(line.message) } }).catch(() => undefined);
            }
          },
        };
        try {
          return await tool.handler(st, args as never, call);
        } catch (e) {
          return fail(e);
        }
      },
    );
  }
  return server;
}
