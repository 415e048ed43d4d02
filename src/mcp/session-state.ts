/**
 * One MCP session's state: its tenant, options and the browser session it drives, started on
 * first use (as users of such servers expect) and ended with the MCP session.
 */
import { rm } from 'node:fs/promises';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { SessionManager, Session } from '../sessions/sessions';
import type { LogLine } from '../client/logging';
import type { ApprovalHandler } from '../client/deckhand';
import type { ApprovalPolicyInput } from '../protocol/approval';
import { contextDir, LOCAL_MODEL, type McpOptions } from './options';

export interface McpSessionState {
  /** The tenant (API key digest) that opened this MCP session; its browser sessions and profiles are its own. */
  tenant: string;
  options: McpOptions;
  sessions: SessionManager;
  home: string;
  session: Session | null;
  starting: Promise<Session> | null;
  /** The lowest level sent as notifications/message ('logging/setLevel'; default info). */
  logLevel?: McpLogLevel;
}

export const MCP_LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type McpLogLevel = (typeof MCP_LOG_LEVELS)[number];

/** What the SDK hands a tool's handler besides its arguments. */
export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What one tool call brings besides its arguments: the client's cancellation, and where its log lines go. */
export interface ToolCall {
  /** Aborts on notifications/cancelled or when the client goes away. */
  signal?: AbortSignal;
  /** The operation's log lines (steps, model calls), for progress and logging notifications. */
  onLog?: (line: LogLine) => void;
  /** Decides a step waiting for approval by asking the host's user (absent when the host cannot ask). */
  approve?: ApprovalHandler;
}

/** The approval of a tool's call: its own, else the server's; and who decides it. */
export const approvalOf = (
  st: McpSessionState,
  own: ApprovalPolicyInput | undefined,
  call: ToolCall,
): { approval?: ApprovalPolicyInput; onApproval?: ApprovalHandler } => {
  const approval = own ?? st.options.approval;
  return approval ? { approval, ...(call.approve ? { onApproval: call.approve } : {}) } : {};
};

export async function ensureSession(st: McpSessionState): Promise<Session> {
  if (st.session) {
    try {
      return await st.sessions.get(st.session.id, st.tenant);
    } catch {
      st.session = null; // it ended (idle timeout): start a new one
    }
  }
  st.starting ??= st.sessions
    .start(
      st.tenant,
      {
        model: st.options.modelName === LOCAL_MODEL ? LOCAL_MODEL : { modelName: st.options.modelName, apiKey: st.options.modelApiKey },
        viewport: st.options.viewport,
      },
      { args: st.options.proxyArgs, userDataDir: st.options.contextId ? contextDir(st.home, st.tenant, st.options.contextId) : undefined, via: 'mcp' },
    )
    .finally(() => (st.starting = null));
  st.session = await st.starting;
  return st.session;
}

/** End this MCP session's browser session (and forget a non-persisted context profile). */
export async function endSession(st: McpSessionState): Promise<boolean> {
  const s = st.session;
  st.session = null;
  if (!s) return false;
  await st.sessions.end(s.id, st.tenant).catch(() => undefined);
  if (st.options.contextId && !st.options.persist) await rm(contextDir(st.home, st.tenant, st.options.contextId), { recursive: true, force: true });
  return true;
}

/**
 * Run one tool's work on this MCP session's browser session. Calls wait their turn in the
 * order they came (clients send several at once); cancelling the call stops the work.
 */
export async function withSession<T>(st: McpSessionState, fn: (s: Session, signal: AbortSignal) => Promise<T>, call: ToolCall = {}): Promise<T> {
  const s = await ensureSession(st);
  return st.sessions.run(
    s.id,
    st.tenant,
    async (session, signal) => {
      session.listener = call.onLog ?? null;
      try {
        return await fn(session, signal);
      } finally {
        session.listener = null;
      }
    },
    { queue: true, signal: call.signal },
  );
}

/** The cache option of a tool's call: on when the MCP session was started with cache=true. */
export const cacheOf = (st: McpSessionState): { cache: true } | undefined => (st.options.cache ? { cache: true } : undefined);
