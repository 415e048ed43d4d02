/**
 * What every step family of the built-in agent shares: the run and the page as it reads it (View, Clock, Run), reading
 * the page, grounding a step's words on it, acting on a node of the outline, pausing.
 */
import type { OutlineLine } from '../../../protocol/model';
import type { PageTool } from '../../../protocol/page-tools';
import { pickTool } from '../tools';
import { clip, quote } from '../../../protocol/text';
import { choose, parseIntent, Refusal, type Facts, type Intent, type Pick } from '../act';
import { Ambiguity } from '../refusal';
import { buildOutline, type OutlineNode } from '../outline';
import { quoteValue, type PlanStep } from '../plan';
import { applyTransform, resolveReference } from '../refs';
import { glyphWords, normalize } from '../text';
import type { StepRunner } from '../step-runner';
import { PURPOSE_SYNONYMS } from '../words/purposes';

export const TEXT_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);
export const CHECKABLE = new Set(['checkbox', 'switch', 'menuitemcheckbox', 'radio']);

/** The page as the model reads it: its outline, text and address. */
export interface View {
  nodes: OutlineNode[];
  text: string;
  url: string;
  lines: OutlineLine[];
}

/** The page as the model reads it; folded lists keep the items the instruction names. The page's own tools go to the run's clock. */
export async function look(r: StepRunner & { clock?: Clock }, focus?: string): Promise<View> {
  const { lines, text, url, tools } = await r.look(focus);
  if (r.clock) r.clock.tools = tools ?? [];
  return { nodes: buildOutline(lines), text, url, lines };
}

/** The model's compute in one run: planning and grounding, timed. */
export interface Clock {
  ms: number;
  /** What grounding needs besides the page: its date, when the instruction names one by description. */
  facts: Facts;
  /** The page's own tools (WebMCP) as last read: a step one of them does is done through it (tools.ts). */
  tools?: PageTool[];
}

/** The first phrasing of `step` the single-step reading grounds on `nodes` (timed as the model's compute). */
/** A step grounded, or why not; `tied` when the page shows several elements that fit its words equally. */
export type Grounding = { say: string; pick: Pick } | { why: string; tied?: boolean };

export function ground(step: PlanStep, nodes: OutlineNode[], clock: Clock): Grounding {
  const t0 = performance.now();
  try {
    const tool = clock.tools?.length ? pickTool(step.say, clock.tools).pick : null;
    if (tool)
      return {
        say: step.say,
        pick: { node: null, method: 'callTool', args: [tool.name, JSON.stringify(tool.input)], confidence: 1, description: tool.description },
      };
    return groundNow(step, nodes, clock.facts);
  } finally {
    clock.ms += performance.now() - t0;
  }
}

function groundNow(step: PlanStep, nodes: OutlineNode[], facts: Facts): Grounding {
  let why = '';
  let tied = false;
  if (step.ref) return { why: `the value ${quote(step.ref)} has not been read off the page yet` };
  for (const say of [step.say, ...(step.or ?? [])]) {
    try {
      const intent = parseIntent(say);
      const pick = choose(intent, nodes, facts);
      const short = uncovered(say, intent, pick);
      if (short) throw new Refusal(short);
      return { say, pick };
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      // A set named ("all circles") is the reason, whatever else kept the words from grounding.
      const set = A_SET.exec(unquoted(say));
      if (!why) tied = !set && e instanceof Ambiguity;
      why ||= set ? `it asks for ${quote(set[0])}, and a step acts on one element` : e.message;
    }
  }
  return tied ? { why, tied } : { why };
}

/** Roles of the controls a purpose ("delete", "mute", "like") may be the name of. */
const CONTROLS = new Set([
  'button',
  'link',
  'clickable',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'option',
  'treeitem',
  'switch',
  'checkbox',
  'radio',
  'combobox',
  'listbox',
  'textbox',
  'searchbox',
  'spinbutton',
  'slider',
]);
/** Words that place or count rather than name ("the", "any", "for"), left out of what a control may carry. */
const FILLER = new Set([
  'the',
  'a',
  'an',
  'any',
  'all',
  'some',
  'this',
  'that',
  'it',
  'them',
  'for',
  'of',
  'to',
  'in',
  'on',
  'with',
  'from',
  'by',
  'and',
  'my',
  'your',
]);
/** A word and its forms ("subscribe", "subscription"; "book", "booking"): the same first five letters, or the same short word. */
const sameWord = (a: string, b: string): boolean =>
  a === b || (a.length >= 5 && b.length >= 5 && a.slice(0, 5) === b.slice(0, 5)) || (a.length >= 4 && (b === `${a}s` || b === `${a}ed` || b === `${a}ing`));
/** "all circles", "every box", "both fields": a set of things, which one step on one element does not cover. */
const A_SET = /\b(?:all|both)\s+(?:of\s+)?(?:the\s+)?(?:[\w-]+\s+){0,2}?[\w-]+s\b|\b(?:every|each)\s+(?:one\s+of\s+the\s+)?[\w-]+/i;
/** The words of a step without its quoted values ("enter "every day" into the box" names no set). */
const unquoted = (say: string): string => say.replace(/"[^"]*"|“[^”]*”/g, '""');
/** What follows a purpose's verb and is a goal of its own: "(download) and read the note", "to solve the riddles". */
const DETERMINERS = 'the|a|an|my|your|our|their|his|her|its|this|that|these|those|all|each|every|some|any';
const MORE_GOAL = new RegExp(
  `^(?:and|&|then)\\s+[a-z]+|\\b(?:in order to|so as to|to)\\s+(?!(?:${DETERMINERS})\\b)[a-z]{3,}\\s+(?:${DETERMINERS}|it|them)\\b`,
  'i',
);

/**
 * Why the element a step grounded on does not carry out what the step asks, or null when it does.
 * A step that names a set ("all circles") is not done by acting on one element (unless the
 * element is the one for all of them, "Select all"). A step read as a purpose ("upload any file",
 * "plan the path", "download and read the note") is done only by clicking a control that carries
 * that purpose: a button, link or other control whose name has the verb (or a word for it, or a
 * word of its object: "answer the dialog with yes" is the Yes button), never a heading or text
 * that merely repeats the words, and only when nothing else is asked beside it ("and read it",
 * "to solve the riddles").
 */
function uncovered(say: string, intent: Intent, pick: Pick): string | null {
  const node = pick.node;
  if (!node) return null;
  const label = `the ${node.role} ${quote(clip(node.name || node.role, 60))}`;
  const set = A_SET.exec(unquoted(say));
  if (set && !normalize(node.name).split(' ').includes(set[0].split(/\s+/)[0].toLowerCase())) {
    return `it asks for ${quote(set[0])}, and a step acts on one element (here ${label})`;
  }
  if (!intent.purpose) return null;
  const { verb, object } = intent.purpose;
  if (MORE_GOAL.test(object)) return `${quote(clip(`${verb} ${object}`, 80))} asks for more than a click on ${label} does`;
  if (!CONTROLS.has(node.role)) return `to ${verb} is not done by clicking ${label}, which is not a control`;
  const carried = [
    verb,
    ...(PURPOSE_SYNONYMS[verb] ?? []),
    ...normalize(object)
      .split(' ')
      .filter((w) => w.length > 1 && !FILLER.has(w)),
  ];
  const named = [...normalize(node.name).split(' '), ...glyphWords(node.name).split(' ')].filter(Boolean);
  if (!named.some((w) => carried.some((c) => sameWord(c, w)))) return `to ${verb} is not what ${label} does (its name does not say it)`;
  return null;
}

/**
 * The step with the value it describes read off the page ("the text below" → what the text
 * says), changed as asked ("in lower case"); a `why` when the page does not settle it.
 */
export function withValue(step: PlanStep, nodes: OutlineNode[], instruction: string, clock: Clock): { step: PlanStep; read?: string } | { why: string } {
  if (!step.ref) return { step };
  const t0 = performance.now();
  try {
    const value = applyTransform(resolveReference(step.ref, nodes, instruction), step.transform);
    const put = (s: string) => s.replace(quoteValue(step.ref!), quoteValue(value));
    return { step: { ...step, ref: undefined, say: put(step.say), or: step.or?.map(put) }, read: `${step.ref} is ${quote(value)}` };
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    return { why: e.message };
  } finally {
    clock.ms += performance.now() - t0;
  }
}

/** The targets a page shows, by role and name. */
export const namesOf = (nodes: OutlineNode[]): Set<string> => new Set(nodes.filter((n) => n.id).map((n) => `${n.role}|${n.name}`));

export const describeStep = (i: number, n: number, s: string) => `step ${i + 1} of ${n}: ${s}`;

/** What a step carried out whole did, or why it stopped. */
export type Outcome = { did: string } | { why: string };
/** A step the agent carries out whole: its own looks and moves, the page as it is now (`current`), each new look kept (`set`). */
export type WholeStep = (r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void) => Promise<Outcome>;

/**
 * Act on a node of the outline itself (a tab to open, a suggestion, a result), with no words to
 * read, and record it as a step of the run. The element acted on; null when the node went away.
 */
export async function actOnNode(
  r: StepRunner,
  node: OutlineNode,
  method: 'click' | 'selectOption' | 'fill' | 'press' | 'hover',
  args: string[],
  instruction: string,
  reasoning: string,
  url: string,
): Promise<string | null> {
  const [selector] = await r.selectors([node.id!]);
  if (!selector) return null;
  const { element } = await r.perform(selector, method, args);
  const did =
    method === 'click' || method === 'hover'
      ? `${method === 'click' ? 'clicked' : 'hovered over'} ${element}`
      : method === 'fill'
        ? `filled ${element} with ${quote(args[0] ?? '')}`
        : method === 'press'
          ? `pressed ${args[0]} in ${element}`
          : `selected ${args.map((a) => quote(a)).join(', ')} in ${element}`;
  r.note(instruction, reasoning, did, url, { selector, description: element, method, arguments: args });
  return element;
}

/** The reason a check gives, or null when the step can start. */
export const whyNot = (found: unknown): string | null =>
  typeof found === 'string' ? found : found && typeof found === 'object' && 'why' in found ? String(found.why) : null;

/** A run: the runner, the model's clock, and the page as the run first read it. */
export type Run = StepRunner & { clock: Clock; first?: View };

/** A pause the instruction asked for, ended early by cancelling. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((res) => {
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      res();
    }
  });
}

export function under(n: OutlineNode, roles: ReadonlySet<string>): OutlineNode | null {
  for (let p = n.parent; p; p = p.parent) if (roles.has(p.role)) return p;
  return null;
}
