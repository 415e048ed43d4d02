/**
 * The agent with the built-in model: the instruction is planned into single steps
 * (models/local/plan.ts), each step is grounded on the page as it is when its turn comes and
 * run through the same single-step act as `act`, and the run stops at the first step it
 * cannot ground or that fails, saying what it did and what was beyond it. Before anything
 * runs, every step is grounded on the page as it is: a step that cannot be grounded, with
 * nothing before it that could change the page, ends the run with nothing done, so a form is
 * never half filled and submitted. A step that may be hidden ("switch between the tabs to
 * find ...") reveals collapsed sections and other tabs one at a time until it grounds.
 */
import type { OutlineLine } from '../protocol/model';
import type { Action } from '../protocol/schemas';
import { quote } from '../protocol/text';
import { choose, parseIntent, Refusal, type Pick } from '../models/local/act';
import { buildOutline, type OutlineNode } from '../models/local/outline';
import { planInstruction, type PlanStep } from '../models/local/plan';
import { normalize } from '../models/local/text';
import type { BrowserPort } from './ports';
import { captureSnapshot, selectorsForIds } from './snapshot';
import { performAction } from './actions';

export interface PlannedRun {
  port: BrowserPort;
  page: number;
  instruction: string;
  maxSteps: number;
  signal: AbortSignal;
  /** Run one act step through the agent's step machinery (streamed, recorded); its result text, "error: ..." on failure. */
  act: (say: string, reasoning: string, pageText: string, pageUrl: string) => Promise<string>;
  /** Record a click the run made itself (a suggestion picked, a tab opened), streamed and replayable like an act step. */
  note: (instruction: string, reasoning: string, result: string, pageUrl: string, action: Action | null) => void;
}

export interface PlannedOutcome {
  success: boolean;
  message: string;
}

const SNAPSHOT_BUDGET = 8000;
/** Controls a text step may change the page through (a suggestion list, a section opening). */
const CHANGES_PAGE = new Set(['click', 'check', 'uncheck', 'selectOption', 'press', 'doubleClick', 'rightClick', 'dragAndDrop', 'hover']);
const TEXT_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);
const CHECKABLE = new Set(['checkbox', 'switch', 'menuitemcheckbox', 'radio']);

async function look(port: BrowserPort, page: number): Promise<{ nodes: OutlineNode[]; text: string; url: string; lines: OutlineLine[] }> {
  const snap = await captureSnapshot(port, page, { budget: SNAPSHOT_BUDGET, lines: true });
  const lines = snap.lines ?? [];
  return { nodes: buildOutline(lines), text: snap.text, url: snap.url, lines };
}

/** The first phrasing of `step` the single-step reading grounds on `nodes`, with its pick. */
function ground(step: PlanStep, nodes: OutlineNode[]): { say: string; pick: Pick } | { why: string } {
  let why = '';
  for (const say of [step.say, ...(step.or ?? [])]) {
    try {
      return { say, pick: choose(parseIntent(say), nodes) };
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      why ||= e.message;
    }
  }
  return { why };
}

function pageFacts(nodes: OutlineNode[]): { fields: string[]; names: string[] } {
  const fields: string[] = [];
  const names: string[] = [];
  for (const n of nodes) {
    if (!n.id) continue;
    if (TEXT_ROLES.has(n.role)) {
      if (n.name) fields.push(n.name);
      if (typeof n.states.placeholder === 'string') fields.push(n.states.placeholder);
    } else if (n.name) names.push(n.name);
  }
  return { fields, names };
}

/** Controls that reveal hidden content, in page order: tabs not selected, collapsed disclosures. */
function revealers(nodes: OutlineNode[], tried: Set<string>): OutlineNode[] {
  return nodes.filter((n) => {
    if (!n.id || n.states.disabled === true) return false;
    const key = `${n.role}|${n.name}`;
    if (tried.has(key)) return false;
    if (n.role === 'tab') return n.states.selected !== true;
    return n.states.expanded === 'false' || (n.role !== 'tab' && n.states.expanded === undefined && /^(summary|disclosure)$/.test(n.role));
  });
}

const describeStep = (i: number, n: number, s: string) => `step ${i + 1} of ${n}: ${s}`;

export async function runPlanned(r: PlannedRun): Promise<PlannedOutcome> {
  let view = await look(r.port, r.page);
  let plan: PlanStep[];
  try {
    plan = planInstruction(r.instruction, pageFacts(view.nodes));
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    return { success: false, message: `the built-in model could not plan ${quote(r.instruction)}: ${e.message}; nothing was done (configure a model for tasks like this)` };
  }
  if (plan.length > r.maxSteps) {
    return { success: false, message: `the plan has ${plan.length} steps, more than maxSteps (${r.maxSteps}); nothing was done` };
  }
  const listing = plan.map((s, i) => `${i + 1}. ${s.say}`).join('; ');
  // Every step grounded on the page as it is now. A step that does not ground, with only steps
  // before it that cannot change what the page shows (text typed into plain fields), will not
  // ground later either: refuse before anything is done.
  let mayChange = false;
  for (const [i, s] of plan.entries()) {
    const g = ground(s, view.nodes);
    if ('why' in g) {
      if (!mayChange && !s.search) {
        return { success: false, message: `${describeStep(i, plan.length, quote(s.say))} is beyond the built-in model on this page (${g.why}); nothing was done. Plan: ${listing}` };
      }
      // From here on the page may differ: ground the rest when their turn comes.
      break;
    }
    if (CHANGES_PAGE.has(g.pick.method) || (g.pick.node && g.pick.node.role === 'combobox')) mayChange = true;
  }

  const done: string[] = [];
  const stop = (i: number, why: string) => ({
    success: false,
    message: `${done.length ? `did ${done.length} of ${plan.length} steps (${done.join('; ')}), then ` : ''}${describeStep(i, plan.length, quote(plan[i].say))} was beyond the built-in model: ${why}. ${i + 1 < plan.length ? `The steps after it were not run. ` : ''}Plan: ${listing}`,
  });
  for (const [i, s] of plan.entries()) {
    if (r.signal.aborted) return { success: false, message: `cancelled after ${done.length} of ${plan.length} steps` };
    if (i > 0) view = await look(r.port, r.page);
    let g = ground(s, view.nodes);
    if ('why' in g && s.search) g = await reveal(r, s, () => view, (v) => (view = v));
    if ('why' in g) return stop(i, g.why);
    // "Select 1, 5 and 9" on checkboxes: one already ticked stays ticked (a click would clear it).
    const n = g.pick.node;
    if (n && g.pick.method === 'click' && CHECKABLE.has(n.role) && n.states.checked === true && /^(?:select|choose|pick|check|tick|mark)\b/i.test(g.say)) {
      r.note(g.say, describeStep(i, plan.length, g.say), `${n.role} ${quote(n.name)} is already checked; left as it is`, view.url, null);
      done.push(`${g.say} (already checked)`);
      continue;
    }
    const result = await r.act(g.say, describeStep(i, plan.length, g.say), view.text, view.url);
    if (result.startsWith('error:')) return stop(i, result.slice(6).trim());
    done.push(g.say);
    // A value typed into a field with suggestions goes in by the suggestion that is exactly it.
    if (g.pick.node?.role === 'combobox' && g.pick.method === 'fill' && g.pick.args[0]) {
      const picked = await pickSuggestion(r, g.pick.args[0]);
      if (picked) done.push(picked);
    }
  }
  return { success: true, message: `done in ${plan.length} step${plan.length === 1 ? '' : 's'}: ${done.join('; ')}` };
}

/**
 * Open tabs and collapsed sections one at a time until `step` grounds; each click is a step of
 * the run. Gives up after 12 reveals.
 */
async function reveal(r: PlannedRun, step: PlanStep, current: () => Awaited<ReturnType<typeof look>>, set: (v: Awaited<ReturnType<typeof look>>) => void): Promise<ReturnType<typeof ground>> {
  const tried = new Set<string>();
  let last = ground(step, current().nodes);
  for (let k = 0; k < 12 && 'why' in last; k++) {
    const next = revealers(current().nodes, tried)[0];
    if (!next) break;
    tried.add(`${next.role}|${next.name}`);
    const [sel] = await selectorsForIds(r.port, r.page, [next.id!]);
    if (!sel) break;
    const { element } = await performAction(r.port, r.page, { selector: sel.selector }, 'click', [], 5000, r.signal);
    r.note(`click ${quote(next.name || next.role)}`, `looking for ${quote(step.say)}: open ${next.role} ${quote(next.name)}`, `clicked ${element}`, current().url, { selector: sel.selector, description: element, method: 'click', arguments: [] });
    set(await look(r.port, r.page));
    last = ground(step, current().nodes);
  }
  return 'why' in last ? { why: `${last.why} (looked in ${tried.size} hidden section${tried.size === 1 ? '' : 's'} or tab${tried.size === 1 ? '' : 's'})` } : last;
}

/** After typing into a combobox: click the suggestion named exactly what was typed, if one shows. */
async function pickSuggestion(r: PlannedRun, value: string): Promise<string | null> {
  const want = normalize(value);
  for (let attempt = 0; attempt < 3; attempt++) {
    const v = await look(r.port, r.page);
    const option = v.nodes.find((n) => n.id && n.role === 'option' && normalize(n.name) === want);
    if (option) {
      const [sel] = await selectorsForIds(r.port, r.page, [option.id!]);
      if (!sel) return null;
      const { element } = await performAction(r.port, r.page, { selector: sel.selector }, 'click', [], 5000, r.signal);
      r.note(`click the suggestion ${quote(option.name)}`, 'pick the suggestion that is the value typed', `clicked ${element}`, v.url, { selector: sel.selector, description: element, method: 'click', arguments: [] });
      return `picked the suggestion ${quote(option.name)}`;
    }
    // Suggestions often come after a short debounce.
    await new Promise((res) => setTimeout(res, 150));
  }
  return null;
}
