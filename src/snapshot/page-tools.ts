/**
 * The page's own tools (WebMCP), read and called from the content script's world: the browser
 * keeps a document's tools, so this world lists and calls the page's tools without running any of
 * the page's code itself. Everything the page says about a tool is untrusted text, bounded here
 * (protocol/page-tools.ts); a tool declared by a form the person cannot see is not listed.
 */
import { PAGE_TOOL_LIMITS, PAGE_TOOL_PREFIX, TOOL_NAME, type PageTool } from '../protocol/page-tools';
import { estimateTokens } from '../protocol/text';
import { beforeInstructions } from './injection';

/** What the browser hands out for a registered tool (the WebMCP draft's RegisteredTool). */
interface RegisteredTool {
  name: string;
  description?: string;
  inputSchema?: unknown;
}
interface ModelContext extends EventTarget {
  getTools(): Promise<RegisteredTool[]>;
  executeTool(tool: RegisteredTool, input: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<unknown>;
}

/** A listed tool as the worker reads it: the wire's PageTool, with where its form goes (for approval). */
export type ListedTool = PageTool & { formAction?: string };

export type ToolCallAnswer = { ok: true; output: string | null } | { ok: false; code: string; message: string; data?: Record<string, unknown> };

/** Chromium 156 offers it on document; the draft also names navigator, where later builds may move it. */
function modelContext(): ModelContext | null {
  const mc = (document as unknown as { modelContext?: ModelContext }).modelContext ?? (navigator as unknown as { modelContext?: ModelContext }).modelContext;
  // Only the shape read here: another draft's object (provideContext alone, say) offers no tools to this code.
  return mc && typeof mc.getTools === 'function' && typeof mc.executeTool === 'function' ? mc : null;
}

/** getTools answers from the browser's own list; a page cannot make it wait, but a bound costs nothing. */
const LIST_MS = 2000;

/** Characters that show nothing (zero-width, direction overrides, controls): a page's way to hide words from a person. */
const UNSEEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

const oneLine = (s: unknown, max: number): string => {
  const t = String(s ?? '')
    .replace(UNSEEN, '')
    .replace(/\s+/g, ' ')
    .trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

/**
 * What the page says of a tool, as a model may read it: one bounded line, and nothing from where
 * it starts to read as instructions to a model (snapshot/injection.ts), which is withheld, saying so.
 */
const WITHHELD = '[the rest is withheld: it reads as instructions to a model]';
const pageSays = (s: unknown, max: number): string => {
  const t = oneLine(s, max);
  const kept = beforeInstructions(t);
  return kept === t ? t : `${kept}${kept ? ' ' : ''}${WITHHELD}`;
};

/** A schema with every description in it collapsed to one bounded line. */
function boundedSchema(schema: unknown): Record<string, unknown> {
  const walk = (v: unknown, depth: number): unknown => {
    if (depth > 12) return {};
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    if (!v || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).map(([k, x]) => [
        k,
        (k === 'description' || k === 'title') && typeof x === 'string' ? pageSays(x, PAGE_TOOL_LIMITS.paramDescriptionChars) : walk(x, depth + 1),
      ]),
    );
  };
  const s = walk(schema, 0);
  return s && typeof s === 'object' && !Array.isArray(s) ? (s as Record<string, unknown>) : { type: 'object', properties: {} };
}

/** Whether the form's fields hold `input`'s values, as the browser fills them: a field the input does not name is left as it is. */
function shows(form: HTMLFormElement, input: Record<string, unknown>): boolean {
  return Object.entries(input).every(([k, v]) => {
    const el = form.elements.namedItem(k);
    if (!el) return true;
    if (el instanceof RadioNodeList) return el.value === String(v);
    if (el instanceof HTMLInputElement && el.type === 'checkbox') return el.checked === (v === true || v === 'on' || v === el.value);
    if (el instanceof HTMLSelectElement && el.multiple) {
      const want = (Array.isArray(v) ? v : [v]).map(String);
      return want.every((w) => [...el.selectedOptions].some((o) => o.value === w));
    }
    return 'value' in el && String((el as HTMLInputElement).value) === String(v);
  });
}

function formOf(name: string): HTMLFormElement | null {
  return document.querySelector<HTMLFormElement>(`form[toolname="${CSS.escape(name)}"]`);
}

/** A form a sighted person cannot see: its tool is not theirs to use either. */
function hiddenForm(form: HTMLFormElement): boolean {
  if (form.closest('[inert],[aria-hidden="true"]')) return true;
  return typeof form.checkVisibility === 'function'
    ? !form.checkVisibility({ visibilityProperty: true, opacityProperty: true })
    : !form.getClientRects().length;
}

async function registered(mc: ModelContext): Promise<RegisteredTool[]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the page tools were not listed in time')), LIST_MS)));
  try {
    return await Promise.race([mc.getTools(), late]);
  } finally {
    clearTimeout(timer);
  }
}

function listed(t: RegisteredTool): ListedTool | null {
  if (typeof t?.name !== 'string' || !TOOL_NAME.test(t.name)) return null;
  const form = formOf(t.name);
  if (form && hiddenForm(form)) return null;
  const inputSchema = boundedSchema(t.inputSchema ?? { type: 'object', properties: {} });
  if (JSON.stringify(inputSchema).length > PAGE_TOOL_LIMITS.schemaChars) return null;
  return {
    name: t.name,
    description: pageSays(t.description, PAGE_TOOL_LIMITS.descriptionChars),
    inputSchema,
    form: !!form,
    ...(form ? { autosubmit: form.hasAttribute('toolautosubmit') } : {}),
    ...(form ? { formAction: form.action } : {}),
  };
}

/** The frame's tools, as many as may be listed, and how many more there are. */
export async function listPageTools(): Promise<{ supported: boolean; tools: ListedTool[]; more: number }> {
  const mc = modelContext();
  if (!mc) return { supported: false, tools: [], more: 0 };
  const all = (await registered(mc)).map(listed).filter((t): t is ListedTool => t !== null);
  return { supported: true, tools: all.slice(0, PAGE_TOOL_LIMITS.maxTools), more: Math.max(0, all.length - PAGE_TOOL_LIMITS.maxTools) };
}

/** Calls under way, by the id the worker named them with: dh:cancelWait aborts one (its caller gave up). */
const calls = new Map<string, AbortController>();

export function cancelToolCall(waitId: string): boolean {
  const c = calls.get(waitId);
  c?.abort();
  return !!c;
}

const fail = (code: string, message: string, data?: Record<string, unknown>): ToolCallAnswer => ({ ok: false, code, message, ...(data ? { data } : {}) });

const sameTool = (a: RegisteredTool, b: RegisteredTool) => a.description === b.description && JSON.stringify(a.inputSchema) === JSON.stringify(b.inputSchema);

/**
 * Call the frame's tool `name` with `input`. A form's tool fills its form (the browser does) and,
 * unless the page submits it itself, is submitted here as a person would once the values show.
 * The page taking the tool away or registering it anew while it runs ends the call (TOOL_CHANGED):
 * the answer could be the old registration's or the new one's.
 */
export async function callPageTool(name: string, input: Record<string, unknown>, timeoutMs: number, waitId?: string): Promise<ToolCallAnswer> {
  const mc = modelContext();
  if (!mc) return fail('TOOL_NOT_FOUND', 'this browser offers no page tools (WebMCP is not switched on)');
  const before = await registered(mc);
  const tool = before.find((t) => t.name === name);
  if (!tool) return fail('TOOL_NOT_FOUND', `the page has no tool named '${name}' now`, { tools: before.map((t) => t.name).slice(0, 50) });
  const form = formOf(name);
  if (form && hiddenForm(form)) return fail('TOOL_NOT_FOUND', `the page's tool '${name}' is a form nobody can see; it is not called`);
  const abort = new AbortController();
  if (waitId) calls.set(waitId, abort);
  let changed: string | null = null;
  const names = (ts: RegisteredTool[]) =>
    ts
      .map((t) => t.name)
      .sort()
      .join('\n');
  const onChange = () => {
    void registered(mc)
      .then((now) => {
        const same = now.find((t) => t.name === name);
        if (!same) changed = `the page took its tool '${name}' away while it ran`;
        else if (!sameTool(same, tool) || names(now) === names(before)) changed = `the page registered its tool '${name}' anew while it ran`;
        if (changed) abort.abort();
      })
      .catch(() => undefined);
  };
  mc.addEventListener('toolchange', onChange);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const running = mc.executeTool(tool, input, { signal: abort.signal });
    const ended = running.then(
      () => true,
      () => true,
    );
    if (form && !form.hasAttribute('toolautosubmit')) {
      // The browser fills the form in a task of its own: submit once the form shows every value
      // (never a form half filled), or not at all.
      let filled = false;
      for (const end = Date.now() + PAGE_TOOL_LIMITS.formFillMs; !filled && Date.now() < end;) {
        if (await Promise.race([ended, new Promise<false>((r) => setTimeout(() => r(false), 20))])) break;
        filled = shows(form, input);
      }
      if (!filled && !changed && !(await Promise.race([ended, Promise.resolve(false)]))) {
        abort.abort();
        return fail('TOOL_FAILED', `the form of '${name}' did not show the values within ${PAGE_TOOL_LIMITS.formFillMs} ms; it was not submitted`);
      }
      if (filled) {
        const invalid = [...form.elements].find((e) => 'checkValidity' in e && !(e as HTMLInputElement).checkValidity()) as HTMLInputElement | undefined;
        if (invalid) {
          abort.abort();
          return fail(
            'TOOL_FAILED',
            `the form of '${name}' does not take these values: ${invalid.name || invalid.id || 'a field'}: ${invalid.validationMessage}`,
          );
        }
        form.requestSubmit();
      }
    }
    const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), timeoutMs)));
    const out = await Promise.race([running, late]);
    if (out === 'late') {
      abort.abort();
      return fail('TIMEOUT', `the page's tool '${name}' did not answer within ${timeoutMs} ms; it was told to stop`, { timeoutMs });
    }
    if (changed) return fail('TOOL_CHANGED', changed);
    if (out === null || out === undefined) return { ok: true, output: null };
    const text = typeof out === 'string' ? out : JSON.stringify(out);
    if (text.length > PAGE_TOOL_LIMITS.outputChars) {
      return fail(
        'TOOL_OUTPUT_TOO_LARGE',
        `the page's tool '${name}' answered ${text.length} characters; a call keeps at most ${PAGE_TOOL_LIMITS.outputChars}`,
        {
          chars: text.length,
        },
      );
    }
    return { ok: true, output: text };
  } catch (e) {
    if (changed) return fail('TOOL_CHANGED', changed);
    if (abort.signal.aborted) return fail('CANCELLED', `the call of the page's tool '${name}' was cancelled by its caller`);
    return fail('TOOL_FAILED', `the page's tool '${name}' failed: ${oneLine((e as Error)?.message ?? e, 300)}`);
  } finally {
    clearTimeout(timer);
    mc.removeEventListener('toolchange', onChange);
    if (waitId) calls.delete(waitId);
  }
}

/** A schema's properties as the outline prints them: `name: type` (required ones marked), enums and descriptions kept short. */
function paramsOf(schema: Record<string, unknown>): string {
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(props)
    .map(([k, p]) => {
      const type = Array.isArray(p?.enum) ? p.enum.map((v) => JSON.stringify(v)).join('|') : String(p?.type ?? 'any');
      const about = typeof p?.description === 'string' && p.description ? ` (${p.description})` : '';
      return `${k}${required.has(k) ? '' : '?'}: ${type}${about}`;
    })
    .join(', ');
}

/**
 * The lines the snapshot puts before the page's outline: one per tool, its name, input and
 * description (the page's words, quoted as data).
 */
function pageToolsBlock(tools: PageTool[], more: number): string {
  if (!tools.length) return '';
  const lines = tools.map(
    (t) =>
      `- tool ${PAGE_TOOL_PREFIX}${t.name}(${paramsOf(t.inputSchema)})${t.form ? ' [form]' : ''}${t.description ? `: ${JSON.stringify(t.description)}` : ''}`,
  );
  if (more) lines.push(`- … ${more} more tools not listed`);
  return `Page tools (the page's own; call one with method callTool on "page", arguments [name, input as JSON]):\n${lines.join('\n')}\n\n`;
}

/** The page's tools take at most this share of a snapshot's budget; the outline keeps the rest. */
const TOOLS_SHARE = 0.25;

/**
 * The frame's tools as a snapshot lists them before its outline, within a share of `budget`:
 * the lines, and the tools they list (as the wire has them, for a model that reads data).
 */
export async function toolsForSnapshot(budget: number): Promise<{ block: string; tools: PageTool[] }> {
  const listing = await listPageTools().catch(() => null);
  const all = (listing?.tools ?? []).map(({ formAction: _, ...t }) => t);
  let tools = all;
  let block = pageToolsBlock(tools, listing?.more ?? 0);
  while (tools.length && estimateTokens(block.length) > budget * TOOLS_SHARE) {
    tools = tools.slice(0, -1);
    block = pageToolsBlock(tools, (listing?.more ?? 0) + all.length - tools.length);
  }
  return { block, tools };
}
