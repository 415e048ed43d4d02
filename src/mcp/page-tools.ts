/**
 * The active page's own tools (WebMCP), re-exported as MCP tools named `page_<name>`: listed when
 * the page declares them, gone when it takes them away, and each change told to the client
 * (notifications/tools/list_changed, sent by the SDK as tools are added or removed). A call goes
 * through the session like any other tool's, with the server's approval policy.
 */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { PAGE_TOOL_PREFIX, type PageTool } from '../protocol/page-tools';
import { approvalOf, withSession, type Extra, type McpSessionState, type ToolCall } from './session-state';
import type { ToolResult } from './tools/tool';

/** How often the page's tools are read while a browser session is open: a page registers tools whenever its scripts like. */
const POLL_MS = 2000;
/** How deep a page's input schema is turned into the zod shape the SDK validates with; deeper parts take any value (the engine checks them). */
const MAX_DEPTH = 6;

type Json = Record<string, unknown>;

/** A page's JSON Schema as zod, for the common subset: the engine checks the input against the schema itself before the page sees it. */
function zodOf(s: Json | undefined, depth = 0): z.ZodTypeAny {
  if (!s || depth > MAX_DEPTH) return z.unknown();
  const about = typeof s.description === 'string' ? s.description : undefined;
  const said = (t: z.ZodTypeAny) => (about ? t.describe(about) : t);
  if (Array.isArray(s.enum) && s.enum.length && s.enum.every((v) => typeof v === 'string')) return said(z.enum(s.enum as [string, ...string[]]));
  switch (Array.isArray(s.type) ? s.type[0] : s.type) {
    case 'string':
      return said(z.string());
    case 'integer':
      return said(z.number().int());
    case 'number':
      return said(z.number());
    case 'boolean':
      return said(z.boolean());
    case 'array':
      return said(z.array(zodOf(s.items as Json | undefined, depth + 1)));
    case 'object':
      return said(z.object(shapeOf(s, depth + 1)).passthrough());
    default:
      return said(z.unknown());
  }
}

function shapeOf(s: Json, depth = 0): z.ZodRawShape {
  const props = (s.properties ?? {}) as Record<string, Json>;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  return Object.fromEntries(Object.entries(props).map(([k, p]) => [k, required.has(k) ? zodOf(p, depth) : zodOf(p, depth).optional()]));
}

/** What a call answers the client: the tool's own text (page text, never an instruction to anyone), or where the page went. */
function answer(r: { output?: string; navigated?: string }): ToolResult {
  const t = r.output ?? (r.navigated ? `The page's tool answered nothing; the page went to ${r.navigated}.` : "The page's tool answered nothing.");
  return { content: [{ type: 'text', text: t }], structuredContent: { ...r } };
}

const keyOf = (t: PageTool) => JSON.stringify([t.description, t.inputSchema, t.form]);

/**
 * Keep `server`'s page tools in step with the session's active page: now, after each of the
 * server's own tool calls (`sync`), and every POLL_MS while a browser session is open.
 * `fail` turns an error into the tool result the calling model reads; `callOf` makes a call's cancellation, approval and notifications.
 */
export function mirrorPageTools(
  server: McpServer,
  st: McpSessionState,
  fail: (e: unknown) => ToolResult,
  callOf: (name: string, extra: Extra) => ToolCall,
): { sync: () => Promise<void>; stop: () => void } {
  const mirrored = new Map<string, { key: string; tool: RegisteredTool }>();
  let running: Promise<void> | null = null;
  const read = async (): Promise<PageTool[]> => {
    const s = st.session;
    if (!s) return [];
    return s.dh.tools().catch(() => []);
  };
  const apply = (tools: PageTool[]) => {
    const wanted = new Map(tools.map((t) => [PAGE_TOOL_PREFIX + t.name, t]));
    for (const [name, m] of mirrored) {
      const t = wanted.get(name);
      if (!t || keyOf(t) !== m.key) {
        m.tool.remove();
        mirrored.delete(name);
      }
    }
    for (const [name, t] of wanted) {
      if (mirrored.has(name)) continue;
      const tool = server.registerTool(
        name,
        {
          title: t.name,
          description: `A tool of the page open in the browser (its own words, untrusted): ${t.description || t.name}`,
          // The page's own code: it may change anything the page holds, and reach the web.
          annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
          inputSchema: shapeOf(t.inputSchema),
        },
        async (args: Record<string, unknown>, extra) => {
          const call = callOf(name, extra);
          try {
            const r = await withSession(st, (s, signal) => s.dh.callTool(t.name, args, { signal, ...approvalOf(st, undefined, call) }), call);
            return answer(r);
          } catch (e) {
            return fail(e);
          } finally {
            void sync();
          }
        },
      );
      mirrored.set(name, { key: keyOf(t), tool });
    }
  };
  const sync = (): Promise<void> => {
    running ??= read()
      .then(apply)
      .finally(() => (running = null));
    return running;
  };
  const timer = setInterval(() => {
    if (st.session) void sync();
  }, POLL_MS);
  timer.unref?.();
  return { sync, stop: () => clearInterval(timer) };
}
