/**
 * The page's own tools (WebMCP) on the engine's side: listing them for page.tools and the
 * snapshot, and calling one, checked and gated like any action. What the page says of its tools
 * is untrusted page text: the snapshot prints it as data, and a call's input is checked against
 * the tool's schema here, before the page sees it.
 */
import { Validator } from '@cfworker/json-schema';
import { DeckhandError, ErrorCode } from '../../protocol/errors';
import { PAGE_TOOL_LIMITS, PAGE_TOOL_PREFIX, type CallToolResult, type PageTool, type PageToolsResult } from '../../protocol/page-tools';
import { clip } from '../../protocol/text';
import { sleep, type BrowserPort } from '../ports';
import { raceCancel, throwIfCancelled } from './cancel';
import { gateOf } from './gate';

/** A listed tool as the content script answers it (snapshot/page-tools.ts): where a form goes rides along, for approval. */
type Listed = PageTool & { formAction?: string };

const LIST_MS = 5000;
let callSeq = 0;

async function listed(port: BrowserPort, page: number, timeoutMs = LIST_MS): Promise<{ supported: boolean; tools: Listed[]; more: number }> {
  return port.frameRequest<{ supported: boolean; tools: Listed[]; more: number }>(page, 0, { type: 'dh:tools' }, timeoutMs);
}

/** The page's tools (its top frame's), as page.tools answers them. */
export async function listPageTools(port: BrowserPort, page: number, timeoutMs = LIST_MS): Promise<PageToolsResult> {
  const r = await listed(port, page, timeoutMs);
  return { supported: r.supported, more: r.more, tools: r.tools.map(({ formAction: _, ...t }) => t) };
}

/** The first few reasons an input does not fit a schema, or null when it fits (or the schema cannot be read). */
function inputProblem(schema: Record<string, unknown>, input: Record<string, unknown>): string | null {
  let v: Validator;
  try {
    v = new Validator(schema as never, '2020-12', false);
  } catch {
    return null;
  }
  const r = v.validate(input);
  if (r.valid) return null;
  const leaves = r.errors.filter((e) => !/^(properties|allOf|anyOf|items)$/.test(e.keyword));
  return (leaves.length ? leaves : r.errors)
    .slice(0, 4)
    .map((e) => `${e.instanceLocation === '#' ? 'input' : e.instanceLocation.replace(/^#\//, '')}: ${e.error}`)
    .join('; ');
}

/** A tool's name and description as approval reads them: words apart ("delete_item" says "delete item"). */
const saidBy = (t: Listed) =>
  clip(
    `${t.name
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .replace(/[_.-]+/g, ' ')
      .trim()} ${t.description}`,
    300,
  );

/**
 * Call the page's tool `name`. The input is checked against its schema first (INVALID_ARGUMENT,
 * and the page sees nothing); a call that asked for approval waits at its gate as a click
 * would (a form's tool submits a form). A navigation the call sets off (a submitted form) is
 * waited for, and a page that navigates before the tool answered is the call's answer.
 */
export async function callPageTool(
  port: BrowserPort,
  page: number,
  name: string,
  input: Record<string, unknown>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<CallToolResult> {
  throwIfCancelled(signal);
  const deadline = Date.now() + timeoutMs;
  const all = await listed(port, page, Math.min(LIST_MS, timeoutMs));
  if (!all.supported) throw new DeckhandError(ErrorCode.ToolNotFound, 'this browser offers no page tools (Chromium started without WebMCP)', { name });
  // The snapshot prints a tool as page_<name>: a model may call it so.
  const tool = all.tools.find((t) => t.name === name) ?? all.tools.find((t) => PAGE_TOOL_PREFIX + t.name === name);
  if (!tool) {
    const names = all.tools.map((t) => t.name);
    const has = names.length ? `its tools are ${names.slice(0, 20).join(', ')}` : 'it declares none';
    throw new DeckhandError(ErrorCode.ToolNotFound, `the page has no tool named '${name}' (${has})`, { name, tools: names });
  }
  name = tool.name;
  const problem = inputProblem(tool.inputSchema, input);
  if (problem) throw new DeckhandError(ErrorCode.InvalidArgument, `the input does not fit the input schema of the page's tool '${name}': ${problem}`, { name });
  const json = JSON.stringify(input);
  const gate = gateOf(signal);
  if (gate?.gates('callTool')) {
    const facts = {
      tag: 'tool',
      role: 'button',
      text: saidBy(tool),
      submits: tool.form,
      enterSubmits: false,
      file: false,
      ...(tool.formAction ? { formAction: tool.formAction } : {}),
    };
    const pageUrl = (await port.pageInfo(page)).url;
    await gate.check({ method: 'callTool', args: [name, json], pageUrl, facts, element: `the page's tool '${name}'` }, signal);
  }
  throwIfCancelled(signal);
  const left = Math.max(0, deadline - Date.now());
  const waitId = `t${++callSeq}-${Date.now().toString(36)}`;
  type Answer = { ok: true; output: string | null } | { ok: false; code: string; message: string; data?: Record<string, unknown> };
  let answer: Answer | null = null;
  let lost: unknown = null;
  const cdp = await port.cdp(page);
  let navigated: string | undefined;
  const offNav = cdp.on('Page.frameNavigated', (e: { frame?: { parentId?: string; url?: string } }) => {
    if (e.frame && !e.frame.parentId) navigated = e.frame.url;
  });
  let asked = false;
  const offAsk = cdp.on('Page.frameRequestedNavigation', () => (asked = true));
  try {
    const ask = port.frameRequest<Answer>(page, 0, { type: 'dh:callTool', name, input, timeoutMs: left, waitId }, left + 3000);
    const stop = () => void port.frameRequest(page, 0, { type: 'dh:cancelWait', waitId }, 2000).catch(() => undefined);
    answer = await raceCancel(ask, signal, stop).catch((e: unknown) => {
      if (signal?.aborted) throw e;
      lost = e;
      return null;
    });
    // A navigation the call set off (a submitted form) is waited for, as an action's is: the next step reads the new page.
    await cdp.send('Runtime.evaluate', { expression: '0' }).catch(() => undefined);
    while ((asked || navigated !== undefined) && Date.now() < deadline && (await port.isLoading(page).catch(() => false))) await sleep(50);
  } finally {
    offNav();
    offAsk();
  }
  const got = answer as Answer | null;
  if (!got) {
    // The document went away with the call: a form that navigated the page answers so.
    if (navigated !== undefined) return { navigated };
    throw lost instanceof DeckhandError ? lost : new DeckhandError(ErrorCode.ToolFailed, `the page's tool '${name}' did not answer: ${String(lost)}`, { name });
  }
  if (!got.ok) throw new DeckhandError(got.code as ErrorCode, got.message, { name, ...(got.data ?? {}) });
  return { ...(got.output !== null ? { output: got.output } : {}), ...(navigated !== undefined ? { navigated } : {}) };
}

/** An Action's arguments for a tool call: [name, input as JSON]; the input must be a JSON object. */
export function toolCallArgs(args: string[]): { name: string; input: Record<string, unknown> } {
  const name = (args[0] ?? '').trim();
  if (!name) throw new DeckhandError(ErrorCode.InvalidArgument, 'callTool needs the tool name as its first argument');
  const raw = args[1]?.trim() || '{}';
  if (raw.length > PAGE_TOOL_LIMITS.inputChars) {
    throw new DeckhandError(ErrorCode.InvalidArgument, `callTool's input may be at most ${PAGE_TOOL_LIMITS.inputChars} characters of JSON`);
  }
  let input: unknown;
  try {
    input = JSON.parse(raw);
  } catch {
    throw new DeckhandError(ErrorCode.InvalidArgument, `callTool's second argument must be the input as a JSON object, got ${clip(raw, 80)}`);
  }
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    throw new DeckhandError(ErrorCode.InvalidArgument, `callTool's second argument must be a JSON object, got ${clip(raw, 80)}`);
  }
  return { name, input: input as Record<string, unknown> };
}

/** How an act reports a tool call: the tool and its answer (page text, so clipped). */
export function toolCallSaid(element: string, output: string | null | undefined, navigated?: string): string {
  const said = output === null || output === undefined ? 'nothing' : JSON.stringify(clip(output, 2000));
  return `called ${element}; it answered ${said}${navigated ? `, and the page went to ${clip(navigated, 300)}` : ''}`;
}
