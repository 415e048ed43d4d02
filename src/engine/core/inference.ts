/**
 * Model-driven act, observe and extract: settle the page, snapshot it, ask the
 * model for element ids (or data), check the answer, then act through the
 * deterministic path. Usage is summed over every model call of the operation.
 */
import { networkQuiet } from './network';
import { clip, quote } from '../../protocol/text';
import { Validator } from '@cfworker/json-schema';
import { z } from 'zod';
import { callModel, type CallbackInvoker, type ProviderCaller } from '../../models/call';
import { DeckhandError, ErrorCode } from '../../protocol/errors';
import { OPERATIONS } from '../../protocol/methods';
import type { ModelRequest, OutlineLine, ResolvedModel } from '../../protocol/model';
import { addUsage, DEFAULTS, ZERO_USAGE, type Action, type ActResult, type LocatorSpec, type ObserveResult, type Usage } from '../../protocol/schemas';
import { performAction } from './actions';
import { toolCallSaid } from './page-tools';
import { withDeadline } from './pages';
import { raceCancel } from './cancel';
import type { LogEvent } from '../ports';
import type { BrowserPort } from '../ports';
import {
  ACT_JSON_SCHEMA,
  ActAnswerSchema,
  OBSERVE_JSON_SCHEMA,
  ObserveAnswerSchema,
  systemPrompt,
  TEXT_EXTRACTION_SCHEMA,
  userPrompt,
  variablesHelp,
  type ActAnswer,
} from './prompts';
import { captureSnapshot, selectorsForIds, type CapturedSnapshot } from './snapshot';
import { targetsOf } from './targets';
import { pageToday, todayLine } from './today';
import { mentionsNamedDate } from '../../models/local/values';
import type { ModelCallSpan } from '../../protocol/log-spans';
import { maskLines, maskValues, normalizeVariables, substituteArgs, unmaskValues, type Variables } from '../../protocol/variables';

export type { LogEvent };

export interface InferenceDeps {
  port: BrowserPort;
  invokeCallback: CallbackInvoker;
  log: (e: LogEvent) => void;
  /** How provider models are called: the offscreen document in the extension, the ai SDK in-process in tests. */
  providers?: ProviderCaller;
  /** Cancels a whole run (the agent's). */
  cancel?: AbortSignal;
}

export interface OpContext {
  page: number;
  model: ResolvedModel;
  deadline: number;
  timeoutMs: number;
  systemPrompt?: string;
  domSettleTimeoutMs: number;
  locator?: LocatorSpec;
  ignoreLocators?: LocatorSpec[];
  variables?: Variables;
  screenshot?: boolean;
  opId?: string;
  /** Aborted when the caller cancels the operation. */
  signal?: AbortSignal;
  /** Include iframe content (default true). */
  iframes?: boolean;
}

const remaining = (ctx: OpContext) => {
  if (ctx.signal?.aborted) throw new DeckhandError(ErrorCode.Cancelled, 'the operation was cancelled by its caller');
  const ms = ctx.deadline - Date.now();
  if (ms <= 0) throw new DeckhandError(ErrorCode.Timeout, `the operation ran out of its ${ctx.timeoutMs} ms timeout`, { timeoutMs: ctx.timeoutMs });
  return ms;
};

/**
 * Tokens of the page the built-in model reads first for an act: the lines near the viewport,
 * the items of long lists the instruction names, and every other line with one of its words
 * (snapshot/render.ts keeps those from folding). Printing and checking fewer lines is most of
 * an act's time on a big page; a refusal on this view is asked again on the whole one.
 */
const NARROW_ACT_BUDGET = 3000;

/** How long the network must stay idle, then the DOM quiet, before a model reads the page. */
const NETWORK_QUIET_MS = 250;
const DOM_QUIET_MS = 150;
/** A page that never stops fetching (polling, analytics) is read anyway after this long. */
const NETWORK_WAIT_MAX_MS = 3000;

/**
 * Wait until the page has settled: its document loaded, no request in flight for
 * NETWORK_QUIET_MS (long-lived streams aside, see network.ts; at most NETWORK_WAIT_MAX_MS),
 * then no DOM change for DOM_QUIET_MS; at most domSettleTimeoutMs in all, after which the page
 * is read as it is. A page already quiet answers at once.
 */
export async function settle(deps: InferenceDeps, ctx: OpContext): Promise<void> {
  if (ctx.domSettleTimeoutMs <= 0) return;
  const ms = Math.min(ctx.domSettleTimeoutMs, remaining(ctx));
  const t0 = Date.now();
  const cdp = await deps.port.cdp(ctx.page);
  const net = await raceCancel(networkQuiet(cdp, NETWORK_QUIET_MS, Math.min(ms, NETWORK_WAIT_MAX_MS), ctx.signal), ctx.signal);
  const left = Math.max(0, ms - (Date.now() - t0));
  const r = await raceCancel(
    deps.port
      .frameRequest<{ settled: boolean }>(ctx.page, 0, { type: 'dh:settle', timeoutMs: left, quietMs: DOM_QUIET_MS }, left + 2000)
      .catch(() => ({ settled: false })),
    ctx.signal,
  );
  if (!net || !r.settled) {
    deps.log({ level: 'debug', message: `page still ${net ? 'changing' : 'loading'} after ${ms} ms; reading it anyway`, data: { opId: ctx.opId } });
  }
}

/** The parts of a prompt a model may read as data instead (see ModelRequest). */
type PromptFields = Pick<ModelRequest, 'instruction' | 'outline' | 'alreadyDone' | 'today' | 'tools'>;

/** One model call whose answer must match `check`; a bad answer gets one retry that shows the model its mistake. */
async function ask(
  deps: InferenceDeps,
  ctx: OpContext,
  kind: 'act' | 'observe' | 'extract',
  prompt: string,
  fields: PromptFields,
  schema: Record<string, unknown>,
  check: (o: unknown) => string | null,
  images: { data: string; mimeType: string }[] = [],
): Promise<{ object: unknown; usage: Usage; confidence?: number }> {
  let usage: Usage = { ...ZERO_USAGE };
  let attemptPrompt = prompt;
  for (let attempt = 0; attempt < 2; attempt++) {
    deps.log({ level: 'debug', message: `${kind}: calling ${ctx.model.name}`, data: { opId: ctx.opId, attempt } });
    const req: ModelRequest = {
      system: systemPrompt(kind, ctx.systemPrompt),
      prompt: attemptPrompt,
      ...fields,
      schema,
      images,
      maxOutputTokens: OPERATIONS[kind]?.outputTokens,
    };
    const r = await callModel(ctx.model, req, remaining(ctx), deps.invokeCallback, deps.providers, ctx.signal).catch((e: unknown) => {
      if (e instanceof DeckhandError && e.code === ErrorCode.ModelOutputInvalid && attempt === 0) return e;
      throw e;
    });
    if (r instanceof DeckhandError) {
      attemptPrompt = `${prompt}\n\nYour previous answer was not valid: ${r.message}. Answer again, following the schema exactly.`;
      continue;
    }
    usage = addUsage(usage, r.usage);
    deps.log({
      level: 'info',
      message: `${kind}: ${ctx.model.name} answered in ${r.usage.inferenceTimeMs} ms`,
      data: {
        opId: ctx.opId,
        span: 'model-call',
        model: ctx.model.name,
        startedAt: r.startedAt,
        endedAt: r.endedAt,
        inputTokens: r.usage.inputTokens,
        outputTokens: r.usage.outputTokens,
      } satisfies ModelCallSpan,
    });
    const problem = check(r.object);
    if (!problem) return { object: r.object, usage, confidence: r.confidence };
    if (attempt === 1) {
      const said = `model '${ctx.model.name}' answered ${kind} with data that does not fit the schema twice: ${problem}`;
      throw new DeckhandError(ErrorCode.ModelOutputInvalid, said, { model: ctx.model.name });
    }
    attemptPrompt = `${prompt}\n\nYour previous answer did not fit the schema: ${problem}. Answer again, following the schema exactly.`;
  }
  throw new DeckhandError(ErrorCode.ModelOutputInvalid, `model '${ctx.model.name}' gave no valid answer for ${kind}`, { model: ctx.model.name });
}

const zodCheck = (schema: z.ZodTypeAny) => (o: unknown) => {
  const r = schema.safeParse(o);
  return r.success ? null : r.error.issues.map((i) => `${i.path.join('.') || 'answer'}: ${i.message}`).join('; ');
};

/**
 * The page as the model reads it, within `budget` (the snapshot default unless given). Every
 * model reads the same folded outline; `focus` (the instruction) keeps the items of folded
 * lists that it names. Provider models read only the text, so only the others get the lines.
 */
async function snapshotFor(deps: InferenceDeps, ctx: OpContext, opts: { budget?: number; focus?: string; narrow?: boolean } = {}): Promise<CapturedSnapshot> {
  return raceCancel(
    captureSnapshot(deps.port, ctx.page, {
      locator: ctx.locator,
      ignoreLocators: ctx.ignoreLocators,
      budget: opts.budget,
      focus: opts.focus,
      narrow: opts.narrow,
      lines: ctx.model.kind !== 'provider',
      timeoutMs: Math.min(remaining(ctx), 15_000),
      frames: ctx.iframes !== false,
    }),
    ctx.signal,
  );
}

async function toSelector(deps: InferenceDeps, ctx: OpContext, id: string): Promise<string | null> {
  if (!/^(f\d+)?e\d+$/.test(id.trim())) return null;
  const [ref] = await selectorsForIds(deps.port, ctx.page, [id.trim()]);
  return ref?.selector ?? null;
}

export async function inferAct(
  deps: InferenceDeps,
  ctx: OpContext,
  instruction: string,
): Promise<{ result: Omit<ActResult, 'metadata'>; usage: Usage; confidence?: number }> {
  const vars = normalizeVariables(ctx.variables);
  let usage: Usage = { ...ZERO_USAGE };
  let confidence: number | undefined;
  const actions: Action[] = [];
  /** A tool's answer is what a tool call's act reports. */
  const said: string[] = [];
  let previous = '';
  // A date named by description is counted from the page's own date, which the model cannot know otherwise.
  const today = mentionsNamedDate(instruction) ? await pageToday(deps.port, ctx.page) : undefined;
  for (let step = 0; step < 2; step++) {
    await settle(deps, ctx);
    const done = previous ? `\n\nAlready done for this instruction: ${previous}. Now finish it on the page as it is now.` : '';
    const extra = variablesHelp(vars) + (today ? todayLine(today) : '') + done;
    const decide = async (budget?: number) => {
      const snap = await snapshotFor(deps, ctx, { focus: instruction, budget, narrow: budget !== undefined });
      const fields: PromptFields = {
        instruction,
        outline: snap.lines && maskLines(snap.lines, vars),
        ...(previous ? { alreadyDone: previous } : {}),
        ...(today ? { today } : {}),
        ...(snap.tools && ctx.model.kind !== 'provider' ? { tools: snap.tools } : {}),
      };
      const prompt = userPrompt({ instruction, snapshot: maskValues(snap.text, vars), url: snap.url, extra });
      const asked = await ask(deps, ctx, 'act', prompt, fields, ACT_JSON_SCHEMA, zodCheck(ActAnswerSchema));
      usage = addUsage(usage, asked.usage);
      return { snap, answer: asked.object as ActAnswer, confidence: asked.confidence };
    };
    // The built-in model first reads a narrow view (see NARROW_ACT_BUDGET); what it cannot find there, it looks for in the whole one.
    const narrow = ctx.model.kind === 'local';
    let decided = await decide(narrow ? NARROW_ACT_BUDGET : undefined);
    if (narrow && decided.snap.folded && (!decided.answer.found || !decided.answer.elementId)) decided = await decide();
    const { snap, answer } = decided;
    if (step === 0) confidence = decided.confidence;
    if (!answer.found || !answer.elementId) {
      if (step === 1) break; // the first step already acted
      return {
        result: {
          data: {
            success: false,
            message: `no element on the page fits ${quote(instruction)}${answer.reason ? `: ${clip(answer.reason, 600)}` : ''}`,
            actionDescription: clip(instruction, 1000),
            actions,
          },
        },
        usage,
        confidence,
      };
    }
    // "page": a page-level action (scrolling the page, a key press to whatever has focus).
    // An element's target (role, name, surroundings) goes with its action, so a replay can tell it is still the same element.
    const id = answer.elementId.trim();
    const chosen = id !== 'page' && /^(f\d+)?e\d+$/.test(id) ? (await targetsOf(deps.port, ctx.page, snap.text, [id])).get(id) : undefined;
    const selector = id === 'page' ? await pageSelector(deps, ctx, answer.method) : (chosen?.selector ?? null);
    if (!selector) {
      return {
        result: {
          data: {
            success: false,
            message: `the model chose '${answer.elementId}', which is not an element of the page snapshot; nothing was done`,
            actionDescription: clip(instruction, 1000),
            actions,
          },
        },
        usage,
      };
    }
    let args = answer.arguments;
    if (answer.method === 'dragAndDrop' && args[0]) args = [(await toSelector(deps, ctx, args[0])) ?? args[0], ...args.slice(1)];
    const action: Action = {
      selector,
      description: answer.description,
      method: answer.method,
      arguments: args,
      ...(chosen?.target ? { target: chosen.target } : {}),
    };
    const timeout = Math.min(remaining(ctx), DEFAULTS.actionTimeoutMs);
    const acted = await performAction(deps.port, ctx.page, { selector }, answer.method, substituteArgs(answer.method, args, vars), timeout, ctx.signal);
    if (answer.method === 'callTool') said.push(toolCallSaid(acted.element, acted.output, acted.navigated));
    actions.push(action);
    if (!answer.twoStep) break;
    previous = `${answer.method} on ${answer.description}`;
  }
  return {
    result: {
      data: {
        success: true,
        message: said.length ? said.join(', then ') : `performed: ${actions.map((a) => `${a.method} on ${a.description}`).join(', then ')}`,
        actionDescription: clip(instruction, 1000),
        actions,
      },
    },
    usage,
    confidence,
  };
}

/** Where a key press with no target goes: the focused element, else the body. */
export async function focusedSelector(port: BrowserPort, page: number): Promise<string> {
  const r = await port.frameRequest<{ count?: number }>(page, 0, { type: 'dh:count', selector: '*:focus' }, 5000).catch(() => ({ count: 0 }));
  return r.count ? '*:focus' : 'body';
}

/** The element a page-level action goes to: the page for scrolling, the focused element for keys. */
async function pageSelector(deps: InferenceDeps, ctx: OpContext, method: string): Promise<string | null> {
  if (method === 'press' || method === 'type') return focusedSelector(deps.port, ctx.page);
  if (method === 'selectText') return 'body';
  if (method === 'callTool') return 'html';
  return ['scrollTo', 'nextChunk', 'prevChunk'].includes(method) ? 'html' : null;
}

export async function inferObserve(
  deps: InferenceDeps,
  ctx: OpContext,
  instruction?: string,
): Promise<{ data: ObserveResult['data']; usage: Usage; confidence?: number }> {
  await settle(deps, ctx);
  const snap = await snapshotFor(deps, ctx, { focus: instruction });
  const vars = normalizeVariables(ctx.variables);
  const fields: PromptFields = {
    instruction,
    outline: snap.lines && maskLines(snap.lines, vars),
    ...(snap.tools && ctx.model.kind !== 'provider' ? { tools: snap.tools } : {}),
  };
  const prompt = userPrompt({ instruction, snapshot: maskValues(snap.text, vars), url: snap.url, extra: variablesHelp(vars) });
  const { object, usage, confidence } = await ask(deps, ctx, 'observe', prompt, fields, OBSERVE_JSON_SCHEMA, zodCheck(ObserveAnswerSchema));
  const elements = (object as z.infer<typeof ObserveAnswerSchema>).elements;
  const ids = elements.map((e) => e.elementId.trim()).filter((id) => /^(f\d+)?e\d+$/.test(id));
  const byId = await targetsOf(deps.port, ctx.page, snap.text, ids);
  const data: Action[] = [];
  for (const e of elements) {
    const found = byId.get(e.elementId.trim());
    if (e.elementId.trim() === 'page' && e.method === 'callTool') {
      // A call of one of the page's own tools: it has no element (core/page-tools.ts).
      data.push({ selector: 'html', description: e.description, method: 'callTool', arguments: e.arguments });
    } else if (found) {
      const target = found.target ? { target: found.target } : {};
      data.push({ selector: found.selector, description: e.description, method: e.method, arguments: e.arguments, ...target });
    } else deps.log({ level: 'warn', message: `observe: dropped '${e.elementId}', which is not in the page snapshot`, data: { opId: ctx.opId } });
  }
  return { data, usage, confidence };
}

const EXTRACT_CHUNK_TOKENS = 24_000;
/** A budget no page reaches: the snapshot unfolded. */
const WHOLE_PAGE_TOKENS = 50_000_000;
const EXTRACT_MAX_CHUNKS = 8;

/** href values shown in a snapshot, by element id, for turning ids the model returns into URLs. */
function hrefsOf(snapshot: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of snapshot.matchAll(/\[((?:f\d+)?e\d+)\][^\n]*? href=(\S+)/g)) out.set(m[1], m[2]);
  return out;
}

const URLISH = /url|link|href|website|homepage/i;

/** Links come back as the page's real, absolute URLs, whatever the model wrote. */
/** A schema whose top is not an object, as the `value` of one; the definitions a recursive type still needs stay at the top. */
function wrap(s: Record<string, unknown>): Record<string, unknown> {
  const { $defs, definitions, ...value } = s;
  const defs = { ...($defs ? { $defs } : {}), ...(definitions ? { definitions } : {}) };
  return { type: 'object', additionalProperties: false, required: ['value'], properties: { value }, ...defs };
}

function fixUrls(value: unknown, schema: Record<string, unknown> | undefined, key: string, hrefs: Map<string, string>, base: string): unknown {
  if (typeof value === 'string') {
    const urlish = URLISH.test(key) || schema?.format === 'uri' || schema?.format === 'url';
    if (!urlish) return value;
    const v = hrefs.get(value.trim()) ?? value;
    try {
      return v && /^(\/|\.\/|\.\.\/|\?|#|[a-z][a-z0-9+.-]*:)/i.test(v) ? new URL(v, base).href : v;
    } catch {
      return v;
    }
  }
  if (Array.isArray(value)) return value.map((v) => fixUrls(v, (schema?.items as Record<string, unknown>) ?? undefined, key, hrefs, base));
  if (value && typeof value === 'object') {
    const props = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fixUrls(v, props[k], k, hrefs, base)]));
  }
  return value;
}

/** Merge answers from chunks of one page: lists concatenate, the first non-empty scalar wins. */
export function mergeExtracted(a: unknown, b: unknown): unknown {
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a)) {
    const out: Record<string, unknown> = { ...(a as Record<string, unknown>) };
    for (const [k, v] of Object.entries(b as Record<string, unknown>)) out[k] = k in out ? mergeExtracted(out[k], v) : v;
    return out;
  }
  if (typeof a === 'string' && typeof b === 'string') return a.trim() ? (b.trim() && !a.includes(b) ? `${a}\n${b}` : a) : b;
  return a === null || a === undefined || a === '' ? b : a;
}

export async function inferExtract(
  deps: InferenceDeps,
  ctx: OpContext,
  instruction: string | undefined,
  userSchema: Record<string, unknown> | undefined,
): Promise<{ data: unknown; usage: Usage; confidence?: number }> {
  // Providers want an object at the top: wrap anything else and unwrap the answer.
  const wrapped = !!userSchema && userSchema.type !== 'object';
  const schema = !userSchema ? (TEXT_EXTRACTION_SCHEMA as unknown as Record<string, unknown>) : wrapped ? wrap(userSchema) : userSchema;
  let validator: Validator;
  try {
    validator = new Validator(schema as never, '7', false);
  } catch (e) {
    throw new DeckhandError(ErrorCode.InvalidArgument, `the extract schema is not a usable JSON Schema: ${(e as Error).message}`);
  }
  await settle(deps, ctx);
  // Extract reads every line of the page, whichever the model: a large model in chunks when the
  // page does not fit one call, the local model (no context window) in one piece. Data is the
  // whole list, not the few rows a fold keeps, so extract never reads a folded outline.
  let snap = await snapshotFor(deps, ctx, { budget: ctx.model.kind === 'local' ? WHOLE_PAGE_TOKENS : EXTRACT_CHUNK_TOKENS });
  // Too large for one call: take the whole page and extract chunk by chunk, merging the answers.
  let chunks: { text: string; lines?: OutlineLine[] }[] = [{ text: snap.text, lines: snap.lines }];
  if (snap.folded) {
    snap = await snapshotFor(deps, ctx, { budget: WHOLE_PAGE_TOKENS });
    chunks = splitLines(snap.text, snap.lines, EXTRACT_CHUNK_TOKENS * 3);
    if (chunks.length > EXTRACT_MAX_CHUNKS) {
      throw new DeckhandError(
        ErrorCode.InvalidArgument,
        `the page is too large to extract from in ${EXTRACT_MAX_CHUNKS} model calls (${chunks.length} chunks of ${EXTRACT_CHUNK_TOKENS} tokens); ` +
          'scope the extraction with a locator',
      );
    }
    deps.log({ level: 'info', message: `extract: page split into ${chunks.length} chunks`, data: { opId: ctx.opId } });
  }
  // Links are made absolute before validation, so a `format: uri` field accepts the page's relative hrefs.
  const hrefs = hrefsOf(snap.text);
  const fixed = (o: unknown) => fixUrls(o, schema, '', hrefs, snap.url);
  const check = (o: unknown) => {
    const r = validator.validate(fixed(o));
    return r.valid
      ? null
      : r.errors
          .slice(0, 5)
          .map((e) => `${e.instanceLocation}: ${e.error}`)
          .join('; ');
  };
  const images = ctx.screenshot ? [await screenshotFor(deps, ctx.page)] : [];
  const xvars = normalizeVariables(ctx.variables);
  let usage: Usage = { ...ZERO_USAGE };
  let merged: unknown = undefined;
  let confidence: number | undefined;
  for (const [i, chunk] of chunks.entries()) {
    const part = chunks.length > 1 ? `\n\n(This is part ${i + 1} of ${chunks.length} of the page.)` : '';
    const fields: PromptFields = { instruction, outline: chunk.lines && maskLines(chunk.lines, xvars) };
    const prompt = userPrompt({ instruction, snapshot: maskValues(chunk.text, xvars), url: snap.url, extra: part });
    const r = await ask(deps, ctx, 'extract', prompt, fields, schema, check, i === 0 ? images : []);
    usage = addUsage(usage, r.usage);
    if (r.confidence !== undefined) confidence = Math.min(confidence ?? 1, r.confidence);
    merged = merged === undefined ? r.object : mergeExtracted(merged, r.object);
  }
  const data = unmaskValues(wrapped ? (fixed(merged) as { value: unknown }).value : fixed(merged), xvars);
  return { data, usage, confidence };
}

/** Split a snapshot into chunks of whole lines; the lines as data (when there) are split alike. */
function splitLines(text: string, data: OutlineLine[] | undefined, maxChars: number): { text: string; lines?: OutlineLine[] }[] {
  const out: { text: string; lines?: OutlineLine[] }[] = [];
  const all = text.split('\n');
  // The text's first lines may list the page's own tools, which the lines as data leave out (they travel as `tools`).
  const lead = data ? Math.max(0, all.length - data.length) : 0;
  const at = (i: number) => Math.max(0, i - lead);
  const push = (from: number, to: number) => out.push({ text: all.slice(from, to).join('\n'), ...(data ? { lines: data.slice(at(from), at(to)) } : {}) });
  let start = 0;
  let size = 0;
  for (let i = 0; i < all.length; i++) {
    if (size + all[i].length + 1 > maxChars && i > start) {
      push(start, i);
      start = i;
      size = 0;
    }
    size += all[i].length + 1;
  }
  if (start < all.length) push(start, all.length);
  return out;
}

async function screenshotFor(deps: InferenceDeps, page: number): Promise<{ data: string; mimeType: string }> {
  const cdp = await deps.port.cdp(page);
  const r = await withDeadline(cdp.send<{ data: string }>('Page.captureScreenshot', { format: 'jpeg', quality: 70 }), 15_000, 'screenshot for the model');
  return { data: r.data, mimeType: 'image/jpeg' };
}
