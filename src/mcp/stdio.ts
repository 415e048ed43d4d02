/** MCP over stdio: one MCP session, options from flags, no authentication (the caller launched us). */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { SessionManager } from '../sessions/sessions';
import { createMcpServer, endSession, type McpSessionState } from './server';
import type { McpOptions } from './options';

export async function runStdio(options: McpOptions, sessions: SessionManager, home: string): Promise<void> {
  // The caller launched this process: it is the operator, one tenant of its own.
  const state: McpSessionState = { tenant: 'local', options, sessions, home, session: null, starting: null };
  const server = createMcpServer(state);
  const transport = new StdioServerTransport();
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    if (!options.keepAlive) await endSession(state);
    await sessions.endAll();
    process.exit(0);
  };
  transport.onclose = () => void shutdown();
  process.stdin.once('end', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
  await server.connect(transport);
}
