/**
 * The MCP tool server: one MCP server per MCP session, with the tools of tools/ (one file
 * each: name, annotations, schemas, handler). A tool's failure is a tool error the calling
 * model can read, never a crashed server.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitResultSchema, SetLevelRequestSchema, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalHandler } from '../client/deckhand';
import { ApprovalDecisionSchema } from '../protocol/approval';
import type { LogLine } from '../client/logging';
import { scrubCredentials } from '../client/models';
import { DeckhandError } from '../protocol/errors';
import { ENGINE_VERSION } from '../protocol/version';
import { MCP_LOG_LEVELS, type Extra, type McpLogLevel, type McpSessionState, type ToolCall } from './session-state';
import { TOOLS } from './tools';
import type { ToolResult } from './tools/tool';
import { mirrorPageTools } from './page-tools';

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
  // The active page's own tools, re-exported beside these (page-tools.ts).
  const page = mirrorPageTools(server, st, fail, (name, extra) => toolCall(server, st, name, extra));
  const closed = server.server.onclose;
  server.server.onclose = () => {
    page.stop();
    closed?.();
  };
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, annotations: tool.annotations, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema },
      async (args: Record<string, unknown>, extra) => {
        try {
          return await tool.handler(st, args as never, toolCall(server, st, tool.name, extra));
        } catch (e) {
          return fail(e);
        } finally {
          // What the call did may have brought the page's tools (a navigation) or taken them away.
          void page.sync();
        }
      },
    );
  }
  return server;
}

/** One call's cancellation, approval (asked of the host's user when it can be asked) and log and progress notifications. */
function toolCall(server: McpServer, st: McpSessionState, name: string, extra: Extra): ToolCall {
  const token = extra._meta?.progressToken;
  let progress = 0;
  return {
    signal: extra.signal,
    // A step that waits for approval is put to the host's user, when the host can ask (elicitation).
    ...(server.server.getClientCapabilities()?.elicitation ? { approve: elicitApproval(extra.sendRequest) } : {}),
    // The operation's lines go back on this call's own stream: as log messages at or
    // above the session's level, and as progress when the client asked for it.
    onLog: (line) => {
      const level = LEVEL_OF[line.level];
      if (rank(level) >= rank(st.logLevel ?? 'info')) {
        void extra
          .sendNotification({ method: 'notifications/message', params: { level, logger: `deckhand.${name}`, data: scrubCredentials(line.message) } })
          .catch(() => undefined);
      }
      if (token !== undefined && line.level !== 'debug') {
        void extra
          .sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: ++progress, message: scrubCredentials(line.message) },
          })
          .catch(() => undefined);
      }
    },
  };
}

/**
 * Ask the host's user about one step, with the protocol's elicitation request (form mode): a
 * choice of approve, skip or stop. Declining is a Stop; dismissing it (cancel) decides nothing,
 * leaving it to the side panel or the deadline.
 */
function elicitApproval(
  send: (
    r: ServerRequest,
    schema: typeof ElicitResultSchema,
    o?: { signal?: AbortSignal; timeout?: number },
  ) => Promise<{ action: string; content?: Record<string, unknown> }>,
): ApprovalHandler {
  return async (req, { signal }) => {
    const r = await send(
      {
        method: 'elicitation/create',
        params: {
          message: `Deckhand is about to ${req.summary}, on ${req.url}${req.target ? ` (it leads to ${req.target})` : ''}. Approve it?`,
          requestedSchema: {
            type: 'object',
            properties: {
              decision: {
                type: 'string',
                title: 'Decision',
                description: 'approve: do it; skip: do not do this step; stop: end the run',
                enum: ['approve', 'skip', 'stop'],
              },
            },
            required: ['decision'],
          },
        },
      },
      ElicitResultSchema,
      { signal, timeout: Math.max(1000, req.deadline - Date.now()) },
    );
    if (r.action === 'decline') return 'stop';
    if (r.action !== 'accept') return null;
    const d = ApprovalDecisionSchema.safeParse(r.content?.decision);
    return d.success ? d.data : null;
  };
}
