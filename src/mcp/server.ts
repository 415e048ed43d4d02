/**
 * The MCP tool server: navigate, act, observe, extract, start and end, each with
 * a zod input schema, readable text for the calling model and structured content.
 * One MCP session drives one browser session; a tool called with none active
 * starts one (as users of such servers expect).
 */
import { rm } from 'node:fs/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ENGINE_VERSION } from '../engine/engine';
import { McpTools } from '../protocol/mcp';
import { scrubCredentials } from '../client/models';
import type { SessionManager, Session } from '../server/sessions';
import { contextDir, LOCAL_MODEL, type McpOptions } from './options';

export interface McpSessionState {
  /** The tenant (API key digest) that opened this MCP session; its browser sessions and profiles are its own. */
  tenant: string;
  options: McpOptions;
  sessions: SessionManager;
  home: string;
  session: Session | null;
  starting: Promise<Session> | null;
}

const text = (t: string, structured: Record<string, unknown>) => ({ content: [{ type: 'text' as const, text: t }], structuredContent: structured });
const fail = (e: unknown) => ({ isError: true, content: [{ type: 'text' as const, text: scrubCredentials(e instanceof Error ? e.message : String(e)) }] });

/** A tool's failure is a tool error the calling model can read, never a crashed server. */
const guarded =
  <A, R>(fn: (args: A) => Promise<R>) =>
  async (args: A): Promise<R | ReturnType<typeof fail>> => {
    try {
      return await fn(args);
    } catch (e) {
      return fail(e);
    }
  };

async function ensureSession(st: McpSessionState): Promise<Session> {
  if (st.session) {
    try {
      return st.sessions.get(st.session.id, st.tenant);
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
      { args: st.options.proxyArgs, userDataDir: st.options.contextId ? contextDir(st.home, st.tenant, st.options.contextId) : undefined },
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

async function withSession<T>(st: McpSessionState, fn: (s: Session) => Promise<T>): Promise<T> {
  const s = await ensureSession(st);
  return st.sessions.run(s.id, st.tenant, fn);
}

export function createMcpServer(st: McpSessionState): McpServer {
  const server = new McpServer({ name: 'deckhand', version: ENGINE_VERSION });

  server.registerTool(
    'start',
    {
      title: 'Start a browser session',
      description: 'Start (or reuse) the browser session for this conversation and make it the active one. Other tools start one automatically when none is active.',
      outputSchema: McpTools.start.output,
    },
    guarded(async () => {
      const reused = !!st.session;
      const s = await ensureSession(st);
      return text(`${reused ? 'Reusing' : 'Started'} browser session ${s.id}.`, { sessionId: s.id, reused });
    }),
  );

  server.registerTool(
    'end',
    {
      title: 'End the browser session',
      description: 'Close the active browser session and its browser.',
      outputSchema: McpTools.end.output,
    },
    guarded(async () => {
      const ended = await endSession(st);
      return text(ended ? 'Ended the browser session.' : 'There was no active browser session.', { ended });
    }),
  );

  server.registerTool(
    'navigate',
    {
      title: 'Navigate',
      description: 'Open a URL in the browser (absolute, with http:// or https://). Waits for the page to load.',
      inputSchema: McpTools.navigate.input,
      outputSchema: McpTools.navigate.output,
    },
    guarded(async ({ url }) => {
      const info = await withSession(st, async (s) => (await s.dh.context.activePage()).goto(url));
      return text(`Opened ${info.url} ("${info.title}").`, { url: info.url, title: info.title });
    }),
  );

  server.registerTool(
    'act',
    {
      title: 'Act',
      description: 'Do one thing on the page, described in plain language: "click the Sign in button", "type \\"hello\\" into the search box", "select France from the country dropdown". One action per call.',
      inputSchema: McpTools.act.input,
      outputSchema: McpTools.act.output,
    },
    guarded(async ({ action }) => {
      const r = await withSession(st, (s) => s.dh.act(action));
      const t = r.data.success ? `Done: ${r.data.message}.` : `Nothing was done: ${r.data.message}`;
      return { ...text(t, { success: r.data.success, message: r.data.message, actions: r.data.actions }), ...(r.data.success ? {} : { isError: true }) };
    }),
  );

  server.registerTool(
    'observe',
    {
      title: 'Observe',
      description: 'Find the elements on the page that match a description and say how to act on each (best match first).',
      inputSchema: McpTools.observe.input,
      outputSchema: McpTools.observe.output,
    },
    guarded(async ({ instruction }) => {
      const r = await withSession(st, (s) => s.dh.observe(instruction));
      const lines = r.data.map((a, i) => `${i + 1}. ${a.description} (${a.method ?? 'click'}${a.arguments?.length ? ` ${JSON.stringify(a.arguments)}` : ''})`);
      return text(lines.length ? `Found ${lines.length}:\n${lines.join('\n')}` : 'Nothing on the page matches that.', { elements: r.data });
    }),
  );

  server.registerTool(
    'extract',
    {
      title: 'Extract',
      description: 'Read information from the page. With an instruction, the text that answers it; without one, the page\'s text outline.',
      inputSchema: McpTools.extract.input,
      outputSchema: McpTools.extract.output,
    },
    guarded(async ({ instruction }) => {
      const extraction = await withSession(st, async (s) =>
        instruction ? ((await s.dh.extract(instruction)).data as { extraction: string }).extraction : (await (await s.dh.context.activePage()).snapshot()).text,
      );
      return text(extraction, { extraction });
    }),
  );

  return server;
}
