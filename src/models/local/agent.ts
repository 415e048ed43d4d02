/**
 * The agent with the built-in model: the instruction is planned into single steps
 * (models/local/plan.ts), each step is grounded on the page as it is when its turn comes and
 * run through the same single-step act as `act`, and the run stops at the first step it
 * cannot ground or that fails, saying what it did and what was beyond it. Before anything
 * runs, every step is grounded on the page as it is: a step that cannot be grounded, with
 * nothing before it that could change the page, ends the run with nothing done, so a form is
 * never half filled and submitted. A step that may be hidden ("switch between the tabs to
 * find ...") reveals collapsed sections and other tabs one at a time until it grounds. The
 * page is read, and each step done, through the engine's StepRunner (step-runner.ts).
 */
import type { OutlineLine } from '../../protocol/model';
import type { PageTool } from '../../protocol/page-tools';
import { pickTool } from './tools';
import { clip, quote } from '../../protocol/text';
import { choose, parseIntent, Refusal, type Facts, type Intent, type Pick } from './act';
import { mentionsNamedDate } from './values';
import { allFlatItems, flatItemsBy, isBy, ITEM_CONTROL_ROLES, type ItemBlock } from './items';
import { buildOutline, isInside, labelBefore, optionsOf, SAID_ROLES, type OutlineNode } from './outline';
import { planInstruction, quoteValue, WAIT_MAX_MS, type Condition, type Each, type PlanPage, type PlanStep } from './plan';
import { monthOf } from './input-values';
import { applyTransform, numberOf, parseDate, resolveReference, singular } from './refs';
import { sortTarget } from './sorting';
import { bestMove, boardsOf, completing, openerOf, turnOf, winnerOf, type Mark, type Square } from './boards';
import { drawButton, drawnNumber, isWanted, type Drawn } from './draws';
import { lineKey, secretSought, secretsShown, type ScrollWay } from './secrets';
import { CONSENT_BOXES, GO_BACK_NAMES, GO_ON_NAMES, NOT_CONSENT, SERIES_GO_ON, SERIES_MAX } from './words/consent';
import { REVEALER_VERBS, SECRET_NOUNS, SEND_NAMES } from './words/secrets';
import { spotMove, type SpotMove } from './geometry';
import { DOOR, HANOI_MAX, hanoiMoves, LOAD, MOVE_BOAT, PEG_PICKER, riverCrossings, riverRules, UNLOAD, type Crossing } from './puzzles';
import { ADD_ONE, FORM_SENT_SAID, ORDER_SENDERS } from './words/controls';
import { answerTo, type Guess } from './guessing';
import { describeFile, failure, filesIn, fits, printed } from './shell';
import { SHELL_COMMANDS } from './words/shell';
import { GUESS_BUTTONS } from './words/guesses';
import { HANDED_OVER } from './words/answers';
import { COLOUR_WORDS, NEUTRAL_SHADES, ONE_DRAGGABLE, PIECE_NOUNS, SAME_COLOUR, SHADES, SHAPE_WORDS, SIDE_BOX_NOUNS } from './words/references';
import { RESIZED_BOXES } from './words/places';
import { compares, coverage, exactMatch, glyphWords, normalize, words } from './text';
import type { Point, Size, StepRunner } from './step-runner';
import type { DrawnShape } from '../../protocol/content-messages';
import cssColours from 'color-name';
import { shownResults, tripFields, tripResult, type FieldValue } from './trips';
import {
  MOVE_DOWN,
  MOVE_UP,
  PICKER_ARROWS,
  PICKER_NOUNS,
  DROPDOWN_KINDS,
  PICKER_PROMPTS,
  PROMPTED_ACTIONS,
  SELECTED_ITEM,
  STAR_NAMES,
  STEP_DOWN,
  STEP_UP,
} from './words/controls';
import { PERSON_FIELD_NAMES, PERSON_FIELDS, PERSON_NAME, PERSON_ROLES, SEARCH_BUTTONS, SEARCH_FILLER, SEARCHED_THINGS } from './words/search';
import { anyOf, either, oneOf } from './words/grammar';
import { ordinalOf, ordinalWord } from './words/numbers';
import { fieldControl, findRecord } from './records';
import {
  APP_MENU_NAMES,
  CLOSE_NAMES,
  DECLINE_NAMES,
  MENU_OPENER_NAMES,
  MORE_NAMES,
  NEXT_MONTH,
  NEXT_SLIDE_NAMES,
  NEXT_PAGE,
  ONWARD_WORDS,
  PAGER,
  PREVIOUS_MONTH,
  RIGHT_CLICK_NAMES,
  SECRET_ITEM_WORDS,
  SECTION_WORDS,
} from './words/menus';
import { PURPOSE_SYNONYMS } from './words/purposes';

export interface PlannedOutcome {
  success: boolean;
  message: string;
  /** Compute spent planning and grounding steps (the act steps report their own). */
  planningMs: number;
}

/** Controls a text step may change the page through (a suggestion list, a section opening). */
const CHANGES_PAGE = new Set(['click', 'check', 'uncheck', 'selectOption', 'press', 'doubleClick', 'rightClick', 'dragAndDrop', 'hover']);
const TEXT_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);
const CHECKABLE = new Set(['checkbox', 'switch', 'menuitemcheckbox', 'radio']);

/** The page as the model reads it: its outline, text and address. */
interface View {
  nodes: OutlineNode[];
  text: string;
  url: string;
  lines: OutlineLine[];
}

/** The page as the model reads it; folded lists keep the items the instruction names. The page's own tools go to the run's clock. */
async function look(r: StepRunner & { clock?: Clock }, focus?: string): Promise<View> {
  const { lines, text, url, tools } = await r.look(focus);
  if (r.clock) r.clock.tools = tools ?? [];
  return { nodes: buildOutline(lines), text, url, lines };
}

/** The model's compute in one run: planning and grounding, timed. */
interface Clock {
  ms: number;
  /** What grounding needs besides the page: its date, when the instruction names one by description. */
  facts: Facts;
  /** The page's own tools (WebMCP) as last read: a step one of them does is done through it (tools.ts). */
  tools?: PageTool[];
}

/** The first phrasing of `step` the single-step reading grounds on `nodes` (timed as the model's compute). */
function ground(step: PlanStep, nodes: OutlineNode[], clock: Clock): { say: string; pick: Pick } | { why: string } {
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

function groundNow(step: PlanStep, nodes: OutlineNode[], facts: Facts): { say: string; pick: Pick } | { why: string } {
  let why = '';
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
      why ||= set ? `it asks for ${quote(set[0])}, and a step acts on one element` : e.message;
    }
  }
  return { why };
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
function withValue(step: PlanStep, nodes: OutlineNode[], instruction: string, clock: Clock): { step: PlanStep; read?: string } | { why: string } {
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
const namesOf = (nodes: OutlineNode[]): Set<string> => new Set(nodes.filter((n) => n.id).map((n) => `${n.role}|${n.name}`));
/** Whether the page shows a target it did not show before. */
const shows = (nodes: OutlineNode[], before: Set<string>): boolean => nodes.some((n) => n.id && !before.has(`${n.role}|${n.name}`));

/** Only the step's own words, no other phrasings: a control named but hidden is looked for before a synonym stands in. */
const primary = (s: PlanStep): PlanStep => ({ ...s, or: undefined });

/** One field of a form set as `x` says (typed, chosen, or picked in its calendar); why not, when it could not be. */
async function setField(r: Run, x: FieldValue, reasoning: string, view: View): Promise<string | null> {
  if (x.method === 'calendar') return (await pickDate(r, x.node, parseDate(x.value)!, view, reasoning)).why ?? null;
  const label = fieldLabel(x.node);
  const say = x.method === 'fill' ? `enter ${quote(x.value)} into ${quote(label)}` : `select ${quote(x.value)} in ${quote(label)}`;
  if (!(await actOnNode(r, x.node, x.method, [x.value], say, reasoning, view.url))) return `the ${quote(label)} field went away`;
  // A field that suggests takes the suggestion naming the value ("Boston (BOS)" for "Boston"): what the page checks.
  if (x.names) await pickSuggestion(r, x.names, true, !!x.alike, new Set(view.nodes.flatMap((n) => (n.id ? [n.id] : []))));
  return null;
}

/** A field's label: its name, else the short text right before it when it has no label of its own ("Director:", then the box). */
function fieldLabel(n: OutlineNode): string {
  if (n.name) return n.name;
  if (typeof n.states.placeholder === 'string') return '';
  const before = labelBefore(n);
  if (before) return before.replace(/[:\s]+$/, '');
  // In a row of a form laid out as a table ("Director | [box]"): the row's one other cell.
  const cells =
    n.parent?.role === 'row'
      ? n.parent.name
          .split('|')
          .map((c) => c.trim())
          .filter(Boolean)
      : [];
  return cells.length === 1 && cells[0]!.length <= 40 ? cells[0]!.replace(/[:\s]+$/, '') : '';
}

function pageFacts(nodes: OutlineNode[]): Required<PlanPage> {
  const fields: string[] = [];
  const names: string[] = [];
  const roles: Record<string, number> = {};
  for (const n of nodes) {
    if (!n.id) continue;
    roles[n.role] = (roles[n.role] ?? 0) + 1;
    if (TEXT_ROLES.has(n.role)) {
      const label = fieldLabel(n);
      if (label) fields.push(label);
      if (typeof n.states.placeholder === 'string') fields.push(n.states.placeholder);
    } else if (n.name) names.push(n.name);
  }
  return { fields, names, roles };
}

/**
 * Controls that reveal hidden content: tabs not selected and collapsed disclosures first, in
 * page order, then headings that take clicks (accordions built without ARIA).
 */
function revealers(nodes: OutlineNode[], tried: Set<string>, looseToo = true): OutlineNode[] {
  const fresh = (n: OutlineNode) => !!n.id && n.states.disabled !== true && !tried.has(`${n.role}|${n.name}`);
  const folded = (n: OutlineNode) => n.states.collapsed === true && !TEXT_ROLES.has(n.role) && n.role !== 'listbox';
  const marked = nodes.filter((n) => fresh(n) && ((n.role === 'tab' && n.states.selected !== true) || folded(n)));
  if (!looseToo) return marked;
  // Accordions built without ARIA: headings that take clicks, and controls named like a section or "more".
  const sectionLike = (n: OutlineNode) =>
    (n.role === 'heading' && n.states.clickable === true) || (LOOSE_ROLES.has(n.role) && SECTION_NAME.test(n.name) && !menuLike(n));
  const loose = nodes.filter((n) => fresh(n) && !marked.includes(n) && sectionLike(n));
  return [...marked, ...loose];
}

const LOOSE_ROLES = new Set(['clickable', 'button', 'heading']);
/** Names a section's own control may have alone ("More", "Show more"). */
/** A control named like a section: "Section 2", "Panel #3", "More options", "+ Details". */
const SECTION_NAME = new RegExp(`^(?:section|panel|part|chapter)\\b|\\b(?:section|panel)\\s*#?\\d+$|^(?:${either(SECTION_WORDS)})$|^[+▸▶►]\\s*\\w`, 'i');

const describeStep = (i: number, n: number, s: string) => `step ${i + 1} of ${n}: ${s}`;

/** What a step carried out whole did, or why it stopped. */
type Outcome = { did: string } | { why: string };
/** A step the agent carries out whole: its own looks and moves, the page as it is now (`current`), each new look kept (`set`). */
type WholeStep = (r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void) => Promise<Outcome>;

/**
 * Act on a node of the outline itself (a tab to open, a suggestion, a result), with no words to
 * read, and record it as a step of the run. The element acted on; null when the node went away.
 */
async function actOnNode(
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

const MENUS = new Set(['menubar', 'menu', 'navigation']);

/** A menu's item: a menuitem, or a target inside a menu bar, menu or navigation. */
function menuLike(n: OutlineNode): boolean {
  if (n.role === 'menuitem') return true;
  for (let p = n.parent; p; p = p.parent) if (MENUS.has(p.role)) return true;
  return false;
}

/** The index of a menu path's last step: the steps after `i` that a hover opens, and the one after the last hover. */
function pathEnd(plan: PlanStep[], i: number): number {
  let j = i;
  while (j + 1 < plan.length && (j === i || plan[j].opens)) j++;
  return j;
}

/**
 * Why a menu path cannot be followed from `item`, or null: the words of the menu it opens,
 * when that menu is in the page already (shown or hidden), lack a later item of the path
 * ("File > Print" where File's menu holds Export and Save). A menu a script builds on opening
 * is not in the page yet, and is not judged.
 */
async function notInMenu(r: Run, item: OutlineNode, rest: PlanStep[]): Promise<string | null> {
  const [sel] = await r.selectors([item.id!]).catch(() => [null]);
  if (!sel || !rest.length) return null;
  const texts = await r.menuTexts(sel);
  if (!texts.length) return null;
  for (const step of rest) {
    const intent = (() => {
      try {
        return parseIntent(step.say);
      } catch {
        return null;
      }
    })();
    const want = intent?.quoted ?? intent?.target ?? '';
    if (!want || texts.some((t) => coverage(want, t) >= 0.99)) continue;
    const holds = clip(texts.map((t) => quote(t)).join(', '), 200);
    return `the menu ${quote(clip(item.name, 40))} opens holds no ${quote(clip(want, 40))} (it holds ${holds}), so the path was not followed`;
  }
  return null;
}

/** Names of controls that lead to more of a form or a page: what follows them may not show yet. */
const ONWARD = new RegExp(`\\b(${either(ONWARD_WORDS)})\\b|[▸▾›»>+]`, 'i');

/** Roles whose control brings up more: a list's choices, a tab's panel, another page, a submenu. */
const OPENERS = new Set(['combobox', 'tab', 'link', 'menuitem']);

/**
 * Whether a grounded step may bring up what a later step needs: a tab, a link, a disclosure, a
 * control named like "Next" or "Show more", a key press, typing into a field with suggestions.
 * Pressing "Play" or ticking a box does not, so a later step that grounds nowhere is refused
 * before either runs.
 */
function reveals(pick: Pick, step: PlanStep): boolean {
  const n = pick.node;
  // A page's tool may change anything the page shows.
  if (step.search || step.pick || step.opens || pick.method === 'callTool') return true;
  // A key, a hover, a right-click (a context menu), a double-click (an editor, a file opened).
  if (pick.method === 'press' || pick.method === 'hover' || pick.method === 'rightClick' || pick.method === 'doubleClick') return true;
  if (!n) return false;
  // "Open Section 2", "show the details": what the verb says it does; a menu's items open submenus.
  if (/^(?:open|expand|show|unfold|reveal)\b/i.test(step.say) || menuLike(n)) return true;
  if (OPENERS.has(n.role) || n.states.collapsed === true || n.states.expanded === true) return true;
  if (!CHANGES_PAGE.has(pick.method)) return false;
  return ONWARD.test(n.name);
}

/** Methods that set a value a form may hand in. */
const SETS_VALUE = new Set(['fill', 'type', 'selectOption', 'check', 'uncheck', 'dragAndDrop']);
/** Words that say how a form goes in (or that it must not). */
const SENDING_WORDS = anyOf(FORM_SENT_SAID);

/** The steps carried out whole, by the field of the plan step that asks for each. */
const WHOLE_STEPS: readonly [keyof PlanStep, WholeStep][] = [
  ['dragEach', dragEachStep],
  ['resize', resizeStep],
  ['hold', holdStep],
  ['moving', movingStep],
  ['rightClickHere', rightClickStep],
  ['menuFind', menuFindStep],
  ['guess', guessNumber],
  ['draw', drawStep],
  ['openMenu', openMenuStep],
  ['game', playGame],
  ['sort', sortStep],
  ['removeFile', removeFileStep],
  ['dismiss', dismissStep],
  ['dismissAll', dismissAllStep],
  ['consent', consentStep],
  ['spot', spotStep],
  ['rate', rateStep],
  ['scrollFind', scrollFindStep],
  ['slideFind', slideFindStep],
  ['reveal', revealStep],
  ['order', orderStep],
  ['maze', mazeStep],
  ['river', riverStep],
  ['hanoi', hanoiStep],
  ['coord', coordStep],
  ['secret', secretStep],
];

/** The reason a check gives, or null when the step can start. */
const whyNot = (found: unknown): string | null =>
  typeof found === 'string' ? found : found && typeof found === 'object' && 'why' in found ? String(found.why) : null;

/**
 * What a step carried out whole needs on the page before anything runs, and what it leaves for
 * the steps after it: 'changes' (it may change what the page shows: later steps are grounded
 * when they run) or 'runs on' (the run's last step: nothing after it is checked).
 */
const READY_CHECKS: readonly [keyof PlanStep, (s: PlanStep, nodes: OutlineNode[], clock: Clock) => string | null, 'changes' | 'runs on'][] = [
  ['searchForm', (s, nodes) => whyNot(searchFields(s.searchForm!, nodes)), 'changes'],
  ['trip', (s, nodes) => whyNot(tripFields(s.trip!, nodes)), 'changes'],
  ['drag', (s, nodes, clock) => whyNot(dragTarget(s.drag!, nodes, clock)), 'changes'],
  ['dragEach', (s, nodes, clock) => whyNot(dragSet(s.dragEach!, nodes, clock)), 'changes'],
  ['resize', (s, nodes, clock) => whyNot(namedTarget(s.resize!.target, nodes, clock)), 'changes'],
  ['hold', (s, nodes, clock) => whyNot(namedTarget(s.hold!.target, nodes, clock)), 'changes'],
  ['rightClickHere', (s, nodes, clock) => whyNot(rightClickPlace(s.rightClickHere!.said, nodes, clock)), 'changes'],
  ['moving', (_s, nodes) => (movingCandidates(nodes).length ? null : 'the page shows nothing to click that could move'), 'changes'],
  ['menuFind', (_s, nodes) => (menuOpeners(nodes).length || looseBar(nodes).length ? null : 'the page shows no menu that opens'), 'changes'],
  ['sort', (s, nodes) => whyNot(sortTarget(s.sort!, nodes)), 'changes'],
  // A rating may bring up what comes next (a box for the review).
  ['rate', (s, nodes) => whyNot(starFor(s.rate!, nodes)), 'changes'],
  ['guess', (s, nodes) => whyNot(guessControls(s.guess!, nodes)), 'runs on'],
  ['draw', (s, nodes) => whyNot(drawButton(s.draw!, nodes)), 'changes'],
  ['openMenu', (s, nodes) => whyNot(menuOpener(s.openMenu!.kind, nodes)), 'changes'],
  ['scrollFind', (s, nodes) => whyNot(scrollerOf(s.scrollFind!.within, nodes)), 'runs on'],
  ['slideFind', (_s, nodes) => whyNot(nextSlideOf(nodes)), 'runs on'],
  // The page they name is checked before the run starts (otherPage).
  ['reveal', () => null, 'runs on'],
  ['secret', () => null, 'runs on'],
  ['dismiss', (s, nodes) => whyNot(dialogOf(s.dismiss!.words, nodes)), 'runs on'],
  ['dismissAll', (_s, nodes) => (popupClosers(nodes).length ? null : 'the page shows no pop-up with a close control'), 'runs on'],
  ['consent', (s, nodes) => (consentBoxes(nodes).length ? null : whyNot(goOnControl(nodes, consentGiven(s, nodes)))), 'changes'],
  ['spot', (_s, nodes) => (drawingsOf(nodes).length ? null : 'the page shows no drawing that takes clicks'), 'changes'],
  ['removeFile', (_s, nodes) => whyNot(terminalField(nodes)), 'runs on'],
  ['game', (s, nodes) => gameNotReady(s.game!.mark, nodes), 'runs on'],
  ['maze', (_s, nodes) => (doorsOf(nodes).length ? null : 'the page shows no door to go through'), 'changes'],
  ['river', (s, nodes) => whyNot(riverPlan(s.river!, nodes)), 'changes'],
  ['order', (s, nodes) => whyNot(orderLines(s.order!, nodes)), 'changes'],
  ['hanoi', (s, nodes) => hanoiNotReady(s.hanoi!, nodes), 'changes'],
  // The step reads the grid itself (the points' places), when it runs.
  ['coord', () => null, 'changes'],
];

/**
 * Why the page's board cannot be played: none, a game already over, marks no game could leave, or a game the other
 * player opened (it has one mark more), which is taken on only when our mark wins at once: against a player who opened,
 * playing on may end in a draw or a loss, and the page's game with it.
 */
function gameNotReady(mark: Mark | 'either', nodes: OutlineNode[]): string | null {
  const b = boardOf(nodes);
  if (typeof b === 'string') return b;
  const over = winnerOf(b);
  if (over) return over === 'draw' ? 'the game is already over: a draw' : `the game is already over: ${over} has won`;
  if (turnOf(b, 'X')) return null;
  if (!turnOf(b, 'O')) return 'the marks on the board cannot come from one game (one player, then the other, in turn)';
  return mark !== 'either' && turnOf(b, 'O') === mark && completing(b, mark).length
    ? null
    : 'the other player opened the game: a win cannot be counted on, and a game played to a draw or a loss cannot be taken back';
}

export async function runPlanned(run: StepRunner): Promise<PlannedOutcome> {
  const clock: Clock = { ms: 0, facts: mentionsNamedDate(run.instruction) ? { today: await run.today() } : {} };
  const out = await runPlan({ ...run, clock });
  return { ...out, planningMs: Math.round(clock.ms * 1000) / 1000 };
}

/** A run: the runner, the model's clock, and the page as the run first read it. */
type Run = StepRunner & { clock: Clock; first?: View };
/** How long a page that refuses a step at first is given to finish drawing itself before one more look. */
const LATE_PAGE_MS = 600;
/** How many more looks (400 ms apart) a hover gets to bring up its submenu before its item is clicked instead. */
const HOVER_LATE_LOOKS = 3;
/** Keys that select everything in a field or editor, and how long the page is given to take the selection in. */
const SELECT_ALL_KEYS = /^(?:Control|Meta)\+a$/i;
const SELECTION_SETTLE_MS = 300;

async function runPlan(r: Run): Promise<Omit<PlannedOutcome, 'planningMs'>> {
  let view = await look(r, r.instruction);
  // A task that names its page ("You must go to <address> and obtain the password") goes there first when another is open.
  const site = secretSought(r.instruction)?.url;
  let went: string | null = null;
  if (site && otherPage(site, view.url)) {
    const opened = await openSite(r, site, view.url);
    if (typeof opened === 'string') return { success: false, message: `${opened}; nothing was done` };
    view = opened;
    went = `opened ${view.url}`;
  }
  const nothing = went ? `nothing was done but ${went}` : 'nothing was done';
  let first = view;
  r.first = first;
  const effects = r.effects;
  let plan: PlanStep[];
  const t0 = performance.now();
  try {
    plan = planInstruction(r.instruction, pageFacts(view.nodes));
    r.clock.ms += performance.now() - t0;
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    const message = `the built-in model could not plan ${quote(r.instruction)}: ${e.message}; ${nothing} (configure a model for tasks like this)`;
    return { success: false, message };
  }
  if (plan.length > r.maxSteps) {
    return { success: false, message: `the plan has ${plan.length} steps, more than maxSteps (${r.maxSteps}); ${nothing}` };
  }
  // Step texts come from the caller's instruction: bounded, as every echo of caller input is.
  const listing = clip(plan.map((s, i) => `${i + 1}. ${clip(s.say, 160)}`).join('; '), 1200);
  /** A step refused before anything was done. */
  const beyond = (i: number, say: string, why: string) => ({
    success: false,
    message: `${describeStep(i, plan.length, quote(say))} is beyond the built-in model on this page (${why}); ${nothing}. Plan: ${listing}`,
  });
  // A task that names its page ("You must go to <address> and obtain the password") runs only there.
  const sited = plan.findIndex((p) => p.secret?.url ?? p.reveal?.url);
  const away = sited >= 0 ? otherPage((plan[sited]!.secret?.url ?? plan[sited]!.reveal?.url)!, view.url) : null;
  if (away) return beyond(sited, plan[sited]!.say, away);
  // Every step grounded on the page as it is now. A step that does not ground, with only steps
  // before it that cannot change what the page shows (text typed into plain fields), will not
  // ground later either: refuse before anything is done.
  const precheck = (view: View): Omit<PlannedOutcome, 'planningMs'> | null => {
    let mayChange = false;
    for (const [i, planned] of plan.entries()) {
      if (planned.wait !== undefined) continue;
      const check = READY_CHECKS.find(([kind]) => planned[kind] !== undefined);
      if (check) {
        const [, why, after] = check;
        if (after === 'changes' && mayChange) break;
        const t0 = performance.now();
        const problem = why(planned, view.nodes, r.clock);
        r.clock.ms += performance.now() - t0;
        if (problem) return beyond(i, planned.say, problem);
        if (after === 'runs on') break;
        mayChange = true;
        continue;
      }
      if (planned.tripResult) break;
      if (planned.each || planned.openItem !== undefined) {
        if (mayChange) break;
        const t0 = performance.now();
        const set = planned.each ? eachTargets(planned.each, view.nodes) : itemToOpen(planned.openItem!, view.nodes);
        r.clock.ms += performance.now() - t0;
        // One item whose control shows only once it is open: opening it is the way there.
        const opens =
          planned.each?.one &&
          typeof set === 'string' &&
          (typeof itemToOpen(planned.each.by!, view.nodes) !== 'string' || moreOf(planned.each, view.nodes) !== null);
        const leaves = Array.isArray(set) ? leavingLinks(set, view.url) : null;
        if ((typeof set === 'string' && !opens) || leaves) return beyond(i, planned.say, String(leaves ?? set));
        mayChange = true;
        continue;
      }
      if (planned.when && !mayChange) {
        const unread = conditionUnread(planned.when, view.nodes);
        if (unread) {
          const depends = `${describeStep(i, plan.length, quote(planned.say))} depends on ${quote(planned.when.text)}, and ${unread}`;
          return { success: false, message: `${depends}; nothing was done. Plan: ${listing}` };
        }
      }
      if (planned.otherwise !== undefined && !mayChange) {
        // Either side may be the one taken: both must be there.
        const other = ground({ say: planned.otherwise }, view.nodes, r.clock);
        if ('why' in other) return beyond(i, planned.otherwise, other.why);
      }
      if (planned.expand || planned.opens) {
        // Opening a section or a menu changes what the page shows: the steps after it are grounded when their turn comes.
        mayChange = true;
        if (planned.expand) continue;
      }
      const valued = withValue(planned, view.nodes, r.instruction, r.clock);
      if ('why' in valued) {
        if (!mayChange) return beyond(i, planned.say, valued.why);
        break;
      }
      const s = valued.step;
      if (s.suggestion !== undefined) {
        if (mayChange) break;
        continue;
      }
      if (s.result !== undefined) {
        // The results of a search the plan has not run yet: known only then.
        if (mayChange) break;
        if (!resultsOf(view.nodes).length) return beyond(i, s.say, 'it shows no list of results');
        continue;
      }
      if (s.record) {
        // The person may be on a later page: known only when the pages are turned.
        if (mayChange) break;
        const found = findRecord(view.nodes, s.record.who);
        if (found && 'why' in found) return beyond(i, s.say, found.why);
        if (found) {
          const c = fieldControl(found.lines, s.record.field);
          if ('why' in c) return beyond(i, s.say, c.why);
        } else if (!nextPageOf(view.nodes)) return beyond(i, s.say, `no record on the page is named ${quote(s.record.who)}`);
        break;
      }
      const g = ground(s, view.nodes, r.clock);
      if ('why' in g) {
        // A drop-down of plain elements shows its options once its opener is clicked: known then.
        if (NO_OPTION.test(g.why) && plainPicker(s.say, view.nodes)) break;
        // A slider drawn without ARIA is moved by its keys (slideTo).
        if (plainSlider(s.say, view.nodes)) {
          mayChange = true;
          continue;
        }
        if (!mayChange && !s.search) {
          return beyond(i, s.say, g.why);
        }
        // From here on the page may differ: ground the rest when their turn comes.
        break;
      }
      if (reveals(g.pick, s) || planned.opens) mayChange = true;
    }

    return null;
  };
  let refused = precheck(view);
  // A page still drawing itself (an app that renders after it loads, frames that load inside frames) may show what a
  // step needs a moment later: one more look once it settles, before refusing.
  if (refused) {
    await pause(LATE_PAGE_MS, r.signal);
    await r.settle();
    const again = await look(r, r.instruction);
    if (again.text !== view.text) {
      view = first = r.first = again;
      refused = precheck(view);
    }
  }
  if (refused) return refused;

  const done: string[] = went ? [went] : [];
  let lastFill = false;
  // Whether the run's last steps set values (typed, chose, checked, dragged) with no click after them.
  let setLast = false;
  /** The element the last step acted on, as a quoted name (a hovered menu item that may need a click). */
  let lastTarget: string | null = null;
  /** What the page showed before a menu item was hovered: whether hovering brought up anything. */
  let beforeOpen: Set<string> | null = null;
  /** The last step hovered a menu item to open it. */
  let lastOpened = false;
  /** Options chosen so far in each multiple-choice list, by its name. */
  const chosen = new Map<string, string[]>();
  /** What the page offered to book before the trip's search ran. */
  let offeredBefore: Set<string> | undefined;
  const stop = (i: number, why: string) => {
    const before = done.length ? `did ${done.length} of ${plan.length} steps (${clip(done.join('; '), 1200)}), then ` : '';
    const after = i + 1 < plan.length ? `The steps after it were not run. ` : '';
    const step = describeStep(i, plan.length, quote(plan[i].say));
    return { success: false, message: `${before}${step} was beyond the built-in model: ${why}. ${after}Plan: ${listing}` };
  };
  for (const [i, planned] of plan.entries()) {
    if (r.signal.aborted) return { success: false, message: `cancelled after ${done.length} of ${plan.length} steps` };
    if (i > 0) {
      // What the last step started (an animation, a request) has finished before this one reads the page.
      await r.settle();
      view = await look(r, r.instruction);
    }
    if (planned.expand) {
      const out = await expandSection(r, planned, i, plan.length, () => view);
      if (out.why) return stop(i, out.why);
      done.push(out.did!);
      continue;
    }
    if (planned.wait !== undefined) {
      await pause(Math.min(planned.wait, WAIT_MAX_MS), r.signal);
      done.push(planned.say);
      continue;
    }
    if (planned.searchForm !== undefined) {
      const f = searchFields(planned.searchForm, view.nodes);
      if (typeof f === 'string') return stop(i, f);
      for (const x of f.fill) {
        try {
          const why = await setField(r, x, describeStep(i, plan.length, `${fieldLabel(x.node)}: ${x.value}`), view);
          if (why) return stop(i, why);
        } catch (e) {
          if (r.endsRun(e)) throw e; // stopped or unanswered approval: the run ends refused
          return stop(i, (e as Error).message);
        }
      }
      const submitted = await actOnNode(r, f.submit, 'click', [], `click ${quote(f.submit.name)}`, describeStep(i, plan.length, 'run the search'), view.url);
      if (!submitted) return stop(i, 'the search button went away');
      done.push(`searched with ${f.fill.map((x) => `${fieldLabel(x.node)} ${quote(x.value)}`).join(', ')}`);
      continue;
    }
    if (planned.trip) {
      const f = tripFields(planned.trip, view.nodes);
      if (typeof f === 'string') return stop(i, f);
      offeredBefore = shownResults(view.nodes);
      const step = describeStep(i, plan.length, planned.say);
      try {
        if (f.way && !(await actOnNode(r, f.way, 'click', [], `click ${quote(f.way.name)}`, step, view.url))) return stop(i, 'the trip choice went away');
        for (const x of f.fill) {
          const why = await setField(r, x, step, view);
          if (why) return stop(i, why);
        }
        if (!(await actOnNode(r, f.submit, 'click', [], `click ${quote(f.submit.name)}`, step, view.url))) return stop(i, 'the search button went away');
      } catch (e) {
        if (r.endsRun(e)) throw e;
        return stop(i, (e as Error).message);
      }
      done.push(`searched ${f.fill.map((x) => `${fieldLabel(x.node)} ${quote(x.value)}`).join(', ')}`);
      continue;
    }
    if (planned.tripResult) {
      const res = tripResult(planned.tripResult.order, view.nodes, offeredBefore);
      if (typeof res === 'string') return stop(i, res);
      if (planned.tripResult.look) {
        done.push(`found ${quote(clip(res.text, 160))}`);
        continue;
      }
      try {
        const step = describeStep(i, plan.length, planned.say);
        if ((await actOnNode(r, res.control, 'click', [], `click ${quote(res.control.name)}`, step, view.url)) === null) return stop(i, 'the result went away');
      } catch (e) {
        if (r.endsRun(e)) throw e;
        return stop(i, (e as Error).message);
      }
      done.push(`${quote(res.control.name)} on ${quote(clip(res.text, 160))}`);
      continue;
    }
    if (planned.drag) {
      const out = await dragStep(r, planned, view, describeStep(i, plan.length, planned.say));
      if ('why' in out) return stop(i, out.why);
      done.push(out.did);
      continue;
    }
    // A step carried out whole, with its own looks and moves (a set of drags, a resize, a guess, a game, a sort).
    const whole = WHOLE_STEPS.find(([kind]) => planned[kind] !== undefined);
    if (whole) {
      const out = await whole[1](
        r,
        planned,
        describeStep(i, plan.length, planned.say),
        () => view,
        (v) => (view = v),
      );
      if ('why' in out) return stop(i, out.why);
      done.push(out.did);
      setLast = planned.sort !== undefined;
      continue;
    }
    if (planned.openItem !== undefined) {
      const item = itemToOpen(planned.openItem, view.nodes);
      if (typeof item === 'string') return stop(i, item);
      const opened = await actOnNode(r, item, 'click', [], planned.say, describeStep(i, plan.length, `open ${quote(clip(item.name, 60))}`), view.url);
      if (!opened) return stop(i, 'the item went away');
      done.push(`opened ${quote(clip(item.name || item.role, 60))}`);
      continue;
    }
    if (planned.each) {
      const t0 = performance.now();
      let set = eachTargets(planned.each, view.nodes);
      r.clock.ms += performance.now() - t0;
      const more = typeof set === 'string' ? moreOf(planned.each, view.nodes) : null;
      if (more) {
        // "Mute" on a post whose row shows only More: its menu, then the one control of that name it shows.
        const why = describeStep(i, plan.length, `open the item's menu to find its ${quote(planned.each.verb!)} control`);
        if (!(await actOnNode(r, more, 'click', [], `click ${quote(more.name)}`, why, view.url))) return stop(i, 'the menu went away');
        await r.settle();
        view = await look(r, r.instruction);
        const each = planned.each;
        const controls = view.nodes.filter((n) => n.id && (ITEM_CONTROL_ROLES.has(n.role) || n.states.clickable === true) && named(n, each.verb!, each.by));
        set = controls.length === 1 ? controls : `the item's menu shows ${controls.length || 'no'} ${quote(planned.each.verb!)} controls`;
      } else if (typeof set === 'string' && planned.each.one) {
        // "Delete the email from Carol" where the list shows no Delete: open it, then its own control.
        const item = itemToOpen(planned.each.by!, view.nodes);
        if (typeof item === 'string') return stop(i, set);
        const why = describeStep(i, plan.length, `open the item to find its ${quote(planned.each.verb!)} control`);
        if (!(await actOnNode(r, item, 'click', [], `open ${quote(clip(item.name, 60))}`, why, view.url))) return stop(i, 'the item went away');
        await r.settle();
        view = await look(r, r.instruction);
        const controlsNamed = (verb: string) => view.nodes.filter((n) => n.id && ITEM_CONTROL_ROLES.has(n.role) && named(n, verb));
        let controls = controlsNamed(planned.each.verb!);
        // "Mark as important" where the message has no such control: its star, when it has one.
        if (!controls.length && planned.each.standIn) controls = controlsNamed(planned.each.standIn);
        set = controls.length === 1 ? controls : `the open item shows ${controls.length || 'no'} ${quote(planned.each.verb!)} controls`;
      }
      if (typeof set === 'string') return stop(i, set);
      const leaves = leavingLinks(set, view.url);
      if (leaves) return stop(i, leaves);
      const names: string[] = [];
      for (const [k, n] of set.entries()) {
        if (r.signal.aborted) return { success: false, message: `cancelled after ${done.length} of ${plan.length} steps` };
        const reasoning = `${describeStep(i, plan.length, planned.say)}: ${k + 1} of ${set.length}`;
        try {
          if (!(await actOnNode(r, n, 'click', [], `click ${quote(n.name || n.role)}`, reasoning, view.url))) {
            return stop(i, `${quote(n.name || n.role)} went away after ${names.length} of ${set.length}`);
          }
        } catch (e) {
          if (r.endsRun(e)) throw e; // stopped or unanswered approval: the run ends refused
          return stop(i, `${names.length} of ${set.length} done, then ${(e as Error).message}`);
        }
        names.push(quote(n.name || n.role));
        if (k + 1 < set.length) await r.settle();
      }
      done.push(`${planned.say} (${clip(names.join(', '), 300)})`);
      continue;
    }
    let chosenStep = planned;
    if (planned.when?.now) {
      // Read once: this step when it holds, the other one (or nothing) when it does not.
      const t0 = performance.now();
      const seen = numberOf(planned.when.subject, view.nodes, planned.when.currency);
      r.clock.ms += performance.now() - t0;
      if (!seen) return stop(i, `the page shows no single number for ${quote(planned.when.subject)}`);
      const yes = holds(planned.when, seen.value);
      done.push(`read ${quote(seen.shown)}: ${quote(planned.when.text)} is ${yes ? 'true' : 'false'}`);
      if (!yes) {
        if (planned.otherwise === undefined) continue;
        chosenStep = { say: planned.otherwise };
      }
    } else if (planned.when) {
      const waited = await watch(r, planned.when, (v) => (view = v));
      if ('why' in waited) return stop(i, waited.why);
      done.push(waited.did);
    }
    const valued = withValue(chosenStep, view.nodes, r.instruction, r.clock);
    if ('why' in valued) return stop(i, valued.why);
    const s = valued.step;
    if (valued.read) done.push(`read ${valued.read}`);
    if (s.suggestion !== undefined) {
      const picked = await pickSuggestion(r, suggestionFor(s.suggestion, true), true);
      if (!picked) return stop(i, `no suggestion matching ${quote(s.suggestion)} shows`);
      done.push(picked);
      continue;
    }
    if (s.record) {
      const out = await clickRecordField(
        r,
        s,
        (v) => (view = v),
        () => view,
      );
      if (typeof out !== 'string') return stop(i, out.why);
      done.push(out);
      continue;
    }
    if (s.result !== undefined) {
      const out = await clickResult(
        r,
        s,
        (v) => (view = v),
        () => view,
      );
      if (typeof out !== 'string' || out.startsWith('error:')) return stop(i, typeof out === 'string' ? out.slice(6).trim() : out.why);
      done.push(out);
      continue;
    }
    // The step's own words first; a control it names that is hidden (a collapsed section, another
    // tab, a submenu) is revealed before another phrasing ("OK" for "Submit") may stand in.
    let g = ground(primary(s), view.nodes, r.clock);
    // A submenu may open a moment after the hover (jQuery UI waits 300 ms): look again before taking a
    // click on the item as the way in, since a click on a menu item may choose it.
    for (let k = 0; k < HOVER_LATE_LOOKS && 'why' in g && lastOpened && beforeOpen && !shows(view.nodes, beforeOpen); k++) {
      await pause(WATCH_EVERY_MS * 2, r.signal);
      view = await look(r, r.instruction);
      g = ground(primary(s), view.nodes, r.clock);
    }
    if ('why' in g && lastOpened && lastTarget && beforeOpen && !shows(view.nodes, beforeOpen)) {
      // Hovering the menu item before brought up nothing new: it opens on a click. (When it did
      // bring up a menu, the item asked for is not in it: clicking the parent would be a guess.)
      if (!(await r.act(`click ${lastTarget}`, `${quote(lastTarget)} did not open on hover: click it`, view.text, view.url)).startsWith('error:')) {
        await r.settle();
        view = await look(r, r.instruction);
        g = ground(primary(s), view.nodes, r.clock);
      }
    }
    // Only sections and tabs that say they are folded are opened unasked; guessing at "More" or a
    // header that takes clicks is for a step the instruction said to look for.
    if ('why' in g && (s.search || revealers(view.nodes, new Set(), false).length))
      g = await reveal(
        r,
        primary(s),
        () => view,
        (v) => (view = v),
        !!s.search,
      );
    if ('why' in g && s.or?.length) {
      const alt = ground(s, view.nodes, r.clock);
      if (!('why' in alt)) g = alt;
    }
    // "Choose Green from the colour drop-down" where the drop-down is plain elements: its opener ("Choose a colour",
    // "Size ▾") clicked, then the one item it shows that the words name. A click the words ground on the opener itself
    // ("choose the size Large" on "Size ▾") is the same choice.
    const opener =
      'why' in g
        ? NO_OPTION.test(g.why)
          ? plainPicker(s.say, view.nodes)
          : null
        : g.pick.method === 'click' && g.pick.node && isPlainOpener(s.say, g.pick.node)
          ? g.pick.node
          : null;
    if (opener) {
      try {
        const out = await chooseFromPlainList(
          r,
          opener,
          s.say,
          `${describeStep(i, plan.length, s.say)}`,
          () => view,
          (v) => (view = v),
        );
        if ('why' in out) return stop(i, out.why);
        done.push(out.did);
        lastFill = false;
        continue;
      } catch (e) {
        if (r.endsRun(e)) throw e;
        return stop(i, (e as Error).message);
      }
    }
    // A slider drawn without ARIA (jQuery UI's handle): moved by its keys until the value it shows is the one said.
    const plain = 'why' in g ? plainSlider(s.say, view.nodes) : null;
    if (plain) {
      const out = await slideTo(r, plain.handle, plain.index, plain.want, describeStep(i, plan.length, s.say));
      if ('why' in out) return stop(i, out.why);
      done.push(out.did);
      lastFill = false;
      continue;
    }
    if ('why' in g) return stop(i, g.why);
    lastTarget = g.pick.node ? quoteValue(g.pick.node.name || g.pick.node.role) : null;
    // "Select 1, 5 and 9" on checkboxes: one already ticked stays ticked (a click would clear it).
    const n = g.pick.node;
    if (n && g.pick.method === 'click' && CHECKABLE.has(n.role) && n.states.checked === true && /^(?:select|choose|pick|check|tick|mark)\b/i.test(g.say)) {
      r.note(g.say, describeStep(i, plan.length, g.say), `${n.role} ${quote(n.name)} is already checked; left as it is`, view.url, null);
      done.push(`${g.say} (already checked)`);
      continue;
    }
    // "Select A and B from the list" on a list that takes several: each choice keeps the ones before it.
    if (n && g.pick.method === 'selectOption' && typeof n.states.value === 'string' && n.states.value.startsWith('[')) {
      const before = chosen.get(n.name) ?? [];
      const want = [...new Set([...before, ...g.pick.args])];
      try {
        if (!(await actOnNode(r, n, 'selectOption', want, g.say, describeStep(i, plan.length, g.say), view.url))) return stop(i, 'the list went away');
      } catch (e) {
        if (r.endsRun(e)) throw e; // stopped or unanswered approval: the run ends refused
        return stop(i, (e as Error).message);
      }
      chosen.set(n.name, want);
      done.push(g.say);
      lastFill = false;
      continue;
    }
    // "Choose File, then Export": a menu item whose next step is not on the page yet opens a
    // submenu: hovered (as menus that open on hover need), clicked only if that shows nothing.
    let opensNow = !!planned.opens;
    const next = plan[i + 1];
    const plainNext =
      !!next &&
      !next.wait &&
      !next.each &&
      !next.drag &&
      !WHOLE_STEPS.some(([kind]) => next[kind] !== undefined) &&
      next.openItem === undefined &&
      next.searchForm === undefined &&
      !next.when &&
      !next.ref &&
      !next.expand;
    if (!opensNow && plainNext && g.pick.method === 'click' && g.pick.node && menuLike(g.pick.node) && 'why' in ground(primary(next!), view.nodes, r.clock)) {
      opensNow = true;
      g = { say: `hover over ${quoteValue(g.pick.node.name || g.pick.node.role)}`, pick: { ...g.pick, method: 'hover' } };
    }
    if (opensNow && g.pick.node && !lastOpened) {
      // Before the first hover of a path: a menu that is already in the page, hidden, must hold
      // the path's next items, or the path is given up before anything is hovered.
      const missing = await notInMenu(r, g.pick.node, plan.slice(i + 1, pathEnd(plan, i) + 1));
      if (missing) return stop(i, missing);
    }
    beforeOpen = opensNow ? namesOf(view.nodes) : null;
    lastOpened = opensNow;
    // A date field that takes no typing is set through its calendar, as a person would.
    const dateField = g.pick.method === 'fill' && g.pick.node?.states.readonly === true && parseDate(g.pick.args[0] ?? '') ? g.pick.node : null;
    if (dateField) {
      const out = await pickDate(r, dateField, parseDate(g.pick.args[0]!)!, view, describeStep(i, plan.length, g.say));
      if (out.why) return stop(i, out.why);
      done.push(`${g.say} (with its calendar)`);
      lastFill = false;
      continue;
    }
    // An ARIA spinner (no input to type into) is set by its own step buttons, as a person would.
    const spin = g.pick.method === 'fill' && g.pick.node?.role === 'spinbutton' && g.pick.node.states.type !== 'number' ? g.pick.node : null;
    if (spin) {
      const out = await spinTo(r, spin, g.pick.args[0] ?? '', view, describeStep(i, plan.length, g.say));
      if (out.why) return stop(i, out.why);
      done.push(g.say);
      lastFill = false;
      continue;
    }
    // A value typed or an item dragged counts when it shows: the field holds a value it did not
    // (or held this one already), the item moved. A click is its own effect.
    const meant = g.pick.method === 'fill' || g.pick.method === 'type' ? 'fill' : g.pick.method === 'dragAndDrop' ? 'drag' : null;
    if (meant) await effects.begin().catch(() => undefined);
    let result = await r.act(g.say, describeStep(i, plan.length, g.say), view.text, view.url);
    // Something covers the control: a dialog that popped up, closed by its close control (never
    // by one that accepts or confirms); or a field's popup (a date picker, suggestions), left by
    // leaving the field as a person would. After each, the step is tried again.
    const clearings: (() => Promise<boolean>)[] = [
      () => closeDialog(r, view),
      async () => {
        if (!lastFill) return false;
        return !(await r.act('press Tab', 'leave the field just filled: its popup covers the next control', view.text, view.url)).startsWith('error:');
      },
    ];
    for (const clear of clearings) {
      if (!(result.startsWith('error:') && /is covered by/.test(result))) break;
      if (!(await clear())) continue;
      await r.settle();
      view = await look(r, r.instruction);
      const again = ground(s, view.nodes, r.clock);
      if (meant) await effects.begin().catch(() => undefined);
      if (!('why' in again)) result = await r.act(again.say, describeStep(i, plan.length, again.say), view.text, view.url);
    }
    // A pop-up that the field's focus brought up and that disabled the form before the value went in ("Your session is
    // about to expire"): dismissed (never accepted), then the value typed again.
    if (meant === 'fill' && !result.startsWith('error:') && g.pick.node?.id) {
      const field = g.pick.node;
      await r.settle();
      const after = await look(r, r.instruction);
      const now = after.nodes.find((n) => n.id === field.id);
      const lost = now?.states.disabled === true && now.states.value !== (g.pick.args[0] ?? '');
      const closer = lost ? interruption(view.nodes, after.nodes) : null;
      if (lost && !closer) return stop(i, 'the field was disabled before the value went in');
      if (closer) {
        const why = describeStep(i, plan.length, `a pop-up disabled the form before the value went in: dismiss it by ${quote(closer.name)}`);
        if (!(await actOnNode(r, closer, 'click', [], `click ${quote(closer.name)}`, why, after.url))) return stop(i, 'the pop-up went away');
        await r.settle();
        view = await look(r, r.instruction);
        done.push(`dismissed a pop-up by ${quote(closer.name)}`);
        await effects.begin().catch(() => undefined);
        result = await r.act(g.say, describeStep(i, plan.length, g.say), view.text, view.url);
      }
    }
    if (result.startsWith('error:')) return stop(i, result.slice(6).trim());
    if (meant) {
      if (meant === 'drag') await r.settle();
      const effect = await effects.end(meant).catch(() => null);
      const held = meant === 'fill' && g.pick.node?.states.value === (g.pick.args[0] ?? '');
      const missed = meant === 'fill' ? 'the field does not hold it' : 'nothing moved';
      if (effect?.shows === false && !held) return stop(i, `${result}, but ${missed}: ${effect.said}`);
    }
    lastFill = g.pick.method === 'fill' || g.pick.method === 'type';
    setLast = SETS_VALUE.has(g.pick.method);
    // A selection made by keys (Control+A) reaches an editor's own record of it a moment later; a toolbar pressed at
    // once styles where the caret was (Quill).
    if (g.pick.method === 'press' && SELECT_ALL_KEYS.test(g.pick.args[0] ?? '')) await pause(SELECTION_SETTLE_MS, r.signal);
    done.push(g.say);
    // A value typed into a field with suggestions goes in by the suggestion that is exactly it,
    // or the one the step describes ("starts with Ger and ends with ny").
    const typed = g.pick.method === 'fill' || g.pick.method === 'type' ? (g.pick.args[0] ?? '') : '';
    if (s.pick?.startsWith || s.pick?.endsWith) {
      const want = s.pick;
      const fits = (name: string) =>
        (!want.startsWith || name.toLowerCase().startsWith(want.startsWith.toLowerCase())) &&
        (!want.endsWith || name.toLowerCase().endsWith(want.endsWith.toLowerCase()));
      const picked = await pickSuggestion(r, fits, true, want.any);
      if (!picked) {
        const starting = want.startsWith ? ` starting with ${quote(want.startsWith)}` : '';
        return stop(i, `no single suggestion${starting}${want.endsWith ? ` and ending with ${quote(want.endsWith)}` : ''} appeared`);
      }
      done.push(picked);
    } else if (typed && (s.pick?.typed || g.pick.node?.role === 'combobox')) {
      const picked = await pickSuggestion(r, suggestionFor(typed, !!s.pick?.typed), !!s.pick?.typed);
      if (picked) done.push(picked);
      else if (s.pick?.typed) return stop(i, `no suggestion matching ${quote(typed)} appeared after typing it`);
    }
  }
  // A form that checks what it is given takes it by its one button: values set last, on a page whose only control
  // left is Submit, are handed in by it, unless the words say how the form is sent.
  if (setLast && !SENDING_WORDS.test(r.instruction)) {
    await r.settle();
    const v = await look(r, r.instruction).catch(() => null);
    const buttons = v?.nodes.filter((n) => n.id && (n.role === 'button' || n.role === 'link') && n.states.disabled !== true) ?? [];
    if (v && buttons.length === 1 && /^submit$/i.test(buttons[0]!.name.trim())) {
      if (await actOnNode(r, buttons[0]!, 'click', [], 'click "Submit"', "hand in what the steps set: Submit is the page's one control", v.url))
        done.push('clicked "Submit", the page\'s one way to hand it in');
    }
  }
  // What the steps brought up (a confirmation, a code, a result) is part of the answer: the caller asked for the steps to see it.
  await r.settle();
  // A page that cannot be read now (closed, navigating) leaves the answer as it is: the steps were done.
  const last = await look(r, r.instruction).catch(() => null);
  const shown = last ? newLines(first, last) : [];
  const now = shown.length ? `. The page now shows: ${clip(shown.map((t) => quote(t)).join(' '), SHOWN_MAX)}` : '';
  return { success: true, message: `done in ${plan.length} step${plan.length === 1 ? '' : 's'}: ${clip(done.join('; '), 1200)}${now}` };
}

/** A choice the page shows no option for yet ("choose Green ...", "pick the colour Navy"): a plain drop-down may hold it. */
const NO_OPTION = /^(?:no select offers the option|no element matches it well enough)\b/;
const CHOICE_SAID = /^(?:choose|pick|select|set)\b/i;
/** A prompt's words that say an action, not a list to choose from ("Select all", "Choose files"). */
const NOT_PICKED = new RegExp(`^(?:${either(PROMPTED_ACTIONS)})$`, 'i');
/** Words that say what kind of control the opener is, not which item ("the size drop-down", "the colour menu"). */
const PICKER_KIND = new RegExp(`^(?:${either(PICKER_NOUNS)})$`, 'i');
const PICKER_PROMPT = new RegExp(`^\\W*(?:${either(PICKER_PROMPTS)})\\s+(?:(?:a|an|the|your|one)\\s+)?(.+?)\\W*$`, 'i');
const PICKER_ARROW = new RegExp(`\\s*(?:${either(PICKER_ARROWS)})\\s*$`);
/** The words that name a drop-down by its kind alone, as an opener that is only an arrow is named. */
const BARE_OPENER_KINDS = new RegExp(`^(?:${either(DROPDOWN_KINDS)})$`, 'i');

/** The words of an opener's name that say what it chooses ("colour" of "Choose a colour", "Size" of "Size ▾"), or none. */
function openerWords(n: OutlineNode): string[] {
  if (n.role !== 'clickable' && n.role !== 'button') return [];
  const arrow = PICKER_ARROW.test(n.name);
  // A button that says "Select all" or "Choose file" does that; one that opens a list says so (an arrow, a popup).
  if (n.role === 'button' && !arrow && n.states.haspopup === undefined && n.states.expanded === undefined) return [];
  const prompt = PICKER_PROMPT.exec(n.name.replace(PICKER_ARROW, ''));
  const named = prompt ? prompt[1]! : arrow ? n.name.replace(PICKER_ARROW, '') : '';
  const own = words(named.toLowerCase());
  return own.length <= 3 && !own.some((w) => NOT_PICKED.test(w)) ? own : [];
}

/**
 * Whether a choice's words name this opener and something more (the item): "choose the size Large" and "Size ▾". An
 * opener that is an arrow and nothing more (a styled select showing no choice yet) is named by the kind alone: "choose
 * 6 ft from the dropdown".
 */
function isPlainOpener(say: string, n: OutlineNode): boolean {
  if (!CHOICE_SAID.test(say.trim()) || n.states.expanded === true) return false;
  const own = openerWords(n);
  const said = words(say.toLowerCase()).slice(1);
  const item = said.some((w) => !own.includes(w) && !PICKER_KIND.test(w));
  if (!own.length && (n.role === 'clickable' || n.role === 'button') && n.name.trim() && !n.name.replace(PICKER_ARROW, '').trim()) {
    return item && said.some((w) => BARE_OPENER_KINDS.test(w));
  }
  return own.length > 0 && own.every((w) => said.includes(w)) && item;
}

/**
 * A choice from a drop-down made of plain elements: the opener clicked, then, of the items that showed up, the one whose
 * words are all in the instruction's; checked by the page still showing it once chosen. None or several: a refusal, the list
 * closed again.
 */
async function chooseFromPlainList(
  r: Run,
  opener: OutlineNode,
  say: string,
  reasoning: string,
  current: () => View,
  set: (v: View) => void,
): Promise<{ did: string } | { why: string }> {
  const before = namesOf(current().nodes);
  if (!(await actOnNode(r, opener, 'click', [], say, `${reasoning}: open ${quote(opener.name)}`, current().url))) return { why: 'the drop-down went away' };
  await r.settle();
  set(await look(r, r.instruction));
  const said = new Set(words(say.toLowerCase()));
  const own = new Set(openerWords(opener));
  const shown = current().nodes.filter((n) => n.id && !before.has(`${n.role}|${n.name}`) && n.states.disabled !== true && LIST_ITEM_ROLES.has(n.role));
  const named = shown.filter((n) => {
    const w = words(n.name.toLowerCase());
    return w.length > 0 && w.every((x) => said.has(x) && !own.has(x));
  });
  if (named.length !== 1) {
    await r.act('press Escape', `close ${quote(opener.name)} again`, current().text, current().url);
    const why = named.length ? `${named.length} of its items fit the words` : `none of its ${shown.length} items is named by the words`;
    return { why: `${quote(opener.name)} was opened, but ${why}` };
  }
  const item = named[0]!;
  if (!(await actOnNode(r, item, 'click', [], say, `${reasoning}: the item the words name`, current().url))) return { why: 'the item went away' };
  await r.settle();
  set(await look(r, r.instruction));
  // Chosen, the item's name shows on the page (the opener says it); gone from the page, nothing says it was chosen.
  const itemWords = words(item.name.toLowerCase());
  if (!current().nodes.some((n) => exactMatch(n.name, item.name) || itemWords.every((w) => words(n.name.toLowerCase()).includes(w)))) {
    return { why: `${quote(item.name)} was clicked in ${quote(opener.name)}, but the page does not show it chosen` };
  }
  return { did: `${say} (opened ${quote(opener.name)}, chose ${quote(item.name)})` };
}
const LIST_ITEM_ROLES: ReadonlySet<string> = new Set(['clickable', 'button', 'listitem', 'option', 'menuitem', 'link', 'cell', 'gridcell']);

/**
 * The opener of a drop-down made of plain elements: the one element that takes clicks, offers no options and whose name is
 * a prompt for what the words name ("Choose a colour" for "the colour drop-down"), or ends in a drop-down arrow and is named
 * by them. Several, or none, is no opener.
 */
function plainPicker(say: string, nodes: OutlineNode[]): OutlineNode | null {
  const fits = nodes.filter((n) => n.id && n.states.disabled !== true && isPlainOpener(say, n));
  return fits.length === 1 ? fits[0]! : null;
}

/** How much newly shown text a run's message carries, and in how many lines. */
const SHOWN_MAX = 400;
const SHOWN_LINES = 4;

/**
 * Lines of text the page shows now that it did not show when the run began, in page order; when
 * there are more than fit, the ones that hand something over (a password, a code, a success) first.
 */
function newLines(before: View, after: View): string[] {
  const key = (t: string) => t.replace(/\s+/g, ' ').trim().toLowerCase();
  const had = new Set(before.nodes.filter((n) => SAID_ROLES.has(n.role)).map((n) => key(n.name)));
  const fresh: string[] = [];
  for (const n of after.nodes) {
    const t = n.name.replace(/\s+/g, ' ').trim();
    if (SAID_ROLES.has(n.role) && t && !had.has(key(t)) && !fresh.includes(t)) fresh.push(t);
  }
  if (fresh.length <= SHOWN_LINES) return fresh;
  const handed = anyOf(HANDED_OVER);
  const keep = new Set([...fresh.filter((t) => handed.test(t)), ...fresh].slice(0, SHOWN_LINES));
  return fresh.filter((t) => keep.has(t));
}

/**
 * Open tabs and collapsed sections one at a time until `step` grounds; each click is a step of
 * the run. Gives up after 12 reveals.
 */
async function reveal(r: Run, step: PlanStep, current: () => View, set: (v: View) => void, looseToo = true): Promise<ReturnType<typeof ground>> {
  const tried = new Set<string>();
  let last = ground(step, current().nodes, r.clock);
  for (let k = 0; k < 12 && 'why' in last; k++) {
    const next = revealers(current().nodes, tried, looseToo)[0];
    if (!next) break;
    tried.add(`${next.role}|${next.name}`);
    const why = `looking for ${quote(step.say)}: open ${next.role} ${quote(next.name)}`;
    if (!(await actOnNode(r, next, 'click', [], `click ${quote(next.name || next.role)}`, why, current().url))) break;
    await r.settle();
    set(await look(r, r.instruction));
    last = ground(step, current().nodes, r.clock);
  }
  const s = tried.size === 1 ? '' : 's';
  return 'why' in last ? { why: `${last.why} (looked in ${tried.size} hidden section${s} or tab${s})` } : last;
}

/**
 * "Expand the section below": the one collapsed section or disclosure is opened; with several,
 * the steps after it look through them; with none, a section already open is fine and no
 * section at all is a refusal.
 */
async function expandSection(r: Run, step: PlanStep, i: number, n: number, current: () => View): Promise<{ did?: string; why?: string }> {
  const nodes = current().nodes;
  const folded = nodes.filter((x) => x.id && x.states.collapsed === true && !TEXT_ROLES.has(x.role) && x.role !== 'listbox' && x.states.disabled !== true);
  if (folded.length === 1) {
    const target = folded[0];
    const did = await actOnNode(r, target, 'click', [], step.say, describeStep(i, n, `open ${target.role} ${quote(target.name)}`), current().url);
    return did ? { did: `opened ${did}` } : { why: 'the section went away before it could be opened' };
  }
  if (folded.length > 1) return { did: `${folded.length} sections are collapsed: the next steps look through them` };
  if (nodes.some((x) => x.id && x.states.expanded === true)) return { did: 'the section is already open' };
  // Sections that do not say they are collapsed (a clickable header): the one there is, or the next steps look through several.
  const loose = revealers(nodes, new Set());
  if (loose.length === 1) {
    const did = await actOnNode(r, loose[0], 'click', [], step.say, describeStep(i, n, `open ${loose[0].role} ${quote(loose[0].name)}`), current().url);
    return did ? { did: `opened ${did}` } : { why: 'the section went away before it could be opened' };
  }
  if (loose.length > 1) return { did: `${loose.length} sections may be folded: the next steps look through them` };
  return { did: 'nothing on the page shows as collapsed' };
}

/** A word as a list may hold it: "comedies" and "Comedy", "films" and "film" are one. */
const stem = (w: string): string =>
  w
    .toLowerCase()
    .replace(/ies$/, 'y')
    .replace(/(?<=[^s])es$|(?<=[^s])s$/, '');
const stems = (s: string): string => normalize(s).split(' ').filter(Boolean).map(stem).join(' ');

const PERSON = new RegExp(`\\s(${either(PERSON_ROLES)})\\s+(${PERSON_NAME})(?=\\s)`, 'u');
/** The field a person goes into, by how the sentence names them; the first that fits. */
const PERSON_FIELD_RES = PERSON_FIELDS.map(({ said, field }) => [new RegExp(either(said)), anyOf(field)] as const);
const ANY_PERSON_FIELD = anyOf(PERSON_FIELD_NAMES);
/** The names of a search form's button. */
const SEARCH_BUTTON = new RegExp(`^(?:${either(SEARCH_BUTTONS)})\\b`, 'i');

/** Words a search sentence is made of besides its criteria. */
const SEARCH_WORDS = new Set(SEARCH_FILLER);

/**
 * The parts of a search sentence in the fields of the page's form: a year into the year (or
 * published, released) field, the name after "directed by" / "written by" / "by" into the
 * director, author or artist field, a quoted or "titled" title into the title field, and words
 * that are an option of a list into that list. Every word of the sentence must find its field
 * (a part no field takes is a refusal), and the form needs one search button.
 */
function searchFields(phrase: string, nodes: OutlineNode[]): { fill: FieldValue[]; submit: OutlineNode } | string {
  const fields = nodes.filter((n) => n.id && TEXT_ROLES.has(n.role) && fieldLabel(n) && n.states.disabled !== true && n.states.readonly !== true);
  const fill: FieldValue[] = [];
  let rest = ` ${phrase} `;
  const used = new Set<OutlineNode>();
  const field = (re: RegExp) => fields.find((f) => !used.has(f) && !optionsOf(f).length && re.test(fieldLabel(f)));
  const put = (node: OutlineNode, value: string, method: 'fill' | 'selectOption' = 'fill') => {
    used.add(node);
    fill.push({ node, method, value });
  };
  let m: RegExpExecArray | null;
  // A title, quoted or after "titled".
  if ((m = /\s(?:the\s+)?(?:title\s+|titled\s+|called\s+)?["“]([^"”]+)["”]/i.exec(rest))) {
    const f = field(/\btitle|name\b/i);
    if (!f) return `it names a title (${quote(m[1])}) and the form has no title field`;
    put(f, m[1]);
    rest = rest.replace(m[0], ' ');
  }
  // A year.
  if ((m = /\s(?:(?:released|published|made|from|in|of)\s+(?:in\s+)?)?((?:19|20)\d{2})(?=\s)/i.exec(rest))) {
    const f = field(/\b(?:year|published|released|date)\b/i);
    if (!f) return `it names a year (${m[1]}) and the form has no year field`;
    put(f, m[1]);
    rest = rest.replace(m[0], ' ');
  }
  // A person: "directed by Holt", "by Le Guin", "starring Tom Hanks".
  if ((m = PERSON.exec(rest))) {
    const how = m[1].toLowerCase();
    const re = PERSON_FIELD_RES.find(([said]) => said.test(how))?.[1] ?? ANY_PERSON_FIELD;
    const f = field(re);
    if (!f) return `it names ${quote(m[2])} (${how}) and the form has no field for that`;
    put(f, m[2]);
    rest = rest.replace(m[0], ' ');
  }
  // Words that are an option of one of the form's lists ("adventure", "comedies", "science fiction").
  for (const list of fields.filter((f) => optionsOf(f).length && !used.has(f))) {
    const want = ` ${stems(rest)} `;
    const opts = optionsOf(list).filter((o) => !/^(?:any|all\b|none|select|choose|--)/i.test(o.trim()) && stems(o));
    const hit = opts.filter((o) => want.includes(` ${stems(o)} `)).sort((a, b) => b.length - a.length)[0];
    if (!hit) continue;
    put(list, hit, 'selectOption');
    // Take those words out of what is left.
    const ws = stems(hit).split(' ');
    rest = ` ${normalize(rest)
      .split(' ')
      .filter((w) => !ws.includes(stem(w)))
      .join(' ')} `;
  }
  // A kind typed into a field for it ("adventure movies", with a Genre box that takes text).
  if ((m = new RegExp(`\\s(\\w+)\\s+(?:${either(SEARCHED_THINGS)})\\s`, 'i').exec(rest)) && !SEARCH_WORDS.has(m[1]!.toLowerCase())) {
    const f = field(/\b(?:genre|category|kind|type)\b/i);
    if (f) {
      put(f, m[1]!.toLowerCase());
      rest = rest.replace(m[0], ' ');
    }
  }
  const left = normalize(rest)
    .split(' ')
    .filter((w) => w && !SEARCH_WORDS.has(stem(w)) && !SEARCH_WORDS.has(w.replace(/s$/, '')));
  if (left.length) return `the search names ${quote(left.join(' '))}, which no field of the form takes`;
  if (fill.length < 2) return 'it names fewer than two criteria for the form';
  const submits = nodes.filter((n) => n.id && (n.role === 'button' || n.role === 'clickable') && SEARCH_BUTTON.test(n.name.trim()));
  if (submits.length !== 1) return `the form has ${submits.length || 'no'} search buttons`;
  return { fill, submit: submits[0] };
}

/** What a drag moves: the element its words ground to, or for "the item" the list's one selected option. */
function dragTarget(d: NonNullable<PlanStep['drag']>, nodes: OutlineNode[], clock: Clock): { node: OutlineNode } | { why: string } {
  if (d.to && oneOf(SELECTED_ITEM).test(d.target.trim())) {
    const selected = nodes.filter((n) => n.id && n.role === 'option' && n.states.selected === true);
    if (selected.length === 1) return { node: selected[0] };
    return { why: `it names the selected item, and ${selected.length || 'no'} options are selected` };
  }
  // "Drag the item left": the page's one thing that takes the pointer and holds nothing else (a shape in a drawing).
  if (ONE_DRAGGABLE_SAID.test(d.target.trim())) {
    const things = nodes.filter((n) => n.id && DRAGGABLE_ROLES.has(n.role) && !n.children.some((c) => c.id));
    if (things.length === 1) return { node: things[0]! };
  }
  const g = ground({ say: `click ${d.target}` }, nodes, clock);
  if ('why' in g) return g;
  return g.pick.node?.id ? { node: g.pick.node } : { why: 'it names the page, not something to drag' };
}

const ONE_DRAGGABLE_SAID = oneOf(ONE_DRAGGABLE);
/** Roles of a thing to drag that has no name to be called by: a shape, a picture, a box that takes the pointer. */
const DRAGGABLE_ROLES: ReadonlySet<string> = new Set(['clickable', 'img', 'graphics-symbol', 'figure']);

/** The most items of a list read for where they lie, to tell its rows. */
const GRID_ITEMS_MAX = 50;

/**
 * The place (1-based) a shift or a cell names among `items`, laid out in rows (a list is one column, a row of cards one
 * row, floated names a grid): read from where the items are now. Or why there is none.
 */
async function placeInGrid(r: Run, d: NonNullable<PlanStep['drag']>, items: OutlineNode[], at: number): Promise<number | string> {
  if (items.length < 2 || at < 0 || items.length > GRID_ITEMS_MAX) return 'it is not one of a list of places';
  const selectors = await r.selectors(items.map((n) => n.id!));
  if (selectors.some((s) => !s)) return 'the list changed';
  const points = await Promise.all(selectors.map((s) => r.pointOf(s!)));
  // Items on the first one's line make a row: that many columns.
  const cols = points.filter((p) => Math.abs(p.y - points[0]!.y) < 4).length;
  const rows = Math.ceil(items.length / cols);
  const [row, col] = [Math.floor(at / cols), at % cols];
  let to: [number, number];
  if (d.shift) {
    const { way, by } = d.shift;
    to = way === 'up' ? [row - by, col] : way === 'down' ? [row + by, col] : [row, col + (way === 'left' ? -by : by)];
  } else {
    const where = (w: string, n: number) => (w === 'top' || w === 'left' ? 0 : w === 'bottom' || w === 'right' ? n - 1 : (n - 1) / 2);
    to = [where(d.cell!.row, rows), where(d.cell!.col, cols)];
    if (!Number.isInteger(to[0]) || !Number.isInteger(to[1])) return `its ${rows}×${cols} places have no middle one that way`;
  }
  const place = to[0] * cols + to[1];
  if (to[0] < 0 || to[1] < 0 || to[1] >= cols || place >= items.length) return `it has no such place (${rows} rows of ${cols})`;
  return place + 1;
}

/** The index a place in a list of `count` stands for, or null past its end. */
function placeIndex(to: 'first' | 'last' | number, count: number): number | null {
  const i = to === 'first' ? 0 : to === 'last' ? count - 1 : to - 1;
  return i >= 0 && i < count ? i : null;
}
const placeWord = (to: 'first' | 'last' | number) => (typeof to === 'number' ? ordinalWord(to) : to);

/**
 * A drag step: the element the words ground to, dragged by its offset, or onto the first or last
 * place among its like siblings (past that sibling's middle, toward the end, as sortable lists need).
 */
async function dragStep(
  r: Run,
  step: PlanStep,
  view: View,
  reasoning: string,
  given?: { node: OutlineNode; items?: OutlineNode[] },
): Promise<{ did: string } | { why: string }> {
  let d = step.drag!;
  const g = given ?? dragTarget(d, view.nodes, r.clock);
  if ('why' in g) return g;
  const node = g.node;
  // So many places along its list or grid, or a grid's cell: the place that is, from where things are now.
  if (d.shift || d.cell) {
    const sibs = given?.items ?? (node.parent?.children ?? []).filter((n) => n.id && n.role === node.role);
    const at = await placeInGrid(r, d, sibs, sibs.indexOf(node));
    if (typeof at === 'string') return { why: `${quote(node.name || node.role)}: ${at}` };
    d = { ...d, to: at };
    step = { ...step, drag: d };
  }
  if (d.to && (node.role === 'option' || (node.role === 'listbox' && optionsOf(node).length))) {
    const moved = await moveByButtons(r, step, node, view, reasoning);
    if (moved) return moved;
  }
  const [sel] = await r.selectors([node.id!]);
  if (!sel) return { why: 'the element went away' };
  let move: { dx: number; dy: number } | { to: Point } | null = d.dx !== undefined || d.dy !== undefined ? { dx: d.dx ?? 0, dy: d.dy ?? 0 } : null;
  if (d.to) {
    const sibs = given?.items ?? (node.parent?.children ?? []).filter((n) => n.id && n.role === node.role);
    const want = placeIndex(d.to, sibs.length);
    if (want === null) return { why: `the list has ${sibs.length} items, no ${placeWord(d.to)} place` };
    if (sibs.length >= 2) {
      const end = sibs[want];
      if (end === node) return { did: `${quote(node.name || node.role)} is already ${placeWord(d.to)}` };
      const ends = await r.selectors([sibs[0].id!, sibs[sibs.length - 1].id!, end.id!]);
      if (!ends[0] || !ends[1] || !ends[2]) return { why: 'the list went away' };
      const a = await r.pointOf(ends[0]);
      const b = await r.pointOf(ends[1]);
      const at = await r.pointOf(ends[2]);
      // Past the middle of the item in that place, on the side the item comes from.
      const sign = sibs.indexOf(node) > want ? -1 : 1;
      // A row of columns runs sideways, a list downwards.
      const sideways = Math.abs(b.x - a.x) > Math.abs(b.y - a.y);
      move = { to: sideways ? { x: at.x + sign * 8, y: at.y } : { x: at.x, y: at.y + sign * 8 } };
      if (Math.abs(b.x - a.x) > 4 && Math.abs(b.y - a.y) > 4) {
        // Rows of several (a grid of floated items): a sortable puts the item after the one under the pointer when the
        // pointer last moved right or down, else before it, and only once past the middle on the side it moves toward
        // (sideways first). So the drop is past that middle, and a move back that goes up and to the right cannot be made.
        const from = await r.pointOf(sel);
        const hx = Math.abs(at.x - from.x) < 2 ? 0 : Math.sign(at.x - from.x);
        const vy = Math.abs(at.y - from.y) < 2 ? 0 : Math.sign(at.y - from.y);
        if (sign < 0 && hx > 0 && vy < 0)
          return { why: `${quote(node.name || node.role)} would move up and to the right, where a grid puts a dropped item after the one it lands on` };
        move = { to: hx ? { x: at.x + hx * 8, y: at.y } : { x: at.x, y: at.y + vy * 8 } };
      }
    }
  }
  if (!move) return { why: `${quote(node.name || node.role)} has no list of like items to move within` };
  const out = await r.dragBy(sel, move);
  const did = `dragged ${out.element} from (${Math.round(out.from.x)}, ${Math.round(out.from.y)}) to (${Math.round(out.to.x)}, ${Math.round(out.to.y)})`;
  r.note(step.say, reasoning, did, view.url, null);
  // Done means the page shows it done: the item now first or last, or the element moved.
  await r.settle();
  const after = await look(r, r.instruction);
  if ('to' in move && d.to) {
    const same = after.nodes.filter((n) => n.id && n.role === node.role && n.parent?.role === node.parent?.role);
    const now = same.filter((n) => n.parent === same.find((x) => x.name === node.name)?.parent);
    const want = placeIndex(d.to, now.length);
    const at = want === null ? undefined : now[want];
    if (!at || at.name !== node.name) return { why: `${did}, but the list did not take the move (${quote(node.name)} is not ${placeWord(d.to)} now)` };
  } else {
    const [again] = await r.selectors([node.id!]);
    const p = again ? await r.pointOf(again).catch(() => null) : null;
    if (p && Math.hypot(p.x - out.from.x, p.y - out.from.y) < 3) return { why: `${did}, but it did not move (the page did not take the drag)` };
  }
  return { did };
}

/**
 * Sort the page's one movable list: the item that belongs in the first place not yet right is
 * moved there (a drag, or Move up / Move down for a list box), the page read again, until the
 * list shows the order. Each move must show; at most one move per item.
 */
async function sortStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  let t = sortTarget(step.sort!, current().nodes);
  if (typeof t === 'string') return { why: t };
  const names = t.list.names;
  const moved: string[] = [];
  for (let k = 0; k <= names.length; k++) {
    if (r.signal.aborted) return { why: `cancelled after ${moved.length} moves` };
    const { list, want } = t;
    const at = list.names.findIndex((n, i) => n !== want[i]);
    if (at < 0) return { did: `sorted ${quote(clip(want.join(', '), 200))} (${moved.length} move${moved.length === 1 ? '' : 's'})` };
    if (k === names.length) break;
    const name = want[at]!;
    const move: PlanStep = { say: `move ${quoteValue(name)} to place ${at + 1}`, drag: { target: name, to: at + 1 } };
    const node = list.box ?? list.items[list.names.indexOf(name)]!;
    const out = await dragStep(r, move, current(), `${reasoning}: ${move.say}`, { node, items: list.box ? undefined : list.items });
    if ('why' in out) return { why: moved.length ? `${moved.length} moves done, then ${out.why}` : out.why };
    moved.push(name);
    await r.settle();
    set(await look(r, r.instruction));
    t = sortTarget(step.sort!, current().nodes, names);
    if (typeof t === 'string') return { why: t };
  }
  return { why: `the list is still not in order after ${moved.length} moves (${quote(clip(t.list.names.join(', '), 200))})` };
}

/** The least change of size that shows a resize took (a grip dragged a pixel or two is not one). */
const RESIZED_MIN = 5;

/**
 * The element a drag or a resize names: what a click would ground to, or else the one element named by its words, or
 * by them without the box word ("the notes box" is a region named Notes, "the black box" a picture; neither takes clicks).
 */
function namedTarget(target: string, nodes: OutlineNode[], clock: Clock): { node: OutlineNode } | { why: string } {
  const g = dragTarget({ target }, nodes, clock);
  if (!('why' in g)) return g;
  const words = target.replace(anyOf(RESIZED_BOXES), ' ').replace(/\s+/g, ' ').trim();
  for (const name of [target, words].filter(Boolean)) {
    const named = nodes.filter((n) => n.id && exactMatch(n.name, name));
    if (named.length === 1) return { node: named[0]! };
  }
  return g;
}

const SHAPE_NOUN = oneOf(SHAPE_WORDS);
const ANY_PIECE = oneOf(PIECE_NOUNS);

/** A box said by its side ("the left box", "the right container"): one of two drawn boxes the pieces go into. */
const SIDE_BOX = new RegExp(`^(?:the\\s+)?(left|right|top|bottom)(?:most)?\\s+(?:${either(SIDE_BOX_NOUNS)})$`, 'i');
type Side = 'left' | 'right' | 'top' | 'bottom';
/** A box said by its colour ("the black box"): the one drawn in that colour among the drawing's boxes. */
const COLOUR_BOX = new RegExp(`^(?:the\\s+)?([a-z]+)\\s+(?:${either(SIDE_BOX_NOUNS)})$`, 'i');
/**
 * The drawing a set is sorted in: the element it is read through (the drawing itself, or one of its shapes when the
 * drawing takes no clicks of its own and so has no line), and its pieces in page order.
 */
interface Drawing {
  anchor: OutlineNode;
  /** The line whose children the pieces are. */
  holder: OutlineNode;
  pieces: OutlineNode[];
}
/** Where a set goes: an element the page names, or a box its drawing draws (by side, or by colour). */
type DragOnto = { node: OutlineNode } | { side: Side; drawing: Drawing } | { colour: string; drawing: Drawing };
interface DragSet {
  pieces: OutlineNode[];
  onto: DragOnto;
  /** "..., and everything else into the right box": the drawing's other pieces, and where they go. */
  rest?: { pieces: OutlineNode[]; onto: DragOnto };
}

/** The pieces a drag of a set names ("red squares", "shapes"), outside the target; or why the words name none. */
function piecesNamed(what: string, nodes: OutlineNode[], outside: OutlineNode | null): OutlineNode[] | string {
  const words = what.toLowerCase().split(/\s+/);
  const noun = words.at(-1)!;
  const colours = words.slice(0, -1);
  if (!SHAPE_NOUN.test(noun) && !ANY_PIECE.test(noun)) return `${quote(what)} names no kind of shape the page draws`;
  if (colours.some((c) => !oneOf(COLOUR_WORDS).test(c))) return `it picks the pieces by ${quote(colours.join(' '))}, which the built-in model cannot see`;
  const kind = SHAPE_NOUN.test(noun) ? singular(noun) : null;
  return nodes.filter((n) => {
    if (!n.id || (outside && (n === outside || isInside(n, outside)))) return false;
    const said = normalize(n.name).split(' ');
    const shape = said.find((w) => SHAPE_NOUN.test(w));
    // A square is a rectangle too ("drag all rectangles" takes the squares).
    const fits = !kind || singular(shape ?? '') === kind || (kind === 'rectangle' && singular(shape ?? '') === 'square');
    return !!shape && fits && colours.every((c) => said.includes(c) || said.includes(SAME_COLOUR[c] ?? c));
  });
}

/** Every piece a drawing holds: the elements inside it named as a shape. */
const drawingPieces = (drawing: OutlineNode, nodes: OutlineNode[]) =>
  nodes.filter(
    (n) =>
      n.id &&
      isInside(n, drawing) &&
      normalize(n.name)
        .split(' ')
        .some((w) => SHAPE_NOUN.test(w)),
  );

/**
 * What "drag all circles into the black box" moves and where: the elements named as that kind of piece (a shape word,
 * with any colour said: "red squares"; "shapes" or "items" for every shape), and the one target; or why not. A target
 * said by its side ("the left box") is one of two boxes drawn in the drawing that holds the pieces (found when the step
 * runs); "everything else into the right box" takes the drawing's other pieces there.
 */
function dragSet(d: NonNullable<PlanStep['dragEach']>, nodes: OutlineNode[], clock: Clock): DragSet | string {
  const side = SIDE_BOX.exec(d.to.trim());
  const hue = COLOUR_BOX.exec(d.to.trim())?.[1]?.toLowerCase();
  const colour = hue && cssColours[hue] ? hue : null;
  let named = namedTarget(d.to, nodes, clock);
  // "The black box" is no black circle: a piece of the drawing is a target only when called by its own shape.
  if (colour && 'node' in named && isPiece(named.node) && !normalize(named.node.name).split(' ').includes(d.to.trim().split(/\s+/).at(-1)!.toLowerCase()))
    named = { why: `${quote(named.node.name)} is a piece, not ${quote(d.to)}` };
  if ('why' in named && !side && !colour) return `where to drag them is not known: ${named.why}`;
  const pieces = piecesNamed(d.what, nodes, 'node' in named ? named.node : null);
  if (typeof pieces === 'string') return pieces;
  if (pieces.length > EACH_MAX) return `${pieces.length} ${d.what}, more than ${EACH_MAX}`;
  const drawing = drawingOf(pieces.length ? pieces : nodes.filter((n) => n.id && isPiece(n)), nodes);
  // None of them: nothing to drag, when they are said by their shape alone (a colour's name may be another than the
  // page's) and every piece of the one drawing is a shape it can tell (none merely "a shape").
  if (!pieces.length) {
    if (/\s/.test(d.what.trim())) return `no ${d.what} on the page to drag`;
    const told = drawing && !drawing.holder.children.some((n) => n.id && n.nameFrom === 'inferred' && !isPiece(n));
    if (!drawing || !told) return `no ${d.what} on the page to drag`;
  }
  if ('node' in named) return { pieces, onto: named };
  const where = side ? `the ${side[1]!.toLowerCase()} box` : `the ${colour} box`;
  if (!drawing) return `the ${d.what} are not all in one drawing, so which is ${where} is not known`;
  const onto: DragOnto = side ? { side: side[1]!.toLowerCase() as Side, drawing } : { colour: colour!, drawing };
  if (!d.rest) return { pieces, onto };
  const restSide = SIDE_BOX.exec(d.rest.trim());
  if (!restSide) return `where the rest go is not known: ${quote(d.rest)} is not one of two boxes of the drawing`;
  const rest = drawing.pieces.filter((n) => !pieces.includes(n));
  return { pieces, onto, rest: { pieces: rest, onto: { side: restSide[1]!.toLowerCase() as Side, drawing } } };
}

/** Whether an element is named as a piece of a drawing (a shape word in its name). */
const isPiece = (n: OutlineNode) =>
  normalize(n.name)
    .split(' ')
    .some((w) => SHAPE_NOUN.test(w));

/**
 * The one drawing that holds these pieces, with all its pieces: their common parent when it has a line of its own; when
 * it has none (a drawing that takes no clicks), the pieces that share that parent, read through the first of them.
 */
function drawingOf(pieces: OutlineNode[], nodes: OutlineNode[]): Drawing | null {
  const parents = [...new Set(pieces.map((n) => n.parent))];
  if (parents.length !== 1 || !parents[0] || !pieces.length) return null;
  const parent = parents[0];
  if (parent.id) return { anchor: parent, holder: parent, pieces: drawingPieces(parent, nodes) };
  const all = parent.children.filter((n) => n.id && isPiece(n));
  return all.length ? { anchor: all[0]!, holder: parent, pieces: all } : null;
}

/** Drawn boxes pieces are sorted into: unfilled, each side at least this many times the largest piece's. */
const BOX_TIMES = 2;

/**
 * The point (in the viewport) a set goes to: the target's, or the centre of the box on that side of the two the drawing
 * draws (unfilled, much larger than its pieces), placed by the drawing's pieces (each drawn shape of a piece, in order).
 */
async function ontoPoint(r: Run, onto: DragOnto, nodes: OutlineNode[]): Promise<Point | string> {
  if ('node' in onto) {
    const [sel] = await r.selectors([onto.node.id!]);
    return sel ? r.pointOf(sel) : 'the target went away';
  }
  const [drawSel] = await r.selectors([onto.drawing.anchor.id!]);
  const read = drawSel ? await r.shapesIn(drawSel).catch(() => null) : null;
  if (!read) return 'the drawing could not be read';
  const empty = (f: string) => !f || f === 'none' || /rgba\(.*,\s*0\)$|transparent/.test(f);
  const filled = read.shapes.filter((s) => !empty(s.fill));
  const most = Math.max(0, ...filled.map((s) => Math.max(s.w, s.h)));
  const boxes = read.shapes.filter((s) => empty(s.fill) && s.tag === 'rect' && s.w >= BOX_TIMES * most && s.h >= BOX_TIMES * most);
  let box: DrawnShape;
  if ('colour' in onto) {
    // "The black box": the one box outlined in that colour.
    const rgb = cssColours[onto.colour]!;
    const inColour = boxes.filter((b) => b.stroke && (b.stroke.match(/\d+/g) ?? []).slice(0, 3).every((v, k) => Number(v) === rgb[k]));
    if (inColour.length !== 1) return `the drawing shows ${inColour.length || 'no'} ${onto.colour} boxes, not one`;
    box = inColour[0]!;
  } else {
    if (boxes.length !== 2) return `the drawing shows ${boxes.length || 'no'} boxes to sort into, not two`;
    const across = onto.side === 'left' || onto.side === 'right';
    const [a, b] = [...boxes].sort((p, q) => (across ? p.x - q.x : p.y - q.y));
    if (across ? Math.abs(a!.x - b!.x) < a!.w / 2 : Math.abs(a!.y - b!.y) < a!.h / 2)
      return `the two boxes are not side by side ${across ? 'across' : 'up and down'}`;
    box = onto.side === 'left' || onto.side === 'top' ? a! : b!;
  }
  // Where the drawing's corner is, from a piece: its drawn shape's place in the drawing against its place on the screen.
  const pieces = onto.drawing.pieces;
  if (pieces.length !== filled.length) return `the drawing draws ${filled.length} filled shapes for ${pieces.length} pieces: which is which is not known`;
  const [pieceSel] = await r.selectors([pieces[0]!.id!]);
  if (!pieceSel) return 'a piece went away';
  const seen = await r.pointOf(pieceSel);
  return { x: seen.x - filled[0]!.x + box.x, y: seen.y - filled[0]!.y + box.y };
}

/** Drag each piece of the set onto the target, a little apart; each must move, or the run stops there. */
async function dragEachStep(r: Run, step: PlanStep, reasoning: string, current: () => View): Promise<Outcome> {
  const view = current();
  const set = dragSet(step.dragEach!, view.nodes, r.clock);
  if (typeof set === 'string') return { why: set };
  const said = (o: DragOnto) => ('node' in o ? quote(o.node.name || o.node.role) : `the ${'side' in o ? o.side : o.colour} box`);
  const done: string[] = [];
  for (const { pieces, onto } of [set, ...(set.rest ? [set.rest] : [])]) {
    // None of them in the drawing: nothing to move, and the box holds all of them as it is.
    if (!pieces.length) {
      done.push(`the drawing has no ${step.dragEach!.what}: nothing to drag into ${said(onto)}`);
      continue;
    }
    const at = await ontoPoint(r, onto, view.nodes);
    if (typeof at === 'string') return { why: done.length ? `${done.join('; ')}, then ${at}` : at };
    const moved: string[] = [];
    for (const [k, n] of pieces.entries()) {
      if (r.signal.aborted) return { why: `cancelled after ${moved.length} of ${pieces.length}` };
      const [sel] = await r.selectors([n.id!]);
      if (!sel) return { why: `${quote(n.name)} went away after ${moved.length} of ${pieces.length}` };
      // A little apart, so a piece does not land on one dropped before it.
      const out = await r.dragBy(sel, { to: { x: at.x + ((k % 3) - 1) * 10, y: at.y + ((Math.floor(k / 3) % 3) - 1) * 10 } });
      const did = `dragged ${out.element} from (${Math.round(out.from.x)}, ${Math.round(out.from.y)}) to (${Math.round(out.to.x)}, ${Math.round(out.to.y)})`;
      r.note(step.say, `${reasoning}: ${k + 1} of ${pieces.length}`, did, view.url, null);
      await r.settle();
      const p = await r.pointOf(sel).catch(() => null);
      if (p && Math.hypot(p.x - out.from.x, p.y - out.from.y) < 3) return { why: `${did}, but it did not move (the page did not take the drag)` };
      moved.push(quote(n.name));
    }
    done.push(moved.length ? `dragged ${moved.join(', ')} onto ${said(onto)}` : `nothing else to drag onto ${said(onto)}`);
  }
  // Pieces placed in a drawing are an answer the page takes by its one button, when Submit is all it has.
  const buttons = view.nodes.filter((n) => n.id && (n.role === 'button' || n.role === 'link') && n.states.disabled !== true);
  if (buttons.length === 1 && /^submit$/i.test(buttons[0]!.name.trim())) {
    if (!(await actOnNode(r, buttons[0]!, 'click', [], 'click "Submit"', `${reasoning}: the boxes hold the answer`, view.url))) {
      return { why: `${done.join('; ')}, then "Submit" went away` };
    }
    done.push('clicked "Submit"');
  }
  return { did: done.join('; ') };
}

/** Resize the box the step names by its corner grip; done when its size changed the way asked. */
async function resizeStep(r: Run, step: PlanStep, reasoning: string, current: () => View): Promise<Outcome> {
  const view = current();
  const { target, dx, dy } = step.resize!;
  const g = namedTarget(target, view.nodes, r.clock);
  if ('why' in g) return g;
  const [sel] = await r.selectors([g.node.id!]);
  if (!sel) return { why: 'the element went away' };
  let out: Awaited<ReturnType<StepRunner['resizeBy']>>;
  try {
    out = await r.resizeBy(sel, dx, dy);
  } catch (e) {
    if (r.endsRun(e)) throw e;
    return { why: (e as Error).message };
  }
  const size = (s: { width: number; height: number }) => `${Math.round(s.width)}×${Math.round(s.height)}`;
  const did = `resized ${out.element} from ${size(out.before)} to ${size(out.after)}`;
  r.note(step.say, reasoning, did, view.url, null);
  const took = (d: number, a: number, b: number) => d === 0 || (d > 0 ? b - a >= RESIZED_MIN : a - b >= RESIZED_MIN);
  if (!took(dx, out.before.width, out.after.width) || !took(dy, out.before.height, out.after.height))
    return { why: `${did}, which is not the change asked (${dx > 0 || dy > 0 ? 'larger' : 'smaller'})` };
  return { did };
}

/** A press and hold: the control the words name pressed, held the time said, released; how long it was held is said. */
async function holdStep(r: Run, step: PlanStep, reasoning: string, current: () => View): Promise<Outcome> {
  const view = current();
  const { target, ms } = step.hold!;
  const g = namedTarget(target, view.nodes, r.clock);
  if ('why' in g) return g;
  const [sel] = await r.selectors([g.node.id!]);
  if (!sel) return { why: 'the element went away' };
  let out: Awaited<ReturnType<StepRunner['hold']>>;
  try {
    out = await r.hold(sel, ms);
  } catch (e) {
    if (r.endsRun(e)) throw e;
    return { why: (e as Error).message };
  }
  const did = `held ${out.element} down for ${ms} ms`;
  r.note(step.say, reasoning, did, view.url, null);
  return { did };
}

const RIGHT_CLICK_NAMED = anyOf(RIGHT_CLICK_NAMES);
/** Roles of a place to right-click: what takes the pointer (a heading that says "Right click reveal" is a title). */
const RIGHT_CLICK_ROLES: ReadonlySet<string> = new Set(['clickable', 'button', 'img', 'figure', 'group', 'region', 'application', 'cell', 'gridcell']);

/**
 * The page's one element whose own name says it is the place to right-click ("Right-click here"); with none, the element
 * the words name as said ("right-click the box" on a page with one box); or why there is neither.
 */
function rightClickPlace(said: string, nodes: OutlineNode[], clock: Clock): { node: OutlineNode } | { why: string } {
  const places = nodes.filter((n) => n.id && RIGHT_CLICK_ROLES.has(n.role) && n.states.disabled !== true);
  // A box with no name of its own is called by its title inside ("Right Click Here!" as its heading).
  const called = (n: OutlineNode) => n.name || n.children.find((c) => c.role === 'heading' || c.role === 'text')?.name || '';
  const named = places.filter((n) => RIGHT_CLICK_NAMED.test(called(n)));
  if (named.length === 1) return { node: named[0]! };
  if (named.length) return { why: `${named.length} elements say they are the place to right-click` };
  // Else the one place called for what the right-click is to show ("Show Password"), the task being to reveal it.
  const showing = places.filter((n) => REVEALER.test(called(n)));
  if (showing.length === 1) return { node: showing[0]! };
  const g = ground({ say: said }, nodes, clock);
  if (!('why' in g) && g.pick.node && g.pick.method === 'rightClick') return { node: g.pick.node };
  return { why: `nothing on the page says it is the place to right-click${'why' in g ? `, and ${g.why}` : ''}` };
}

/** A right-click on the place the page names for one: the words said none but how it looks ("a large, obvious area"). */
async function rightClickStep(r: Run, step: PlanStep, reasoning: string, current: () => View): Promise<Outcome> {
  const view = current();
  const g = rightClickPlace(step.rightClickHere!.said, view.nodes, r.clock);
  if ('why' in g) return g;
  const [selector] = await r.selectors([g.node.id!]);
  if (!selector) return { why: 'the element went away' };
  let element: string;
  try {
    ({ element } = await r.perform(selector, 'rightClick', []));
  } catch (e) {
    if (r.endsRun(e)) throw e;
    return { why: (e as Error).message };
  }
  const did = `right-clicked ${element}`;
  r.note(step.say, reasoning, did, view.url, { selector, description: element, method: 'rightClick', arguments: [] });
  return { did };
}

/** Roles a moving target may have in the outline; the most of them watched for movement. */
const MOVING_ROLES: ReadonlySet<string> = new Set(['clickable', 'button', 'img', 'figure', 'graphics-symbol', 'graphics-document', 'application']);
const MOVING_CANDIDATES = 12;
const movingCandidates = (nodes: OutlineNode[]) =>
  nodes.filter((n) => n.id && MOVING_ROLES.has(n.role) && n.states.disabled !== true).slice(0, MOVING_CANDIDATES);
/** How long apart two looks at where things are tell what moves, and how far counts as moving. */
const MOVING_SAMPLE_MS = 200;
const MOVED_PX = 3;
/** The most clicks a moving target gets when no number is said and the page's secret is awaited, and the most that may miss. */
const MOVING_MAX = 10;
const MOVING_MISSES = 3;

/**
 * A moving target clicked where it is at each moment: the page's one element (of those that could take the click) whose
 * place changed between two looks. None, or several that move, are a refusal; with no number said and a secret to read
 * after it, clicked until the page shows one.
 */
async function movingStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const { noun, times, untilShown } = step.moving!;
  const selectors = await r.selectors(movingCandidates(current().nodes).map((n) => n.id!));
  const where = () => Promise.all(selectors.map((s) => (s ? r.pointNow(s).catch(() => null) : Promise.resolve(null))));
  const a = await where();
  await pause(MOVING_SAMPLE_MS, r.signal);
  const b = await where();
  const moved = selectors.filter((s, i) => s && a[i] && b[i] && Math.hypot(a[i]!.x - b[i]!.x, a[i]!.y - b[i]!.y) >= MOVED_PX);
  if (moved.length > 1) return { why: `${moved.length} things on the page move: which is the ${noun} is not known` };
  if (!moved.length) return { why: 'nothing on the page moves' };
  const selector = moved[0]!;
  const most = times ?? (untilShown ? MOVING_MAX : 1);
  // Lines the page showed when the run began: a secret among them was not brought up by these clicks.
  const shownFirst = new Set(r.first?.nodes.map((n) => lineKey(n.name)));
  let hits = 0;
  let misses = 0;
  let element = '';
  while (hits < most && misses <= MOVING_MISSES) {
    let taken: boolean | undefined;
    try {
      await r.effects.begin().catch(() => undefined);
      const out = await r.clickMoving(selector);
      taken = (await r.effects.end('click').catch(() => null))?.taken;
      element = out.element;
      const said = `clicked ${out.element} at (${Math.round(out.point.x)}, ${Math.round(out.point.y)})${taken === false ? ', which missed it' : ''}`;
      r.note(step.say, `${reasoning}: click ${hits + misses + 1}`, said, current().url, null);
    } catch (e) {
      if (r.endsRun(e)) throw e;
      if (!hits && !misses) return { why: (e as Error).message };
      break;
    }
    // A click nothing took (the space beside the target): not a hit, and tried again.
    if (taken === false) misses++;
    else hits++;
    if (untilShown && !times) {
      await r.settle();
      set(await look(r, r.instruction));
      if (secretsShown(current().nodes, shownFirst).length) break;
    }
  }
  const did = `clicked the moving ${noun} ${element} ${hits} time${hits === 1 ? '' : 's'}${misses ? ` (${misses} more clicks missed it)` : ''}`;
  return times && hits < times ? { why: `${did}, not ${times}` } : { did };
}

/** The one field a guess is typed into and the button it is sent with, or why there are not. */
function guessControls(g: Guess, nodes: OutlineNode[]): { field: OutlineNode; send: OutlineNode } | string {
  const fields = nodes.filter((n) => n.id && TEXT_ROLES.has(n.role) && n.states.disabled !== true && n.states.readonly !== true);
  if (fields.length !== 1) return `the page shows ${fields.length || 'no'} fields to type a guess into`;
  const pressable = nodes.filter((n) => n.id && (n.role === 'button' || n.role === 'clickable') && n.states.disabled !== true);
  const sends = g.button ? pressable.filter((n) => exactMatch(n.name, g.button!)) : pressable.filter((n) => oneOf(GUESS_BUTTONS).test(n.name.trim()));
  if (sends.length !== 1) return `the page shows ${sends.length || 'no'} buttons ${g.button ? `named ${quote(g.button)}` : 'to send a guess with'}`;
  return { field: fields[0]!, send: sends[0]! };
}

/** The most guesses: halving finds any number of the range in fewer. */
const guessesFor = (g: Guess) => Math.ceil(Math.log2(g.hi - g.lo + 1)) + 2;

/**
 * Guess the number: the middle of what is left, typed and sent, the range halved by the page's
 * answer (higher, lower), until the page says the guess is right. An answer that does not come,
 * or answers that leave no number, end the run as a failure.
 */
async function guessNumber(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const g = step.guess!;
  const start = current().nodes;
  let { lo, hi } = g;
  const tried: number[] = [];
  while (tried.length < guessesFor(g)) {
    if (r.signal.aborted) return { why: `cancelled after ${tried.length} guesses` };
    const c = guessControls(g, current().nodes);
    if (typeof c === 'string') return { why: c };
    const n = Math.floor((lo + hi) / 2);
    const before = current().nodes;
    const why = `${reasoning}: ${lo} to ${hi} left, ${n} is the middle`;
    if (
      !(await actOnNode(
        r,
        c.field,
        'fill',
        [String(n)],
        `enter ${quote(String(n))} into ${c.field.name ? quote(c.field.name) : `the ${c.field.role}`}`,
        why,
        current().url,
      ))
    )
      return { why: 'the field went away' };
    if (!(await actOnNode(r, c.send, 'click', [], `click ${quote(c.send.name)}`, why, current().url))) return { why: 'the button went away' };
    tried.push(n);
    await r.settle();
    set(await look(r, r.instruction));
    const said = answerTo(start, before, current().nodes);
    if (said === 'right') return { did: `guessed ${n}, which the page says is right (guesses: ${tried.join(', ')})` };
    if (!said)
      return { why: `after the guess ${n} the page said neither higher, lower nor right: whether it was right is not known (guesses: ${tried.join(', ')})` };
    if (said === 'higher') lo = n + 1;
    else hi = n - 1;
    if (lo > hi) return { why: `the page's answers leave no number from ${g.lo} to ${g.hi} (guesses: ${tried.join(', ')})` };
  }
  return { why: `no guess was right after ${tried.length} (guesses: ${tried.join(', ')})` };
}

/** The most draws: a number that fits half the time is drawn in fewer with a chance of a billion to one. */
const DRAWS_MAX = 30;

/**
 * Draw until the number fits: the page's button clicked, the number it brought up read (the one
 * changed line with a number, then that line after each draw), again until it fits. At least one
 * draw, as asked; a draw that shows no number, or lines that leave the number open, end the run.
 */
async function drawStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const d = step.draw!;
  const drawn: number[] = [];
  let shown: Drawn | null = null;
  for (let k = 0; k < DRAWS_MAX; k++) {
    if (r.signal.aborted) return { why: `cancelled after ${k} draws` };
    const button = drawButton(d, current().nodes);
    if (typeof button === 'string') return { why: button };
    const before = current().nodes;
    const why = `${reasoning}: ${shown ? `${shown.value} is not ${d.text}` : 'a first draw'}`;
    if (!(await actOnNode(r, button, 'click', [], `click ${quote(button.name)}`, why, current().url))) return { why: 'the button went away' };
    await r.settle();
    set(await look(r, r.instruction));
    const read = drawnNumber(before, current().nodes, shown?.shape, shown ?? undefined);
    if (typeof read === 'string') return { why: read };
    if (!read) return { why: `clicking ${quote(button.name)} brought up no number` };
    shown = read;
    drawn.push(read.value);
    if (isWanted(d.want, read.value)) return { did: `drew ${read.value}, which is ${d.text} (draws: ${drawn.join(', ')})` };
  }
  return { why: `no number drawn was ${d.text} after ${DRAWS_MAX} draws (${drawn.join(', ')})` };
}

const MENU_OPENER = oneOf(MENU_OPENER_NAMES);
const OPENER_ROLES = new Set(['button', 'clickable', 'link', 'menuitem']);

/**
 * The page's one control that opens a menu: one that says it does (a button with a popup, closed),
 * else one named as a menu's opener ("Menu", "☰", "+") or by the menu's kind ("Pie menu").
 */
function menuOpener(kind: string | undefined, nodes: OutlineNode[]): OutlineNode | string {
  const controls = nodes.filter((n) => n.id && OPENER_ROLES.has(n.role) && n.states.disabled !== true);
  const popups = controls.filter((n) => typeof n.states.haspopup === 'string' && n.states.expanded !== true);
  if (popups.length === 1) return popups[0]!;
  if (popups.length > 1) return `the page shows ${popups.length} controls that open a menu`;
  const byKind = kind ? new RegExp(`\\b${kind}\\b`, 'i') : null;
  const named = controls.filter((n) => MENU_OPENER.test(n.name.trim()) || (byKind && byKind.test(n.name) && /\bmenu\b/i.test(n.name)));
  if (named.length === 1) return named[0]!;
  return named.length ? `the page shows ${named.length} controls that may open a menu` : 'the page shows no control that opens a menu';
}

/**
 * A menu item or control that opens a menu of its own: said by haspopup, or by the triangle after its name ("Advanced ▸";
 * never "Next ›" or "Continue →", which go on).
 */
const SUBMENU_ARROW = /\s*[▸▶►]\s*$/;
const submenuOpeners = (nodes: OutlineNode[]) =>
  nodes.filter(
    (n) =>
      n.id &&
      OPENER_ROLES.has(n.role) &&
      n.states.disabled !== true &&
      (typeof n.states.haspopup === 'string' || SUBMENU_ARROW.test(n.name)) &&
      (n.role === 'menuitem' || menuLike(n) || SUBMENU_ARROW.test(n.name) || n.states.haspopup === 'menu'),
  );
const APP_MENU = oneOf(APP_MENU_NAMES);
/** The fewest buttons in a row, and of them named as an application's menus, that make a menu bar. */
const BAR_MIN = 3;
const BAR_MENUS_MIN = 2;
/** Rows of at least BAR_MIN short-named buttons side by side in one box, nothing else between them. */
function buttonRows(nodes: OutlineNode[]): OutlineNode[][] {
  const out: OutlineNode[][] = [];
  let run: OutlineNode[] = [];
  const close = () => {
    if (run.length >= BAR_MIN) out.push(run);
    run = [];
  };
  for (const n of nodes) {
    const button = n.id && (n.role === 'button' || n.role === 'menuitem') && n.states.disabled !== true && n.name.trim().split(/\s+/).length <= 2;
    if (!button) {
      // Lines inside a button are its own; anything else ends the row.
      if (!run.some((b) => isInside(n, b))) close();
      continue;
    }
    if (run.length && run[run.length - 1]!.parent !== n.parent) close();
    run.push(n);
  }
  close();
  return out;
}

/**
 * The menus of a menu bar drawn as plain buttons ("File Edit View Help" in a row, nothing marking them): the buttons of
 * such a row named as an application's menus. Hovering one, or clicking it, opens its menu.
 */
function barMenus(nodes: OutlineNode[]): OutlineNode[] {
  return buttonRows(nodes).flatMap((run) => {
    const menus = run.filter((n) => APP_MENU.test(n.name.trim()));
    return menus.length >= BAR_MENUS_MIN ? menus : [];
  });
}
/**
 * A page whose only menus may be a row of plain buttons with other names ("System Applications Network User"): that row,
 * when it is the page's one such row.
 */
function looseBar(nodes: OutlineNode[]): OutlineNode[] {
  if (menuOpeners(nodes).length) return [];
  const rows = buttonRows(nodes);
  return rows.length === 1 ? rows[0]! : [];
}
/** Openers of menus: those marked so or drawn with an arrow, and a plain menu bar's menus. */
const menuOpeners = (nodes: OutlineNode[]) => [...new Set([...submenuOpeners(nodes), ...barMenus(nodes)])];
const SECRET_ITEM_WORD = oneOf(SECRET_ITEM_WORDS);
const SECRET_NAMED = new RegExp(`\\b(?:${either(SECRET_NOUNS)})s?\\b`, 'i');
/** The most menus opened while looking for an item. */
const MENU_SEARCH_MAX = 30;
/** Roles an item found in a menu may have. */
const MENU_ITEM_ROLES: ReadonlySet<string> = new Set(['menuitem', 'menuitemcheckbox', 'menuitemradio', 'clickable', 'button', 'link', 'option']);
/** Words that name no item in particular ("the secret option"): left out when matching it. */
const ITEM_NOUNS = new Set(['the', 'a', 'an', 'option', 'item', 'entry', 'choice', 'menu', 'link', 'button']);

/**
 * An item looked for through a page's menus ("navigate through the menu bar to find the secret option"): each menu
 * opened in turn, top-level ones first, by hovering its path (clicked when hovering shows nothing; a menu open already is
 * left open), its submenus queued after it, until the one item whose name holds the words shows; then it is clicked when
 * the step says so. At most MENU_SEARCH_MAX menus are opened; two items that fit are a refusal.
 */
async function menuFindStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const { target, click } = step.menuFind!;
  const want = normalize(target)
    .split(' ')
    .filter((w) => w && !ITEM_NOUNS.has(w));
  if (!want.length) return { why: `${quote(target)} names no item in particular` };
  const label = (n: OutlineNode) => n.name.replace(SUBMENU_ARROW, '').trim();
  // A plain bar's buttons, as the page first shows them, are hovered, never clicked: a click on one may do anything.
  const hoverOnly = new Set(looseBar(current().nodes).map(label));
  const openersOf = (nodes: OutlineNode[]) => [
    ...menuOpeners(nodes),
    ...nodes.filter((n) => n.id && n.role === 'button' && hoverOnly.has(label(n)) && n.states.disabled !== true),
  ];
  const find = (name: string) => {
    const openers = openersOf(current().nodes);
    // An open menu item's name may run on into its menu's ("View Zoom in Appearance"): its own comes first.
    return openers.find((n) => label(n) === name) ?? openers.find((n) => normalize(n.name).startsWith(`${normalize(name)} `));
  };
  const isOpen = (n: OutlineNode) => n.children.some((c) => c.id);
  const shown = () =>
    new Set(
      current()
        .nodes.filter((n) => n.id)
        .map((n) => `${n.role}|${label(n)}`),
    );
  const seen = new Set<string>();
  const queue: string[][] = [];
  const enqueue = (path: string[], nodes: OutlineNode[]) => {
    for (const n of openersOf(nodes)) {
      if (seen.has(label(n))) continue;
      seen.add(label(n));
      queue.push([...path, label(n)]);
    }
  };
  // "the secret option": an item that names the secret it shows ("Show Passwords").
  const fits = (name: string) => {
    const words = normalize(name).split(' ');
    return want.every((w) => words.includes(w) || (SECRET_ITEM_WORD.test(w) && SECRET_NAMED.test(name)));
  };
  const itemShown = (): OutlineNode | string | null => {
    const bar = new Set(barMenus(current().nodes));
    const fit = current().nodes.filter(
      (n) => n.id && MENU_ITEM_ROLES.has(n.role) && !submenuOpeners([n]).length && !bar.has(n) && !hoverOnly.has(label(n)) && fits(label(n)),
    );
    const exact = fit.filter((n) => normalize(label(n)) === want.join(' '));
    if (exact.length === 1 || fit.length === 1) return (exact[0] ?? fit[0])!;
    return fit.length ? `${fit.length} items fit ${quote(target)} (${fit.map((n) => quote(label(n))).join(', ')})` : null;
  };
  const first = itemShown();
  enqueue([], current().nodes);
  let opened = 0;
  let at: string[] = [];
  for (let item = first; ;) {
    if (typeof item === 'string') return { why: item };
    if (item) {
      const where = at.length ? `in ${at.join(' > ')}` : 'on the page';
      if (!click) return { did: `found ${quote(label(item))} ${where}, and left it shown` };
      const clicked = await actOnNode(r, item, 'click', [], `click ${quote(label(item))}`, `${reasoning}: it shows ${where}`, current().url);
      return clicked ? { did: `found ${quote(label(item))} ${where} and clicked it` } : { why: 'the item went away' };
    }
    const path = queue.shift();
    if (!path || opened >= MENU_SEARCH_MAX) break;
    let before = shown();
    let reached = true;
    // The deepest of the path's menus shown already is where it goes on from (an open item may have lost its own name).
    let from = 0;
    for (let i = path.length - 1; i > 0; i--) {
      if (find(path[i]!)) {
        from = i;
        break;
      }
    }
    const clicked: string[] = [];
    try {
      for (const [i, name] of path.entries()) {
        if (i < from) continue;
        const node = find(name);
        if (!node) {
          reached = false;
          break;
        }
        if (isOpen(node) || (i + 1 < path.length && find(path[i + 1]!))) continue;
        before = shown();
        const why = `${reasoning}: looking in ${path.map((p) => quote(p)).join(' > ')}`;
        if (!(await actOnNode(r, node, 'hover', [], `hover over ${quote(name)}`, why, current().url))) {
          reached = false;
          break;
        }
        await r.settle();
        set(await look(r, r.instruction));
        if ([...shown()].some((k) => !before.has(k))) continue;
        // A menu that opens on a click, not a hover. Never a link: its click goes to another page, not into a menu.
        const again = find(name);
        const clickable = again && again.role !== 'link' && !(i === 0 && hoverOnly.has(name));
        if (!clickable || !(await actOnNode(r, again, 'click', [], `click ${quote(name)}`, why, current().url))) {
          reached = false;
          break;
        }
        clicked.push(name);
        await r.settle();
        set(await look(r, r.instruction));
      }
    } catch (e) {
      if (r.endsRun(e)) throw e;
      reached = false;
    }
    if (!reached) continue;
    opened++;
    at = path;
    item = itemShown();
    enqueue(
      path,
      current().nodes.filter((n) => !before.has(`${n.role}|${label(n)}`)),
    );
    // Menus a click opened stay open over the next ones: closed again (by the same click) once looked through.
    if (!item) await closeClicked(r, clicked, find, isOpen, reasoning, current, set);
  }
  return { why: `${quote(target)} did not show in the ${opened} menus opened` };
}

/** Menus opened by a click on their items, closed by a click again, deepest first; what does not close is left. */
async function closeClicked(
  r: Run,
  names: string[],
  find: (name: string) => OutlineNode | undefined,
  isOpen: (n: OutlineNode) => boolean,
  reasoning: string,
  current: () => View,
  set: (v: View) => void,
): Promise<void> {
  for (const name of [...names].reverse()) {
    const node = find(name);
    if (!node || !isOpen(node)) continue;
    try {
      await actOnNode(r, node, 'click', [], `click ${quote(name)}`, `${reasoning}: close the menu looked through`, current().url);
      await r.settle();
      set(await look(r, r.instruction));
    } catch (e) {
      if (r.endsRun(e)) throw e;
    }
  }
}

/** Open the page's menu by its one opener; done when the page shows more than before. */
async function openMenuStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const opener = menuOpener(step.openMenu!.kind, current().nodes);
  if (typeof opener === 'string') return { why: opener };
  const before = new Set(
    current()
      .nodes.filter((n) => n.id)
      .map((n) => `${n.role}|${n.name}`),
  );
  if (!(await actOnNode(r, opener, 'click', [], `click ${quote(opener.name)}`, reasoning, current().url))) return { why: 'the control went away' };
  await r.settle();
  set(await look(r, r.instruction));
  const shown = current().nodes.filter((n) => n.id && !before.has(`${n.role}|${n.name}`));
  if (!shown.length) return { why: `clicking ${quote(opener.name)} showed nothing new` };
  return { did: `opened the menu by ${quote(opener.name)} (it shows ${shown.length} more control${shown.length === 1 ? '' : 's'})` };
}

/** How many scrolls a search may take before it gives up. */
const SCROLLS_MAX = 25;

/** What is scrolled: the scroll area the words name, the page's only one, or (null) the page itself. */
function scrollerOf(within: string | undefined, nodes: OutlineNode[]): OutlineNode | null | string {
  const areas = nodes.filter((n) => n.id && (n.role === 'scrollable' || n.states.scrollable === true));
  if (!within) return areas.length === 1 ? areas[0]! : null;
  const text = (d: OutlineNode): string => [d.name, ...d.children.slice(0, 3).map(text)].join(' ');
  const named = areas.filter((a) => coverage(within, text(a)) === 1);
  if (named.length === 1) return named[0]!;
  return areas.length === 1 ? areas[0]! : `the page shows ${areas.length} scroll areas, and none is the ${within} alone`;
}

/** The one control named exactly `target` ("the Accept button" is Accept). */
function shownTarget(target: string, nodes: OutlineNode[]): OutlineNode[] {
  const t = target.replace(/^the\s+/i, '').replace(/\s+(?:button|link)$/i, '');
  return nodes.filter((n) => n.id && n.role !== 'scrollable' && (exactMatch(n.name, t) || normalize(n.name) === normalize(t)));
}

/** One move that may bring a target into view (a scroll, the next slide): null once made, or why it could not be. */
type Advance = () => Promise<string | null>;

/**
 * Move (`advance`) until a control named `target` shows, then click it. Stops when a move shows
 * nothing the run has not seen (a feed's end, a carousel gone round) or after `max` moves; two
 * targets of that name are a refusal, never a guess.
 */
async function advanceUntil(r: Run, target: string, reasoning: string, v: ViewAccess, advance: Advance, move: string, max: number): Promise<Outcome> {
  const moves = `${move}s`;
  const seen = new Set([v.current().text]);
  for (let k = 0; k <= max; k++) {
    if (r.signal.aborted) return { why: `cancelled after ${k} ${moves}` };
    const hits = shownTarget(target, v.current().nodes);
    if (hits.length > 1) return { why: `${hits.length} controls are named ${quote(target)}` };
    if (hits.length === 1) {
      const hit = hits[0]!;
      if (!(await actOnNode(r, hit, 'click', [], `click ${quote(hit.name)}`, `${reasoning}: it shows after ${k} ${moves}`, v.current().url)))
        return { why: `${quote(target)} went away` };
      return { did: k ? `clicked ${quote(hit.name)}, which showed after ${k} ${k === 1 ? move : moves}` : `clicked ${quote(hit.name)}` };
    }
    if (k === max) break;
    const why = await advance();
    if (why) return { why };
    await r.settle();
    v.set(await look(r, r.instruction));
    // What comes next may load a moment after the move.
    if (seen.has(v.current().text)) {
      await pause(WATCH_EVERY_MS * 3, r.signal);
      v.set(await look(r, r.instruction));
      if (seen.has(v.current().text)) return { why: `after ${k + 1} ${moves} nothing new showed, and ${quote(target)} never did` };
    }
    seen.add(v.current().text);
  }
  return { why: `${quote(target)} did not show after ${max} ${moves}` };
}

interface ViewAccess {
  current: () => View;
  set: (v: View) => void;
}

/** Scroll the page (or its scroll area) to its end until the target shows, then click it. */
async function scrollFindStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const { target, within } = step.scrollFind!;
  const advance: Advance = async () => {
    const area = scrollerOf(within, current().nodes);
    if (typeof area === 'string') return area;
    // To the end: what is above it is in the page's outline already, and a feed loads more only when its end shows.
    const said = area ? 'scroll to the end of the scroll area' : 'scroll to the bottom of the page';
    if (!area) {
      const out = await r.act(said, reasoning, current().text, current().url);
      return out.startsWith('error:') ? `scrolling failed: ${out.slice(6).trim()}` : null;
    }
    const [selector] = await r.selectors([area.id!]);
    if (!selector) return 'the scroll area went away';
    await r.perform(selector, 'scrollTo', ['100%']);
    r.note(said, reasoning, 'scrolled the area to its end', current().url, { selector, description: 'scroll area', method: 'scrollTo', arguments: ['100%'] });
    return null;
  };
  return advanceUntil(r, target, reasoning, { current, set }, advance, 'scroll', SCROLLS_MAX);
}

/** The most slides a carousel is gone through. */
const SLIDES_MAX = 12;
const NEXT_SLIDE = oneOf(NEXT_SLIDE_NAMES);

/** The carousel's one control to the next slide, or why there is not one. */
function nextSlideOf(nodes: OutlineNode[]): OutlineNode | string {
  const next = nodes.filter((n) => n.id && (n.role === 'button' || n.role === 'clickable' || n.role === 'link') && NEXT_SLIDE.test(n.name.trim()));
  return next.length === 1 ? next[0]! : next.length ? `the page shows ${next.length} controls to a next slide` : 'the page shows no control to a next slide';
}

/** Go through a carousel by its Next control until the target shows, then click it. */
async function slideFindStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const advance: Advance = async () => {
    const next = nextSlideOf(current().nodes);
    if (typeof next === 'string') return next;
    return (await actOnNode(r, next, 'click', [], `click ${quote(next.name)}`, `${reasoning}: the next slide`, current().url)) ? null : 'the control went away';
  };
  return advanceUntil(r, step.slideFind!.target, reasoning, { current, set }, advance, 'slide', SLIDES_MAX);
}

/** How long a secret the steps set off may take to show (an animation, a request). */
const SECRET_WAIT_MS = 3000;

/**
 * The page a task names, opened in the run's page (the address as written; a path on the open page's site; a host with
 * no scheme over https), under the operator's URL policy and the call's approval; the page as read there, or why not.
 */
async function openSite(r: Run, site: string, at: string): Promise<View | string> {
  let to: string;
  try {
    to = /^[a-z][a-z+.-]*:/i.test(site) ? site : site.startsWith('/') ? new URL(site, at).href : `https://${site}`;
  } catch {
    return `the task's page ${quote(site)} is not an address that can be opened from ${at}`;
  }
  try {
    const opened = await r.open(to);
    r.note(`go to ${to}`, 'the task names its page, and another is open', `opened ${opened.url}`, opened.url, null);
  } catch (e) {
    if (r.endsRun(e)) throw e;
    return `the task's page ${to} could not be opened: ${(e as Error).message}`;
  }
  await r.settle();
  const view = await look(r, r.instruction);
  const still = otherPage(site, view.url);
  return still ?? view;
}

/** Why a task that names its page cannot run on the page open (another path: the address's host may be a copy's). */
function otherPage(url: string, at: string): string | null {
  const path = (u: string) => {
    try {
      // "example.com/x" is a host and a path; "/x" a path alone.
      const abs = /^[a-z][a-z+.-]*:\/\//i.test(u) || u.startsWith('/') ? u : `http://${u}`;
      return new URL(abs, 'http://page.invalid').pathname.replace(/\/+$/, '');
    } catch {
      return u;
    }
  };
  return path(url) === path(at) ? null : `the task's page is ${url}, and the page open is ${at}: open that page first`;
}

/** The one secret `nodes` state, as the outcome of a step; two are a refusal, none null. */
function secretOutcome(nodes: OutlineNode[], skip: ReadonlySet<string> | undefined, before: string): Outcome | null {
  const found = secretsShown(nodes, skip);
  if (found.length > 1)
    return { why: `the page shows ${found.length} passwords (${found.map((f) => quote(f.value)).join(', ')}): which one is meant is not known` };
  return found.length ? { did: `${before}the page shows the password: ${found[0]!.value}` } : null;
}

/**
 * The secret the steps before revealed, read off the page once it shows (it may take a moment). Lines the page showed
 * before the run are not read after steps that acted (credentials shown to be typed are not the secret).
 */
async function secretStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const acted = r.first && r.first !== current();
  const skip = acted ? new Set(r.first!.nodes.map((n) => lineKey(n.name))) : undefined;
  const watch = async (before: string): Promise<Outcome | null> => {
    const until = performance.now() + SECRET_WAIT_MS;
    for (;;) {
      const out = secretOutcome(current().nodes, skip, before);
      if (out || performance.now() >= until || r.signal.aborted) return out;
      await pause(WATCH_EVERY_MS * 2, r.signal);
      set(await look(r, r.instruction));
    }
  };
  const shown = await watch('');
  if (shown) return shown;
  // What was typed last, not sent yet: the page's one send control ("Submit", "Check"), or else its form's one submit
  // button ("Check Date"), then the page read again.
  const sendable = step.secret!.send ? current().nodes.filter((n) => n.id && CLOSE_ROLES.has(n.role) && n.states.disabled !== true) : [];
  const named = sendable.filter((n) => SEND.test(n.name.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')));
  const send = named.length ? named : sendable.filter((n) => n.states.submit === true);
  // Else, after the steps, the page's one control named for showing the secret ("Reveal password" in the menu a
  // right-click opened): its name says what the task asks for.
  const revealers =
    send.length || !acted ? [] : current().nodes.filter((n) => n.id && REVEALER_ROLES.has(n.role) && n.states.disabled !== true && REVEALER.test(n.name));
  const press = send.length === 1 ? send[0]! : revealers.length === 1 ? revealers[0]! : null;
  if (press) {
    const why = send.length ? 'to send what was typed' : 'it says it shows the password';
    if (!(await actOnNode(r, press, 'click', [], `click ${quote(press.name)}`, `${reasoning}: ${why}`, current().url))) {
      return { why: `${quote(press.name)} went away` };
    }
    await r.settle();
    set(await look(r, r.instruction));
    const sent = await watch(`clicked ${quote(press.name)}; `);
    if (sent) return sent;
  }
  return { why: acted ? 'the steps were done, but the page shows no password they revealed' : 'the page shows no password' };
}
const SEND = oneOf(SEND_NAMES);
/** What a control that shows the secret may be: a button, or an item of the page's own menu. */
const REVEALER_ROLES: ReadonlySet<string> = new Set(['button', 'link', 'clickable', 'menuitem', 'listitem', 'option']);
const REVEALER = new RegExp(`^\\W*(?:${either(REVEALER_VERBS)})\\s+(?:the\\s+|my\\s+)?(?:${either(SECRET_NOUNS)})\\W*$`, 'i');

const SCROLL_AXES: Readonly<Record<ScrollWay, string>> = { down: 'vertical', right: 'horizontal', both: 'both' };
/** The most scroll areas scrolled at each move of a reveal. */
const AREAS_MAX = 5;

/**
 * Scroll the page (and each of its scroll areas) to its end that way until a secret shows, then read it. The scroll asked
 * for is made even when the page's text holds a secret already: a page may count it, and the end may show another.
 */
async function revealStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const { way } = step.reveal!;
  const seen = new Set([current().text]);
  for (let k = 0; k <= SCROLLS_MAX; k++) {
    if (r.signal.aborted) return { why: `cancelled after ${k} scrolls` };
    const out = k ? secretOutcome(current().nodes, undefined, `scrolled ${k === 1 ? 'once' : `${k} times`}; `) : null;
    if (out) return out;
    if (k === SCROLLS_MAX) break;
    // The page, and each of its scroll areas (a few at most): where the secret waits is not known.
    const areas = current()
      .nodes.filter((n) => n.id && (n.role === 'scrollable' || n.states.scrollable === true))
      .slice(0, AREAS_MAX);
    const inner = (await r.selectors(areas.map((a) => a.id!))).filter((x): x is string => !!x);
    for (const selector of ['html', ...inner]) {
      try {
        await r.perform(selector, 'scrollTo', ['100%', SCROLL_AXES[way]]);
      } catch (e) {
        if (r.endsRun(e)) throw e;
        return { why: `scrolling failed: ${(e as Error).message}` };
      }
      const where = selector === 'html' ? 'the page' : 'the scroll area';
      r.note(`scroll ${where} to its end (${way})`, reasoning, `scrolled ${where}`, current().url, {
        selector,
        description: where,
        method: 'scrollTo',
        arguments: ['100%', SCROLL_AXES[way]],
      });
    }
    await r.settle();
    set(await look(r, r.instruction));
    // What comes next may load a moment after the scroll.
    if (seen.has(current().text)) {
      await pause(WATCH_EVERY_MS * 3, r.signal);
      set(await look(r, r.instruction));
      if (seen.has(current().text)) {
        const late = secretOutcome(current().nodes, undefined, `scrolled ${k + 1} times; `);
        return late ?? { why: `after ${k + 1} scrolls nothing new showed, and no password did` };
      }
    }
    seen.add(current().text);
  }
  return { why: `no password showed after ${SCROLLS_MAX} scrolls` };
}

const STAR = oneOf(STAR_NAMES);
/** Controls a rating is given by: never a link ("4 star" filters reviews) nor a picture of a rating already given. */
const RATING_ROLES: ReadonlySet<string> = new Set(['button', 'radio', 'clickable', 'menuitemradio']);

/**
 * The control that gives `stars`: one named for that many ("4 stars", "4 out of 5", "Rate 4 stars"), or else that
 * star of the page's one row of three to ten like stars (never a guess between two rows).
 */
function starFor(want: { stars: number; of?: number }, nodes: OutlineNode[]): { node: OutlineNode; of?: number } | string {
  const n = want.stars;
  const name = new RegExp(`^(?:rate\\s+)?${n}(?:\\s*stars?|\\s+out\\s+of\\s+\\d+(?:\\s+stars?)?|[- ]star(?:\\s+rating)?)$`, 'i');
  const named = nodes.filter((x) => x.id && RATING_ROLES.has(x.role) && name.test(x.name.trim()));
  if (named.length === 1) return { node: named[0]! };
  if (named.length) return `${named.length} controls are named for ${n} stars`;
  const rows: OutlineNode[][] = [];
  for (const parent of new Set(nodes.map((x) => x.parent))) {
    let run: OutlineNode[] = [];
    for (const c of [...(parent?.children ?? []), null]) {
      if (c && c.id && RATING_ROLES.has(c.role) && STAR.test(c.name.trim())) run.push(c);
      else {
        if (run.length >= 3 && run.length <= 10) rows.push(run);
        run = [];
      }
    }
  }
  if (rows.length !== 1) return rows.length ? `the page shows ${rows.length} rows of stars` : `the page shows no row of stars and nothing named for ${n} stars`;
  const row = rows[0]!;
  if (n > row.length || (want.of !== undefined && want.of !== row.length)) return `the page's row has ${row.length} stars, not ${want.of ?? `${n} or more`}`;
  return { node: row[n - 1]!, of: row.length };
}

async function rateStep(r: Run, step: PlanStep, reasoning: string, current: () => View): Promise<Outcome> {
  const star = starFor(step.rate!, current().nodes);
  if (typeof star === 'string') return { why: star };
  const which = star.of ? `star ${step.rate!.stars} of ${star.of}` : quote(star.node.name);
  if (!(await actOnNode(r, star.node, 'click', [], `click ${which}`, reasoning, current().url))) return { why: 'the stars went away' };
  return { did: `rated ${step.rate!.stars} star${step.rate!.stars === 1 ? '' : 's'} (clicked ${which})` };
}

const DIALOGS: ReadonlySet<string> = new Set(['dialog', 'alertdialog']);
/** The dialog an instruction closes: the one its words name (its name or text), or the page's only one. */
function dialogOf(words: string, nodes: OutlineNode[]): OutlineNode | string {
  const all = nodes.filter((n) => DIALOGS.has(n.role));
  const text = (d: OutlineNode): string => [d.name, ...d.children.map(text)].join(' ');
  // "the cookie dialog" is the one that speaks of cookies: words compared without a plural's s.
  const stems = (t: string) => t.replace(/(\w{3,})s\b/gi, '$1');
  const named = words ? all.filter((d) => coverage(stems(words), stems(text(d))) === 1) : all;
  if (named.length === 1) return named[0]!;
  const which = words ? `the ${words} dialog` : 'a dialog';
  return named.length ? `${named.length} dialogs fit ${which}` : all.length ? `no dialog on the page is ${which}` : 'the page shows no dialog';
}

/** How many dialogs of a role and name the page shows: one fewer once it is closed. */
const countOf = (d: OutlineNode, nodes: OutlineNode[]) => nodes.filter((n) => n.role === d.role && n.name === d.name).length;

/**
 * Close a dialog: by its own close control (never a choice such as "No"), or by Escape when it
 * shows none or the instruction says so. Done only when the page no longer shows it.
 */
async function dismissStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const { words, key } = step.dismiss!;
  const d = dialogOf(words, current().nodes);
  if (typeof d === 'string') return { why: d };
  const before = countOf(d, current().nodes);
  const controls = key ? [] : current().nodes.filter((n) => n.id && (n.role === 'button' || n.role === 'link' || n.role === 'clickable') && isInside(n, d));
  const closer = CLOSERS.slice(0, 2)
    .map((re) => controls.find((n) => re.test(n.name.trim())))
    .find(Boolean);
  const what = d.name ? `the ${quote(d.name)} dialog` : 'the dialog';
  const how = closer ? `clicking ${quote(closer.name)}` : 'pressing Escape';
  if (closer) {
    if (!(await actOnNode(r, closer, 'click', [], `click ${quote(closer.name)}`, `${reasoning}: its close control`, current().url)))
      return { why: 'the dialog went away' };
  } else {
    const pressed = await r.act('press Escape', `${reasoning}: ${key ? 'as asked' : 'it shows no close control'}`, current().text, current().url);
    if (pressed.startsWith('error:')) return { why: `pressing Escape failed: ${pressed.slice(6).trim()}` };
  }
  // A dialog may fade out for a moment after it is closed: read the page again until it is gone, a second at most.
  for (let k = 0; k < 5; k++) {
    await r.settle();
    set(await look(r, r.instruction));
    if (countOf(d, current().nodes) < before) return { did: `closed ${what} by ${how}` };
    await pause(WATCH_EVERY_MS, r.signal);
  }
  return { why: `${what} is still shown after ${how}` };
}

/** The most pop-ups closed in one step. */
const POPUPS_MAX = 30;
const CLOSE_NAME = oneOf(CLOSE_NAMES);
/** Roles whose × removes the item it is in. */
const ITEM_HOLDERS: ReadonlySet<string> = new Set(['listitem', 'row', 'option', 'gridcell', 'tab', 'treeitem']);
/** Roles a close control may have. */
const CLOSE_ROLES: ReadonlySet<string> = new Set(['button', 'link', 'clickable']);

/**
 * The close controls of the pop-ups the page shows: those inside its dialogs when it has any, else the page's controls
 * named only "Close", "×" and the like (a pop-up drawn as a plain box).
 */
function popupClosers(nodes: OutlineNode[]): OutlineNode[] {
  // Never the × of an item in a list, a row or a tab (a tag's remove, a tab's close): that deletes, it closes no pop-up.
  const closers = nodes.filter(
    (n) => n.id && CLOSE_ROLES.has(n.role) && n.states.disabled !== true && CLOSE_NAME.test(n.name.trim()) && !under(n, ITEM_HOLDERS),
  );
  const inDialogs = closers.filter((n) => under(n, DIALOGS));
  return nodes.some((n) => DIALOGS.has(n.role)) ? inDialogs : closers;
}

/** Close every pop-up by its own close control, one at a time, each close checked; done when none is left. */
async function dismissAllStep(r: Run, _step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  for (let k = 0; k < POPUPS_MAX; k++) {
    const closers = popupClosers(current().nodes);
    if (!closers.length) return { did: `closed ${k} pop-up${k === 1 ? '' : 's'}` };
    // The last drawn first: pop-ups stack in the order they came, and a later one may lie over an earlier one's close.
    let closer: OutlineNode | undefined;
    for (const c of [...closers].reverse()) {
      const done = await actOnNode(r, c, 'click', [], `click ${quote(c.name)}`, `${reasoning}: pop-up ${k + 1}`, current().url).catch((e: unknown) => {
        if (r.endsRun(e) || !/is covered by/.test((e as Error).message)) throw e;
        return undefined;
      });
      if (done === null) return { why: 'the pop-up went away' };
      if (done !== undefined) {
        closer = c;
        break;
      }
    }
    if (!closer) return { why: `every pop-up's close control is covered by another` };
    await r.settle();
    set(await look(r, r.instruction));
    // A close that closes nothing (a decoy, a pop-up that comes back) ends the step rather than clicking on forever.
    if (popupClosers(current().nodes).length >= closers.length) {
      await pause(WATCH_EVERY_MS * 2, r.signal);
      set(await look(r, r.instruction));
      if (popupClosers(current().nodes).length >= closers.length) return { why: `clicking ${quote(closer.name)} closed no pop-up` };
    }
  }
  return { why: `the page still shows pop-ups after ${POPUPS_MAX} were closed` };
}

const CONSENT_BOX = anyOf(CONSENT_BOXES);
const GO_ON = GO_ON_NAMES.map((t) => oneOf(t));
const GO_BACK = oneOf(GO_BACK_NAMES);

/** The page's boxes that give consent and are not ticked yet ("I agree to the terms", "I'm not a robot"). */
const NOT_CONSENT_BOX = anyOf(NOT_CONSENT);
const SERIES_CONFIRM = oneOf(SERIES_GO_ON);
const consentBoxes = (nodes: OutlineNode[]) =>
  nodes.filter(
    (n) => n.id && (n.role === 'checkbox' || n.role === 'switch') && n.states.checked !== true && n.states.checked !== 'true' && CONSENT_BOX.test(n.name),
  );

/**
 * Proving a person is here, a box the page ticked already ("I am human", checked): the proof given, so what sends it may
 * go on. Never for terms: a form with its terms box ticked is not sent by accepting them.
 */
const consentGiven = (step: PlanStep, nodes: OutlineNode[]) =>
  step.consent?.kind === 'human' &&
  nodes.some((n) => n.id && (n.role === 'checkbox' || n.role === 'switch') && [true, 'true'].includes(n.states.checked) && CONSENT_BOX.test(n.name));

/** The page's one control that goes on ("I understand", else "Continue"), never one that goes back; or why there is none. */
function goOnControl(nodes: OutlineNode[], ticked = false, series = false): OutlineNode | string {
  const controls = nodes.filter((n) => n.id && CLOSE_ROLES.has(n.role) && n.states.disabled !== true && !GO_BACK.test(n.name.trim()));
  // Going through a series of confirmations, "Yes, I confirm" is the one that goes on; never otherwise (it may confirm a purchase).
  const tiers = ticked ? GO_ON : GO_ON.slice(0, -1);
  for (const tier of series ? [tiers[0]!, SERIES_CONFIRM, ...tiers.slice(1)] : tiers) {
    const fit = controls.filter((n) => tier.test(n.name.trim()));
    if (fit.length === 1) return fit[0]!;
    if (fit.length > 1) return `${fit.length} controls could be the one that goes on (${fit.map((n) => quote(n.name)).join(', ')})`;
  }
  return 'the page shows no control that goes on (such as "I understand" or "Continue")';
}

/**
 * Consent given: the one consent box ticked, then the one control that goes on clicked (after a tick only when the step
 * says so). Two boxes, or two controls that could go on, are a refusal.
 */
async function consentStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  if (step.consent!.series) return consentSeries(r, reasoning, current, set);
  const did: string[] = [];
  const boxes = consentBoxes(current().nodes);
  if (boxes.length > 1) return { why: `the page shows ${boxes.length} boxes that ask for consent (${boxes.map((n) => quote(n.name)).join(', ')})` };
  if (boxes.length) {
    const box = boxes[0]!;
    if (!(await actOnNode(r, box, 'click', [], `tick ${quote(box.name)}`, reasoning, current().url))) return { why: 'the box went away' };
    did.push(`ticked ${quote(box.name)}`);
    if (!step.consent!.press) return { did: did.join('; ') };
    await r.settle();
    set(await look(r, r.instruction));
  }
  const goOn = goOnControl(current().nodes, did.length > 0 || consentGiven(step, current().nodes));
  if (typeof goOn === 'string') return did.length ? { did: did.join('; ') } : { why: goOn };
  if (!(await actOnNode(r, goOn, 'click', [], `click ${quote(goOn.name)}`, reasoning, current().url))) return { why: 'the control went away' };
  did.push(`clicked ${quote(goOn.name)}`);
  return { did: did.join('; ') };
}

/**
 * Warnings gone through one after another: at each stage its consent boxes ticked (never one that asks for mail or
 * marketing), then its one control that goes on clicked, until no stage is left (at most SERIES_MAX). A stage that asks
 * for words to be typed is where the run stops: what to type would come from the page, and page text is no instruction.
 */
async function consentSeries(r: Run, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const did: string[] = [];
  const stopped = (why: string): Outcome => ({ why: did.length ? `${did.join('; ')}; then ${why}` : why });
  for (let k = 0; k < SERIES_MAX; k++) {
    const nodes = current().nodes;
    const boxes = consentBoxes(nodes).filter((n) => !NOT_CONSENT_BOX.test(n.name));
    let goOn = goOnControl(nodes, boxes.length > 0, true);
    if (!boxes.length && typeof goOn === 'string') break;
    if (nodes.some((n) => n.id && TEXT_ROLES.has(n.role) && n.states.disabled !== true && n.states.readonly !== true))
      return stopped('the page asks for text to be typed to go on, and what to type would come from the page itself');
    for (const box of boxes) {
      if (!(await actOnNode(r, box, 'click', [], `tick ${quote(box.name)}`, `${reasoning}: stage ${k + 1}`, current().url))) return stopped('a box went away');
      did.push(`ticked ${quote(box.name)}`);
    }
    if (boxes.length) {
      await r.settle();
      set(await look(r, r.instruction));
      goOn = goOnControl(current().nodes, true, true);
    }
    if (typeof goOn === 'string') return stopped(goOn);
    const before = current().text;
    const clicked = await actOnNode(r, goOn, 'click', [], `click ${quote(goOn.name)}`, `${reasoning}: stage ${k + 1}`, current().url);
    if (!clicked) return stopped('the control went away');
    did.push(`clicked ${quote(goOn.name)}`);
    await r.settle();
    set(await look(r, r.instruction));
    if (current().text === before) return stopped(`clicking ${quote(goOn.name)} changed nothing`);
  }
  return did.length ? { did: did.join('; ') } : { why: 'the page shows no warning to go through' };
}

/** Roles a drawing that takes clicks may have in the outline; the most of them read for shapes. */
const DRAWING_ROLES: ReadonlySet<string> = new Set(['clickable', 'img', 'figure', 'graphics-document', 'application']);
const DRAWINGS_MAX = 4;
const drawingsOf = (nodes: OutlineNode[]) => nodes.filter((n) => n.id && DRAWING_ROLES.has(n.role)).slice(0, DRAWINGS_MAX);

/**
 * A point the words name in the page's one drawing that takes clicks (the midpoint of its two points, the centre of its
 * circle, the end of an angle's bisector) clicked, or a stroke drawn on it (a line through its dot, a circle around it),
 * worked out from the shapes it draws. Two drawings it could be, or shapes that do not fit, are a refusal.
 */
async function spotStep(r: Run, step: PlanStep, reasoning: string, current: () => View): Promise<Outcome> {
  const { at, dir } = step.spot!;
  const fits: { selector: string; move: SpotMove; element: string }[] = [];
  let why = 'the page shows no drawing that takes clicks';
  const drawings = drawingsOf(current().nodes);
  const selectors = await r.selectors(drawings.map((d) => d.id!));
  for (const selector of selectors) {
    if (!selector) continue;
    const read = await r.shapesIn(selector, at === 'mark').catch(() => null);
    if (!read?.shapes.length) continue;
    const move = spotMove(at, dir, read.shapes, { width: read.width, height: read.height });
    if (typeof move === 'string') why = move;
    else fits.push({ selector, move, element: read.element });
  }
  if (fits.length !== 1) return { why: fits.length ? `${fits.length} drawings on the page could be the one meant` : why };
  const { selector, move, element } = fits[0]!;
  let did: string;
  try {
    if ('stroke' in move) {
      await r.strokeInside(selector, move.stroke);
      const [a, b] = [move.stroke[0]!, move.stroke.at(-1)!];
      did = `drew ${move.what}, from (${a.x}, ${a.y})${a.x === b.x && a.y === b.y ? ' round' : ` to (${b.x}, ${b.y})`} inside ${element}`;
    } else {
      const done = await r.clickInside(selector, move.click);
      did = `clicked ${move.what}, (${move.click.x}, ${move.click.y}) inside ${done.element}`;
    }
  } catch (e) {
    if (r.endsRun(e)) throw e;
    return { why: (e as Error).message };
  }
  r.note(step.say, reasoning, did, current().url, null);
  return { did };
}

const ADD_CONTROL = oneOf(ADD_ONE);
const ORDER_SENDER = oneOf(ORDER_SENDERS);
/** The most clicks of add controls one order makes. */
const ORDER_CLICKS_MAX = 20;

/**
 * What an order clicks: each item's one add control and how many times, and the page's one control that sends the order.
 * Items are the page's blocks of a list (a name, what it is, its controls); one named is the one block whose words
 * begin with the name (else the one that holds all its words); items of a kind are the first blocks that name the kind
 * (an icon's alt text counts), one each, around again when there are fewer than asked.
 */
function orderLines(
  o: NonNullable<PlanStep['order']>,
  nodes: OutlineNode[],
): { lines: { add: OutlineNode; item: string; times: number }[]; send: OutlineNode } | string {
  const senders = nodes.filter(
    (n) => n.id && OPENER_ROLES.has(n.role) && n.states.disabled !== true && ORDER_SENDER.test(n.name.replace(/^[\s\W]+|[\s\W]+$/gu, '')),
  );
  if (senders.length !== 1) return `the page shows ${senders.length || 'no'} controls that send an order, not one`;
  const blocks = allFlatItems(nodes).filter((b) => b.controls.some((c) => ADD_CONTROL.test(c.name.trim())));
  if (!blocks.length) return 'the page shows no list of items, each with its own control that adds one';
  const addOf = (b: ItemBlock) => {
    const adds = b.controls.filter((c) => ADD_CONTROL.test(c.name.trim()));
    return adds.length === 1 ? adds[0]! : null;
  };
  const picked: ItemBlock[] = [];
  if (o.items) {
    const starting = (name: string) => blocks.filter((b) => `${normalize(b.text)} `.startsWith(`${normalize(name)} `));
    for (let i = 0; i < o.items.length; i++) {
      let name = o.items[i]!;
      // "Spaghetti and Meatballs" is one dish, though the list was read apart at its "and".
      const joined = i + 1 < o.items.length ? `${name} and ${o.items[i + 1]}` : '';
      if (joined && starting(joined).length === 1) ((name = joined), i++);
      const starts = starting(name);
      const holds = starts.length ? starts : blocks.filter((b) => isBy(name, b.text));
      if (holds.length !== 1) return `${holds.length || 'no'} items on the page are ${quote(name)}`;
      // One of each: two names that come to one item were not two items.
      if (picked.includes(holds[0]!)) return `${quote(name)} and another name said both come to ${quote(holds[0]!.text)}`;
      picked.push(holds[0]!);
    }
  } else {
    const kind = new RegExp(`(?:^|[^\\w-])${o.kind!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:$|[^\\w-])`, 'i');
    // What an item is may be said by its pictures only (an icon whose alt text is "vegan").
    const ofKind = blocks.filter((b) => kind.test([b.text, ...b.lines.filter((n) => n.role === 'img').map((n) => n.name)].join(' ')));
    if (!ofKind.length) return `no item on the page says it is ${o.kind}`;
    for (let i = 0; i < o.count!; i++) picked.push(ofKind[i % ofKind.length]!);
  }
  if (picked.length > ORDER_CLICKS_MAX) return `it orders ${picked.length} items, more than ${ORDER_CLICKS_MAX}`;
  const lines: { add: OutlineNode; item: string; times: number }[] = [];
  for (const b of picked) {
    const add = addOf(b);
    if (!add) return `${quote(b.text)} has ${b.controls.length ? 'no one' : 'no'} control that adds one`;
    const had = lines.find((l) => l.add === add);
    if (had) had.times++;
    else lines.push({ add, item: b.text, times: 1 });
  }
  return { lines, send: senders[0]! };
}

/** An order: each item's add control clicked as many times as it is ordered, then the order sent. */
async function orderStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const plan = orderLines(step.order!, current().nodes);
  if (typeof plan === 'string') return { why: plan };
  const done: string[] = [];
  for (const { add, item, times } of plan.lines) {
    for (let k = 0; k < times; k++) {
      const why = `${reasoning}: ${quote(item)}, ${k + 1} of ${times}`;
      if (!(await actOnNode(r, add, 'click', [], `click ${quote(add.name)} for ${quote(item)}`, why, current().url))) {
        return { why: `${quote(item)}'s ${quote(add.name)} went away after ${done.join(', ') || 'nothing was added'}` };
      }
    }
    done.push(`${times} × ${quote(item)}`);
  }
  set(await look(r, r.instruction));
  if (!(await actOnNode(r, plan.send, 'click', [], `click ${quote(plan.send.name)}`, `${reasoning}: send the order`, current().url))) {
    return { why: `${quote(plan.send.name)} went away after adding ${done.join(', ')}` };
  }
  return { did: `added ${done.join(', ')}, then clicked ${quote(plan.send.name)}` };
}

/** The most points of a lattice read for where they lie. */
const LATTICE_MAX = 121;

/**
 * A grid point said by its coordinates: the one element named so ("(1,-3)" as its title); else, on a lattice of like
 * points (n × n of one name, n odd) whose axes are numbered -k … k beside it (each number shown twice, none past k),
 * the point in that column and row, read from where the points lie: x to the right, y up, the centre (0,0).
 */
async function coordStep(r: Run, step: PlanStep, reasoning: string, current: () => View): Promise<Outcome> {
  const view = current();
  const { x, y } = step.coord!;
  const said = `(${x},${y})`;
  const click = async (n: OutlineNode, how: string): Promise<Outcome> =>
    (await actOnNode(r, n, 'click', [], `click ${said}`, `${reasoning}: ${how}`, view.url))
      ? { did: `clicked ${said} (${how})` }
      : { why: 'the point went away' };
  const named = view.nodes.filter((n) => n.id && n.name.replace(/\s+/g, '') === said);
  if (named.length === 1) return click(named[0]!, 'the element named so');
  if (named.length > 1) return { why: `${named.length} elements are named ${said}` };
  const byName = new Map<string, OutlineNode[]>();
  for (const n of view.nodes) if (n.id && n.role === 'clickable') byName.set(n.name, [...(byName.get(n.name) ?? []), n]);
  const points = [...byName.values()].sort((a, b) => b.length - a.length)[0] ?? [];
  const side = Math.round(Math.sqrt(points.length));
  if (side < 3 || side % 2 === 0 || side * side !== points.length || points.length > LATTICE_MAX)
    return { why: `nothing on the page is named ${said}, and it shows no square lattice of like points` };
  const k = (side - 1) / 2;
  // The axes' numbers: lines of bare numbers (each its own line, or a row of them).
  const numbers = view.nodes
    .filter((n) => !n.id && n.role === 'text' && /^-?\d+(?:\s+-?\d+)*$/.test(n.name.trim()))
    .flatMap((n) => n.name.trim().split(/\s+/).map(Number));
  const axes = numbers.every((v) => Math.abs(v) <= k) && [...Array(2 * k + 1).keys()].every((i) => i === k || numbers.filter((v) => v === i - k).length >= 2);
  if (!axes) return { why: `the lattice's axes are not numbered ${-k} to ${k} beside it` };
  if (Math.abs(x) > k || Math.abs(y) > k) return { why: `${said} is off the grid, which runs from ${-k} to ${k}` };
  const selectors = await r.selectors(points.map((n) => n.id!));
  if (selectors.some((sel) => !sel)) return { why: 'the grid changed' };
  const at = await Promise.all(selectors.map((sel) => r.pointOf(sel!)));
  // Columns and rows: the distinct places the points lie at, each holding `side` of them.
  const lines = (vs: number[]) => vs.sort((a, b) => a - b).filter((v, i, all) => i === 0 || v - all[i - 1]! > 2);
  const cols = lines(at.map((p) => p.x));
  const rows = lines(at.map((p) => p.y));
  if (cols.length !== side || rows.length !== side) return { why: `the points do not lie in ${side} columns and ${side} rows` };
  const near = (vs: number[], v: number) => vs.findIndex((c) => Math.abs(c - v) <= 2);
  const i = at.findIndex((p) => near(cols, p.x) - k === x && k - near(rows, p.y) === y);
  if (i < 0) return { why: `no point lies at ${said}` };
  return click(points[i]!, `column ${x + k + 1} from the left and row ${k - y + 1} from the top of a ${side} × ${side} lattice`);
}

/** The most moves through a maze: doors taken and ways back together. */
const MAZE_MOVES_MAX = 60;
const DOOR_ROLES = new Set(['button', 'link', 'clickable']);
/** A maze's doors: controls named as doors, open or shut. */
const doorsOf = (nodes: OutlineNode[]) => nodes.filter((n) => n.id && DOOR_ROLES.has(n.role) && DOOR.test(n.name));

/**
 * A maze walked until its way out shows (a secret the page did not show before): in each room (an address) the first
 * open door not yet taken from it, and from a room with none (a dead end, its doors shut) back to the room before (the
 * browser's Back, else its address). A door that leaves the address as it was cannot be come back through: the walk stops there.
 */
async function mazeStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const shownFirst = new Set(r.first?.nodes.map((n) => lineKey(n.name)));
  const rooms: { url: string; tried: Set<string>; door?: string }[] = [{ url: current().url, tried: new Set() }];
  const way = () => rooms.flatMap((x) => (x.door ? [quote(x.door)] : [])).join(' > ');
  for (let moves = 0; moves < MAZE_MOVES_MAX; moves++) {
    if (secretsShown(current().nodes, shownFirst).length) return { did: `went through the maze by ${way() || 'no door'}` };
    const room = rooms[rooms.length - 1]!;
    const door = doorsOf(current().nodes).find((n) => n.states.disabled !== true && !room.tried.has(n.name));
    if (door) {
      room.tried.add(door.name);
      const why = `${reasoning}: ${room.tried.size === 1 ? 'the first door' : 'the next door'} not yet taken from this room`;
      if (!(await actOnNode(r, door, 'click', [], `click ${quote(door.name)}`, why, current().url))) return { why: `${quote(door.name)} went away` };
      await r.settle();
      set(await look(r, r.instruction));
      if (current().url === room.url) return { why: `${quote(door.name)} did not lead to another address, so the way back from it is not known` };
      rooms.push({ url: current().url, tried: new Set(), door: door.name });
      continue;
    }
    rooms.pop();
    const back = rooms[rooms.length - 1];
    if (!back) return { why: 'every door was tried, and none led out' };
    // The browser's Back first (a site that draws its rooms itself may not serve their addresses); else the room by its address.
    let at = (await r.back()).url;
    let how = 'went back to';
    if (at !== back.url) ((at = (await r.open(back.url)).url), (how = 'opened'));
    r.note(`go back to ${back.url}`, `${reasoning}: no door left to try here`, `${how} ${at}`, at, null);
    await r.settle();
    set(await look(r, r.instruction));
  }
  return { why: `no way out showed within ${MAZE_MOVES_MAX} moves (${way()})` };
}

const RIVER_ROLES = new Set(['button', 'clickable']);
/** The page's enabled controls whose name fits. */
const enabledNamed = (nodes: OutlineNode[], re: RegExp) =>
  nodes.filter((n) => n.id && RIVER_ROLES.has(n.role) && n.states.disabled !== true && re.test(n.name));

/**
 * A river crossing worked out before anything is done: the items are those the page loads ("Load wolf"), all on the boat's
 * bank, the left one; the rules are the page's ("the wolf will eat the goat", "the boat can carry up to two items").
 */
function riverPlan(said: { items: string[] }, nodes: OutlineNode[]): Crossing[] | string {
  const loads = nodes.filter((n) => n.id && RIVER_ROLES.has(n.role) && LOAD.test(n.name));
  const items = [...new Set(loads.map((n) => LOAD.exec(n.name)![1]!.toLowerCase()))];
  const missing = said.items.filter((it) => !items.includes(it.replace(/s$/, '')) && !items.includes(it));
  if (missing.length) return `the page loads no ${missing.join(' or ')} onto a boat`;
  if (loads.length !== items.length || loads.some((n) => n.states.disabled === true)) return 'the items are not all waiting on the bank the boat is at';
  const right = enabledNamed(nodes, MOVE_BOAT).map((n) => MOVE_BOAT.exec(n.name)![1]!.toLowerCase());
  if (right.join() !== 'right') return 'the boat is not at the left bank, ready to cross';
  const rules = riverRules(
    nodes.filter((n) => !n.id || n.role === 'listitem').map((n) => n.name),
    items,
  );
  if (!rules.eats.length) return 'the page says nothing of which item eats which';
  return riverCrossings(items, rules.eats, rules.seats) ?? `no crossings take them all over safely, ${rules.seats} at a time`;
}

/** The crossings made: each load, the boat moved, everything unloaded; a control missing on the way stops the run there. */
async function riverStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const plan = riverPlan(step.river!, current().nodes);
  if (typeof plan === 'string') return { why: plan };
  const click = async (re: RegExp, what: string, why: string): Promise<string | null> => {
    const [node] = enabledNamed(current().nodes, re);
    if (!node) return `the page shows no ${what} to click`;
    if (!(await actOnNode(r, node, 'click', [], `click ${quote(node.name)}`, why, current().url))) return `${quote(node.name)} went away`;
    set(await look(r, r.instruction));
    return null;
  };
  for (const [k, c] of plan.entries()) {
    const why = `${reasoning}: crossing ${k + 1} of ${plan.length}, ${c.load.length ? c.load.join(' and ') : 'nothing'} to the ${c.to} bank`;
    for (const it of c.load) {
      // Items are words of letters (LOAD): nothing in them is read as a pattern.
      const failed = await click(new RegExp(`^\\W*load (?:the )?${it}\\W*$`, 'i'), `"Load ${it}"`, why);
      if (failed) return { why: `${failed} (crossing ${k + 1} of ${plan.length})` };
    }
    const moved = await click(new RegExp(`^\\W*move (?:the )?boat ${c.to}\\W*$`, 'i'), `"Move boat ${c.to}"`, why);
    if (moved) return { why: `${moved} (crossing ${k + 1} of ${plan.length})` };
    for (let u = 0; u < c.load.length; u++) {
      const failed = await click(UNLOAD, 'control that unloads the boat', why);
      if (failed) return { why: `${failed} (crossing ${k + 1} of ${plan.length})` };
    }
  }
  return { did: `took everything across in ${plan.length} crossings` };
}

const HANOI_UNSAID = 'how many disks there are is not said, and the built-in model does not count them in the drawing';
const PEG_PLACES = ['left', 'middle', 'right'];
/** The count of moves a puzzle page shows ("Moves: 12"). */
const MOVES_SHOWN = /^moves(?: made)?\s*:\s*(\d+)$/i;
const movesShown = (nodes: OutlineNode[]) => {
  const m = nodes.map((n) => (n.role === 'text' ? MOVES_SHOWN.exec(n.name.trim()) : null)).find(Boolean);
  return m ? Number(m[1]) : null;
};

/**
 * Why the Towers of Hanoi cannot start: the disks not said, no three peg pickers, or no count of moves (without it a move
 * the page did not take would go unseen, and the run would say done with the disks where they were).
 */
function hanoiNotReady(h: NonNullable<PlanStep['hanoi']>, nodes: OutlineNode[]): string | null {
  if (h.disks === undefined) return HANOI_UNSAID;
  if (h.disks < 1 || h.disks > HANOI_MAX) return `it names ${h.disks} disks, and the built-in model moves 1 to ${HANOI_MAX}`;
  return whyNot(pegPickers(nodes)) ?? (movesShown(nodes) === null ? 'the page shows no count of moves ("Moves: 0") to check each move by' : null);
}

/** The three controls that pick a peg, left to right ("Select" under each), or why the page does not show three. */
function pegPickers(nodes: OutlineNode[]): OutlineNode[] | string {
  const pickers = nodes.filter((n) => n.id && (n.role === 'button' || n.role === 'clickable') && PEG_PICKER.test(n.name) && n.states.disabled !== true);
  return pickers.length === 3 ? pickers : `the page shows ${pickers.length || 'no'} controls that pick a peg, not three`;
}

/**
 * The Towers of Hanoi: each move of the fewest that carry the disks from the left peg to the right one, made by picking
 * its peg and then the peg it goes to. A page that counts moves must count each one, or the run stops there.
 */
async function hanoiStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const not = hanoiNotReady(step.hanoi!, current().nodes);
  if (not) return { why: not };
  const n = step.hanoi!.disks!;
  const moves = hanoiMoves(n);
  const shownFirst = new Set(r.first?.nodes.map((x) => lineKey(x.name)));
  for (const [k, [a, b]] of moves.entries()) {
    if (r.signal.aborted) return { why: `cancelled after ${k} of ${moves.length} moves` };
    const before = movesShown(current().nodes);
    const why = `${reasoning}: move ${k + 1} of ${moves.length}, the top disk of the ${PEG_PLACES[a]} peg onto the ${PEG_PLACES[b]} one`;
    for (const i of [a, b]) {
      const pegs = pegPickers(current().nodes);
      if (typeof pegs === 'string') return { why: `${pegs}, after ${k} of ${moves.length} moves` };
      const peg = pegs[i]!;
      if (!(await actOnNode(r, peg, 'click', [], `click ${quote(peg.name)} under the ${PEG_PLACES[i]} peg`, why, current().url))) {
        return { why: `the ${PEG_PLACES[i]} peg's ${quote(peg.name)} went away after ${k} of ${moves.length} moves` };
      }
      set(await look(r, r.instruction));
    }
    const after = movesShown(current().nodes);
    // A page that puts its prize in the puzzle's place once it is solved counts no more moves.
    if (k === moves.length - 1 && after === null && secretsShown(current().nodes, shownFirst).length) break;
    if (before === null || after !== before + 1) {
      return {
        why: `after move ${k + 1} of ${moves.length} the page counts ${after ?? 'no'} moves, not ${(before ?? -1) + 1}: it did not take the move`,
      };
    }
  }
  return { did: `moved the ${n} disks to the right peg in ${moves.length} moves` };
}

/** How long a terminal may take to print what a command did. */
const PRINT_MS = 2_000;

/** The page's terminal: its one text field a command is typed into, or why there is not one. */
function terminalField(nodes: OutlineNode[]): OutlineNode | string {
  const fields = nodes.filter((n) => n.id && n.role === 'textbox' && (n.states.type === undefined || n.states.type === 'text'));
  return fields.length === 1
    ? fields[0]!
    : fields.length
      ? `the page shows ${fields.length} text fields, not one terminal`
      : 'the page shows no terminal to type in';
}

/**
 * Remove one file through the page's command line: list the files, remove the one the
 * instruction describes (only when exactly one fits), list again. Done only when the listing no
 * longer shows it; a command the terminal says failed ends the run there.
 */
async function removeFileStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const want = step.removeFile!;
  const run = async (command: string): Promise<string[] | null> => {
    const field = terminalField(current().nodes);
    if (typeof field === 'string') return null;
    const before = current().nodes;
    const why = `${reasoning}: type ${quote(command)} in the terminal`;
    if (!(await actOnNode(r, field, 'fill', [command], `type ${quote(command)} in the terminal`, why, current().url))) return null;
    if (!(await actOnNode(r, field, 'press', ['Enter'], 'press Enter in the terminal', why, current().url))) return null;
    // What the command prints may come a moment later, and a line at a time: read until two looks agree.
    let last: string[] = [];
    for (const t0 = Date.now(); ;) {
      await r.settle();
      set(await look(r, r.instruction));
      const lines = printed(before, current().nodes, command);
      if ((lines.length && lines.join('\n') === last.join('\n')) || Date.now() - t0 > PRINT_MS || r.signal.aborted) return lines;
      last = lines;
      await pause(WATCH_EVERY_MS, r.signal);
    }
  };
  const field = terminalField(current().nodes);
  if (typeof field === 'string') return { why: field };
  const said = (lines: string[]) => quote(clip(lines.join(' / '), 120));
  const listed = await run(SHELL_COMMANDS.list);
  if (!listed) return { why: 'the terminal went away' };
  const wrong = failure(listed);
  if (wrong) return { why: `the terminal answered ${quote(SHELL_COMMANDS.list)} with ${quote(clip(wrong, 120))}` };
  const files = filesIn(listed);
  if (!files.length) return { why: `the terminal listed no files${listed.length ? `: it printed ${said(listed)}` : ''}` };
  const found = [...new Set(files.filter(fits(want)))];
  if (found.length !== 1)
    return { why: `${found.length ? `${found.length} files fit` : 'no file fits'} ${describeFile(want).replace(/^the file /, '')} among ${said(files)}` };
  const file = found[0]!;
  const removed = await run(`${SHELL_COMMANDS.remove} ${file}`);
  if (!removed) return { why: 'the terminal went away' };
  const failed = failure(removed);
  if (failed) return { why: `the terminal answered the removal of ${file} with ${quote(clip(failed, 120))}` };
  const after = await run(SHELL_COMMANDS.list);
  if (!after) return { why: 'the terminal went away' };
  const left = filesIn(after);
  if (left.includes(file)) return { why: `${file} is still listed after ${quote(`${SHELL_COMMANDS.remove} ${file}`)}` };
  if (!left.length && files.length > 1) return { why: `the terminal listed nothing after the removal of ${file}: whether it is gone is not known` };
  return { did: `deleted ${file} in the terminal (${quote(SHELL_COMMANDS.list)} no longer lists it)` };
}

/** The page's one tic-tac-toe board, or why there is not one. */
function boardOf(nodes: OutlineNode[]): Square[] | string {
  const boards = boardsOf(nodes);
  return boards.length === 1
    ? boards[0]!
    : boards.length
      ? `the page shows ${boards.length} boards of nine squares`
      : 'the page shows no board of nine squares';
}

/** How long the other player may take to answer a move. */
const REPLY_MS = 5_000;
const ROWS = ['top', 'middle', 'bottom'];
const COLUMNS = ['left', 'centre', 'right'];
const squareName = (k: number) => (k === 4 ? 'the centre' : `the ${ROWS[Math.floor(k / 3)]} ${COLUMNS[k % 3]}`.replace('middle centre', 'centre'));

/**
 * Play the page's board until it shows three of our mark in a line: each turn a win, a block, a
 * fork, the centre, a corner or a side (boards.ts), after the other player has answered. A
 * square that does not take the mark, a lost or drawn game, or an answer that never comes ends
 * the run as a failure; done only when the board shows the line.
 */
async function playGame(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const said = step.game!.mark;
  let me: Mark | null = said === 'either' ? null : said;
  const moves: string[] = [];
  // Who opened: read from the board as the game is handed over, on our turn.
  const start = boardOf(current().nodes);
  const first = typeof start === 'string' ? 'X' : openerOf(start, me);
  for (let turn = 0; turn <= 9; turn++) {
    let b = boardOf(current().nodes);
    // The other player's answer may come a moment later: read the board again until it is our turn or the game is over.
    for (const t0 = Date.now(); typeof b !== 'string' && !winnerOf(b) && me !== null && turnOf(b, first) !== me && Date.now() - t0 < REPLY_MS;) {
      await pause(WATCH_EVERY_MS, r.signal);
      set(await look(r, r.instruction));
      b = boardOf(current().nodes);
    }
    if (typeof b === 'string') return { why: b };
    const played = moves.length ? ` after playing ${moves.join(', ')}` : '';
    const over = winnerOf(b);
    if (over && over === me) return { did: `won as ${me}: three in a line${played}` };
    if (over) return { why: over === 'draw' ? `the game ended in a draw${played}` : `${over} won the game${played}` };
    const next = turnOf(b, first);
    if (!next) return { why: `the board shows marks that cannot come from one game${played}` };
    me ??= next;
    if (next !== me) return { why: `the other player did not move within ${REPLY_MS / 1000} s${played}` };
    const k = bestMove(b, me);
    if (k === null) return { why: `no empty square on the board can be clicked${played}` };
    const say = `click ${squareName(k)} square`;
    if (!(await actOnNode(r, b[k]!.node!, 'click', [], say, `${reasoning}: ${me} to ${squareName(k)}`, current().url))) return { why: 'the square went away' };
    moves.push(squareName(k));
    await r.settle();
    set(await look(r, r.instruction));
    const after = boardOf(current().nodes);
    if (typeof after !== 'string' && after[k]!.mark !== me) return { why: `clicked ${squareName(k)}, but the square does not show ${me}` };
  }
  return { why: `no line after ${moves.length} moves` };
}

/** An item of a list that moves: an option of its own, or one of a native list box's options (named by `list`). */
interface ListItem {
  name: string;
  list?: string;
}
interface Place {
  node: OutlineNode;
  at: number;
  of: number;
  selected: boolean;
}

/** Where the item stands in its list now, and whether it is the one selected; null when it is not there exactly once. */
function placeOf(item: ListItem, nodes: OutlineNode[]): Place | null {
  if (item.list !== undefined) {
    const boxes = nodes.filter((n) => n.id && n.role === 'listbox' && n.name === item.list && optionsOf(n).length);
    // A list the snapshot cut short ("(+3 more)") has an end nobody can see.
    if (boxes.length !== 1 || /\(\+\d+ more\)$/.test(String(boxes[0].states.options))) return null;
    const opts = optionsOf(boxes[0]);
    const at = opts.indexOf(item.name);
    if (at < 0 || opts.lastIndexOf(item.name) !== at) return null;
    return { node: boxes[0], at, of: opts.length, selected: boxes[0].states.value === item.name };
  }
  const hits = nodes.filter((n) => n.id && n.role === 'option' && n.name === item.name);
  if (hits.length !== 1) return null;
  const sibs = (hits[0].parent?.children ?? []).filter((n) => n.id && n.role === 'option');
  const selected = sibs.filter((n) => n.states.selected === true);
  return { node: hits[0], at: sibs.indexOf(hits[0]), of: sibs.length, selected: selected.length === 1 && selected[0] === hits[0] };
}

/** The one button on the page that moves the selected item up (or down), or null. */
function moveButton(nodes: OutlineNode[], up: boolean): OutlineNode | null {
  const re = oneOf(up ? MOVE_UP : MOVE_DOWN);
  const hits = nodes.filter((n) => n.id && (n.role === 'button' || n.role === 'clickable') && n.states.disabled !== true && re.test(normalize(n.name)));
  return hits.length === 1 ? hits[0] : null;
}

/**
 * A list whose options move by Move up and Move down buttons (no drag): select the option, then
 * press toward the end it goes to, one place a press, until the page shows it there. Null when
 * the page has no such pair of buttons.
 */
async function moveByButtons(r: Run, step: PlanStep, node: OutlineNode, view: View, reasoning: string): Promise<{ did: string } | { why: string } | null> {
  const to = step.drag!.to!;
  if (!moveButton(view.nodes, true) || !moveButton(view.nodes, false)) return null;
  let item: ListItem = { name: node.name };
  if (node.role === 'listbox') {
    const named = optionsOf(node).filter((o) => exactMatch(o, step.drag!.target));
    if (named.length !== 1) return { why: `${quote(node.name)} has ${named.length || 'no'} options named ${quote(step.drag!.target)}` };
    item = { name: named[0], list: node.name };
  }
  const name = item.name;
  let place = placeOf(item, view.nodes);
  if (!place) return { why: `the list does not show ${quote(name)} once, with its whole order` };
  const end = placeIndex(to, place.of);
  if (end === null) return { why: `the list has ${place.of} items, no ${placeWord(to)} place` };
  if (place.at === end) return { did: `${quote(name)} is already ${placeWord(to)}` };
  const up = place.at > end;
  if (!place.selected) {
    const [method, args] = item.list === undefined ? (['click', []] as const) : (['selectOption', [name]] as const);
    if (!(await actOnNode(r, place.node, method, [...args], `select ${quote(name)}`, reasoning, view.url))) return { why: `${quote(name)} went away` };
    await r.settle();
    view = await look(r, r.instruction);
    place = placeOf(item, view.nodes);
    if (!place?.selected) return { why: `${quote(name)} did not become the one selected item` };
  }
  let presses = 0;
  while (place.at !== end) {
    const button = moveButton(view.nodes, up);
    if (!button || presses >= place.of) return { why: `${quote(name)} stopped at place ${place.at + 1} of ${place.of}` };
    if (!(await actOnNode(r, button, 'click', [], `click ${quote(button.name)}`, reasoning, view.url))) return { why: 'the button went away' };
    presses++;
    await r.settle();
    view = await look(r, r.instruction);
    const next = placeOf(item, view.nodes);
    if (!next || next.at !== place.at + (up ? -1 : 1)) return { why: `pressed ${quote(button.name)}, but ${quote(name)} did not move one place` };
    place = next;
  }
  const where = to === 'first' ? 'the top' : to === 'last' ? 'the bottom' : `place ${to}`;
  return { did: `moved ${quote(name)} to ${where} (${presses} press${presses === 1 ? '' : 'es'})` };
}

/** The most targets one "each" step clicks. */
const EACH_MAX = 30;
const NUMBERED = new Set(['button', 'clickable', 'link', 'cell', 'gridcell', 'option', 'listitem', 'menuitem', 'tab']);
const ITEMS = new Set(['article', 'listitem', 'row', 'group', 'region', 'figure', 'treeitem']);

/** A word and its plural or singular ("cats" finds "cat's guide" and "Cats and houseplants"). */
function mentions(text: string, what: string): boolean {
  const ws = normalize(what).split(' ').filter(Boolean);
  const word = (w: string) => new RegExp(`\\b${w.replace(/(?:es|s)$/i, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:s|es)?\\b`, 'i');
  return ws.length > 0 && ws.every((w) => word(w).test(normalize(text)));
}

/** The targets an "each" step clicks, in order; a string saying why when the page does not settle them. */
function eachTargets(each: Each, nodes: OutlineNode[]): OutlineNode[] | string {
  if (each.order || each.pick) {
    const nums = nodes
      .filter((n) => n.id && NUMBERED.has(n.role) && n.states.disabled !== true && /^\s*[-+]?\d+(?:\.\d+)?\s*$/.test(n.name))
      .map((n) => ({ n, v: Number(n.name) }));
    if (!nums.length) return 'the page shows no targets named by a number';
    if (each.order) {
      if (nums.length > EACH_MAX) return `the page shows ${nums.length} numbers, more than ${EACH_MAX}`;
      return [...nums].sort((a, b) => (each.order === 'asc' ? a.v - b.v : b.v - a.v) || a.n.index - b.n.index).map((x) => x.n);
    }
    const fit =
      each.pick === 'odd'
        ? nums.filter((x) => Number.isInteger(x.v) && Math.abs(x.v % 2) === 1)
        : each.pick === 'even'
          ? nums.filter((x) => Number.isInteger(x.v) && x.v % 2 === 0)
          : nums.filter((x) => x.v === (each.pick === 'max' ? Math.max(...nums.map((y) => y.v)) : Math.min(...nums.map((y) => y.v))));
    const which = each.pick === 'max' ? 'greatest' : each.pick === 'min' ? 'least' : each.pick;
    const ones = fit.length > 1 ? `s (${fit.map((x) => x.n.name).join(', ')})` : '';
    if (fit.length !== 1) return `${fit.length || 'no'} numbers on the page are the ${which} one${ones}`;
    return [fit[0].n];
  }
  if (each.mention) {
    const roles = new Set(each.roles ?? []);
    const hits = nodes.filter((n) => n.id && roles.has(n.role) && n.states.disabled !== true && mentions(n.name, each.mention!));
    if (!hits.length) return `no ${[...roles][0] ?? 'target'} on the page mentions ${quote(each.mention)}`;
    if (hits.length > EACH_MAX) return `${hits.length} targets mention ${quote(each.mention)}, more than ${EACH_MAX}`;
    // A box already ticked stays ticked.
    return hits.filter((n) => !(n.role === 'checkbox' && n.states.checked === true));
  }
  if (each.all) {
    // Controls of those roles ("everything" takes what only listens for clicks too); never one disabled or ticked.
    const roles = new Set(each.all);
    const hits = nodes.filter(
      (n) => n.id && roles.has(n.role) && n.states.disabled !== true && n.states.checked !== true && n.states.checked !== 'true' && n.states.pressed !== true,
    );
    if (!hits.length) return `the page shows no ${each.all.join(' or ')} to click`;
    return hits.length > EACH_MAX ? `the page shows ${hits.length} of them, more than ${EACH_MAX}` : hits;
  }
  if (each.classify === 'parity') return parityTargets(nodes);
  if (each.shade) return shadeTargets(each.shade, nodes);
  if (each.by && each.verb) {
    const inner = blocksBy(each.by, nodes);
    if (!inner.length) return `no post, message or item on the page is by ${quote(each.by)}`;
    const out: OutlineNode[] = [];
    for (const item of inner) {
      const controls = item.controls.filter((n) => named(n, each.verb!, each.by));
      if (controls.length !== 1) {
        const has = `${controls.length || 'no'} ${quote(each.verb)} control${controls.length === 1 ? '' : 's'}`;
        return `the item by ${quote(each.by)} ${quote(clip(item.text, 40))} has ${has}`;
      }
      out.push(controls[0]);
    }
    if (each.one && out.length !== 1) return `${out.length} items are by ${quote(each.by)}`;
    if (each.count !== undefined) {
      if (out.length < each.count) return `it asks for ${each.count} items by ${quote(each.by)}, and the page shows ${out.length}`;
      return out.slice(0, each.count);
    }
    return out.length > EACH_MAX ? `${out.length} items, more than ${EACH_MAX}` : out;
  }
  return 'it names no set of targets';
}

/**
 * The items by `by`: boxes the outline shows (a box that takes clicks and holds controls of its
 * own is one too, a message row built of divs), else blocks the page draws flat (items.ts).
 */
function blocksBy(by: string, nodes: OutlineNode[]): ItemBlock[] {
  const boxes = itemsBy(by, nodes, (n) => ITEMS.has(n.role) || (n.role === 'clickable' && n.children.some((c) => !!c.id)));
  if (!boxes.length) return flatItemsBy(by, nodes);
  return boxes.map((b) => blockOf(b, nodes));
}

/** A box of the outline as an item: its own words and the controls inside it. */
const blockOf = (box: OutlineNode, nodes: OutlineNode[]): ItemBlock => ({
  text: ownText(box),
  controls: nodes.filter((n) => n.id && isInside(n, box) && ITEM_CONTROL_ROLES.has(n.role)),
  lines: nodes.filter((n) => isInside(n, box)),
});

/**
 * "Mark the numbers as odd or even": in each item with an Odd and an Even control, the one its
 * number calls for. Every such item must show exactly one whole number.
 */
/**
 * The tiles drawn in a shade of `hue`, named by their colour (namefrom=inferred). A tile whose colour has a name of
 * its own that may or may not be that hue ("pink" beside reds, a "light gray" that may be a pale blue) makes the set
 * a guess: refused.
 */
function shadeTargets(hue: string, nodes: OutlineNode[]): OutlineNode[] | string {
  const family = SHADES[hue]!;
  const are = anyOf(family.are);
  const maybe = anyOf([...family.maybe, ...NEUTRAL_SHADES]);
  const tiles = nodes.filter((n) => n.id && n.nameFrom === 'inferred' && anyOf(COLOUR_WORDS).test(n.name));
  const unsure = tiles.find((n) => !are.test(n.name) && maybe.test(n.name));
  if (unsure) return `whether ${quote(unsure.name)} is a shade of ${hue} is not known (its colour has a name of its own)`;
  const hits = tiles.filter((n) => are.test(n.name));
  if (!hits.length) return `nothing on the page is drawn in a shade of ${hue}`;
  return hits.length > EACH_MAX ? `${hits.length} tiles are shades of ${hue}, more than ${EACH_MAX}` : hits;
}

/**
 * Numbers drawn flat, each between its own pair of controls ("[Odd] 7 [Even]"): in reading order, a line that is one
 * number right between an Odd and an Even control. Every Odd and Even control on the page must pair with one number,
 * or the pairing is not known and none is made.
 */
function bracketed(nodes: OutlineNode[]): ItemBlock[] {
  const seq = nodes.filter((n) => n.id || (n.role === 'text' && n.name.trim()));
  const parity = (n: OutlineNode | undefined) => !!n?.id && (named(n, 'odd') || named(n, 'even'));
  const out: ItemBlock[] = [];
  for (let i = 1; i + 1 < seq.length; i++) {
    const [before, line, after] = [seq[i - 1]!, seq[i]!, seq[i + 1]!];
    if (line.id || !/^[-−]?\d+$/.test(line.name.trim()) || !parity(before) || !parity(after)) continue;
    if (named(before, 'odd') === named(after, 'odd')) continue;
    out.push({ text: line.name.trim(), controls: [before, after], lines: [before, line, after] });
  }
  const all = nodes.filter((n) => parity(n));
  return out.length && out.length * 2 === all.length ? out : [];
}

function parityTargets(nodes: OutlineNode[]): OutlineNode[] | string {
  const pick = (blocks: ItemBlock[]) => blocks.filter((b) => b.controls.some((c) => named(c, 'odd')) && b.controls.some((c) => named(c, 'even')));
  // Boxes the outline shows (rows, list items), the innermost that hold both controls; else blocks drawn flat.
  const held = nodes.filter((n) => ITEMS.has(n.role) && pick([blockOf(n, nodes)]).length);
  const boxes = held.filter((b) => !held.some((o) => o !== b && isInside(o, b))).map((b) => blockOf(b, nodes));
  const between = boxes.length ? [] : bracketed(nodes);
  const items = boxes.length ? boxes : between.length ? between : pick(allFlatItems(nodes));
  if (!items.length) return 'the page shows no numbers with Odd and Even controls';
  const out: OutlineNode[] = [];
  for (const item of items) {
    const nums = item.text.match(/[-−]?\d+(?:\.\d+)?/g) ?? [];
    if (nums.length !== 1 || /\./.test(nums[0]))
      return `${quote(clip(item.text, 40))} shows ${nums.length === 1 ? 'no whole number' : `${nums.length} numbers`}`;
    const odd = Math.abs(Number(nums[0].replace('−', '-'))) % 2 === 1;
    const controls = item.controls.filter((c) => named(c, odd ? 'odd' : 'even'));
    if (controls.length !== 1) return `${quote(clip(item.text, 40))} has ${controls.length} ${odd ? 'Odd' : 'Even'} controls`;
    out.push(controls[0]);
  }
  return out.length > EACH_MAX ? `${out.length} numbers, more than ${EACH_MAX}` : out;
}

/** The one item's "more" control, when it is the only item by `by` and shows no `verb` control: its menu may hold it. */
function moreOf(each: Each, nodes: OutlineNode[]): OutlineNode | null {
  if (!each.by || !each.verb || !each.one) return null;
  const inner = blocksBy(each.by, nodes);
  if (inner.length !== 1 || inner[0].controls.some((n) => named(n, each.verb!))) return null;
  const more = inner[0].controls.filter((n) => MORE_NAMES.some((w) => named(n, w)));
  return more.length === 1 ? more[0] : null;
}

/** An item's own words: its name and its text lines, not its controls'. */
const ownText = (box: OutlineNode): string => [box.name, ...box.children.filter((c) => !c.id).map((c) => c.name)].join(' ');

/** The innermost items (of the kinds `kind` admits) whose own words name `by` ("Kim", "@jane"); a list that holds them all is not one. */
function itemsBy(by: string, nodes: OutlineNode[], kind: (n: OutlineNode) => boolean): OutlineNode[] {
  const items = nodes.filter((n) => kind(n) && isBy(by, ownText(n)));
  return items.filter((b) => !items.some((o) => o !== b && isInside(o, b)));
}

/** What opens the one item (message, post, row) by or about `by`: the item when it takes clicks, else its one link. */
function itemToOpen(by: string, nodes: OutlineNode[]): OutlineNode | string {
  const inner = itemsBy(by, nodes, (n) => ITEMS.has(n.role) || n.role === 'clickable' || n.role === 'link');
  if (inner.length !== 1) return `${inner.length || 'no'} items on the page are by ${quote(by)}`;
  const item = inner[0];
  if (item.id && (item.role === 'clickable' || item.role === 'link' || item.states.clickable === true)) return item;
  const links = nodes.filter((n) => n.id && n.role === 'link' && isInside(n, item));
  return links.length === 1 ? links[0] : `the item by ${quote(by)} has no single control that opens it`;
}

/**
 * Why clicking several links in turn cannot work: one that goes to another page takes the rest
 * away with it. Null when they all stay on this page (a "#" link, a script's link).
 */
function leavingLinks(set: OutlineNode[], url: string): string | null {
  if (set.length < 2) return null;
  let here: URL;
  try {
    here = new URL(url);
  } catch {
    return null;
  }
  for (const n of set) {
    const href = typeof n.states.href === 'string' ? n.states.href : '';
    if (n.role !== 'link' || !href || href.startsWith('#') || /^javascript:/i.test(href)) continue;
    try {
      const to = new URL(href, here);
      if (to.origin !== here.origin || to.pathname !== here.pathname || to.search !== here.search) {
        return `${quote(n.name)} leads to another page, which would take the other ${set.length - 1} away`;
      }
    } catch {
      /* an unreadable href stays on the page as far as anyone knows */
    }
  }
  return null;
}

/**
 * Whether a control is called `verb`: its name, what its glyph means, or the words on its face. On an item by `by`, its
 * name may go on to say whom it acts on ("Mute @rex" on a post by @rex).
 */
function named(n: OutlineNode, verb: string, by?: string): boolean {
  if (exactMatch(n.name, verb) || glyphWords(n.name).split(' ').includes(verb.toLowerCase())) return true;
  if (by) {
    const name = n.name.trim();
    const who = by.replace(/^@/, '').toLowerCase();
    for (const tail of [` @${who}`, ` ${who}`]) if (name.toLowerCase().endsWith(tail) && exactMatch(name.slice(0, -tail.length), verb)) return true;
  }
  return n.children.some((c) => !c.id && c.role === 'text' && exactMatch(c.name, verb));
}

/** The most month pages a calendar is turned to reach a date. */
const CALENDAR_MAX = 36;
/** A calendar's controls that turn to the next month, and to the previous one. */
const TO_NEXT_MONTH = oneOf(NEXT_MONTH);
const TO_PREVIOUS_MONTH = oneOf(PREVIOUS_MONTH);
/** Roles a calendar's days take. */
const DAY_ROLES = new Set(['link', 'button', 'clickable', 'cell', 'gridcell']);

/**
 * Set a read-only date field through the calendar it opens: click the field, turn the months
 * with the calendar's next and previous controls until its heading shows the month, click the
 * day, and check the field took a value.
 */
async function pickDate(r: Run, field: OutlineNode, date: { y: number; m: number; d: number }, view0: View, reasoning: string): Promise<{ why?: string }> {
  const label = fieldLabel(field) || 'the date field';
  if (!(await actOnNode(r, field, 'click', [], `open the calendar of ${quote(label)}`, reasoning, view0.url))) return { why: 'the date field went away' };
  const wantIndex = date.y * 12 + date.m;
  for (let k = 0; k < CALENDAR_MAX; k++) {
    if (r.signal.aborted) return { why: 'cancelled' };
    await r.settle();
    const v = await look(r, r.instruction);
    // The month on show: the one "Month YYYY" heading or text line.
    const shown = new Set<number>();
    for (const n of v.nodes) {
      if (n.id && n.role !== 'heading') continue;
      const m = /\b([A-Za-z]{3,9})\.?\s+(\d{4})\b/.exec(n.name);
      if (m && monthOf(m[1]) && n.name.length <= 40) shown.add(Number(m[2]) * 12 + monthOf(m[1]) - 1);
    }
    if (shown.size !== 1) return { why: shown.size ? 'the calendar shows several months' : 'no calendar with a month heading opened' };
    const at = [...shown][0];
    if (at === wantIndex) {
      // A day is named by its number, or by its whole date ("June 14, 2024", as many calendars label them).
      const isDay = (n: OutlineNode): boolean => {
        if (n.name.trim() === String(date.d)) return true;
        const p = parseDate(n.name.replace(/^[A-Za-z]+,\s+/, ''));
        return !!p && p.y === date.y && p.m === date.m && p.d === date.d;
      };
      const days = v.nodes.filter((n) => n.id && DAY_ROLES.has(n.role) && n.states.disabled !== true && isDay(n));
      if (days.length !== 1) return { why: `the calendar shows ${days.length || 'no'} days numbered ${date.d}` };
      if (!(await actOnNode(r, days[0], 'click', [], `click ${date.d}`, reasoning, v.url))) return { why: 'the day went away' };
      await r.settle();
      const after = await look(r, r.instruction);
      // The same element (ids last across looks); by its name when the calendar redrew the field.
      const now = after.nodes.find((n) => n.id === field.id) ?? after.nodes.find((n) => n.role === field.role && n.name && n.name === field.name);
      return now && typeof now.states.value === 'string' && now.states.value ? {} : { why: 'the date field is still empty after clicking the day' };
    }
    const forward = at < wantIndex;
    const turn = v.nodes.filter(
      (n) => n.id && ['button', 'link', 'clickable'].includes(n.role) && (forward ? TO_NEXT_MONTH : TO_PREVIOUS_MONTH).test(n.name.trim()),
    );
    if (turn.length !== 1) return { why: `the calendar has ${turn.length || 'no'} ${forward ? 'next' : 'previous'} month controls` };
    const why = `${reasoning}: turn to ${forward ? 'the next' : 'the previous'} month`;
    if (!(await actOnNode(r, turn[0], 'click', [], `click ${quote(turn[0].name)}`, why, v.url))) return { why: 'the calendar went away' };
  }
  return { why: `the date is more than ${CALENDAR_MAX} months away` };
}

/** "enter "42" into the slider", "... into the 2nd slider": (1) the value, (2) which slider. */
const INTO_SLIDER = /^enter\s+"(-?\d+(?:\.\d+)?)"\s+into\s+the\s+(?:(\w+)\s+)?slider$/i;
/** The most key presses a slider is given to reach a value. */
const SLIDE_MAX = 500;

/** The handle of a slider the page draws with no ARIA (its look names it "slider handle"), and the value said for it. */
function plainSlider(say: string, nodes: OutlineNode[]): { handle: OutlineNode; index: number; want: number } | null {
  const m = INTO_SLIDER.exec(say.trim());
  if (!m || nodes.some((n) => n.role === 'slider')) return null;
  const handles = sliderHandles(nodes);
  const k = m[2] ? ordinalOf(m[2]) : handles.length === 1 ? 1 : null;
  const index = k === 'last' ? handles.length - 1 : typeof k === 'number' ? k - 1 : -1;
  const handle = handles[index];
  return handle ? { handle, index, want: Number(m[1]) } : null;
}
const sliderHandles = (nodes: OutlineNode[]) => nodes.filter((n) => n.id && n.role === 'clickable' && n.nameFrom === 'inferred' && /\bslider\b/i.test(n.name));

/** The number a slider's handle shows beside it: the first line after it, before the next control, that is only a number. */
function shownBeside(handle: OutlineNode, nodes: OutlineNode[]): number | null {
  const at = nodes.indexOf(handle);
  for (const n of nodes.slice(at + 1)) {
    if (n.id && n.role !== 'text') return null;
    if (/^-?\d+(?:\.\d+)?$/.test(n.name.trim())) return Number(n.name.trim());
  }
  return null;
}

/**
 * Move a slider's handle with its keys to the value said: Home, then one step right to learn the step from the value it
 * shows beside it, then as many steps as are left, checked against the value shown. A slider that shows no value, or
 * does not reach it, is a refusal.
 */
async function slideTo(r: Run, handle: OutlineNode, index: number, want: number, reasoning: string): Promise<{ did: string } | { why: string }> {
  const name = quote(handle.name);
  let view = await look(r, r.instruction);
  // Found again by its place among the page's slider handles, each time the page is read.
  const find = () => sliderHandles(view.nodes)[index] ?? null;
  const press = async (key: string, times: number): Promise<number | null> => {
    for (let k = 0; k < times; k++) {
      if (r.signal.aborted) return null;
      const h = find();
      if (!h || !(await actOnNode(r, h, 'press', [key], `press ${key} on ${name}`, reasoning, view.url))) return null;
    }
    await r.settle();
    view = await look(r, r.instruction);
    const h = find();
    return h ? shownBeside(h, view.nodes) : null;
  };
  const low = await press('Home', 1);
  if (low === null) return { why: `the slider ${name} shows no value beside it to move by` };
  if (want < low) return { why: `the slider ${name} starts at ${low}, above ${want}` };
  let at = want === low ? low : await press('ArrowRight', 1);
  if (at === null) return { why: `the slider ${name} went away` };
  const step = at - low;
  if (want !== low && step <= 0) return { why: `the slider ${name} did not move on its arrow key` };
  for (let tries = 0; at !== want && tries < 3; tries++) {
    const n = Math.round((want - at) / step);
    if (!n || Math.abs(n) > SLIDE_MAX) break;
    const next = await press(n > 0 ? 'ArrowRight' : 'ArrowLeft', Math.abs(n));
    if (next === null) return { why: `the slider ${name} went away` };
    at = next;
  }
  return at === want ? { did: `moved ${name} to ${want} with its keys` } : { why: `the slider ${name} shows ${at}, not ${want}` };
}

/** The most step-button presses a spinner is given to reach a value. */
const SPIN_MAX = 50;

/**
 * Set an ARIA spinner by pressing its increase or decrease button (the ones beside it), or with none to be seen its arrow
 * keys, as many times as the difference, then check the value it shows.
 */
async function spinTo(r: Run, node: OutlineNode, wanted: string, view: View, reasoning: string): Promise<{ why?: string }> {
  const want = Number(wanted);
  const now = Number(node.states.value);
  if (!Number.isFinite(want) || !Number.isFinite(now)) {
    return { why: `the spinner ${quote(node.name)} shows no number to step from, or ${quote(wanted)} is not a number` };
  }
  const delta = want - now;
  if (delta === 0) return {};
  if (Math.abs(delta) > SPIN_MAX) return { why: `the spinner would need ${Math.abs(delta)} presses, more than ${SPIN_MAX}` };
  const sibs = node.parent?.children ?? [];
  const up = new RegExp(`^(?:${either(STEP_UP)})\\b|^\\+$`, 'i');
  const down = new RegExp(`^(?:${either(STEP_DOWN)})\\b|^[-−–]$`, 'i');
  const by = sibs.filter((n) => n.id && (n.role === 'button' || n.role === 'clickable') && (delta > 0 ? up : down).test(n.name.trim()));
  if (by.length > 1) return { why: `the spinner ${quote(node.name)} has several ${delta > 0 ? 'increase' : 'decrease'} buttons beside it` };
  // No button beside it to see (a widget's own are hidden from the accessibility tree): its arrow keys, as a spinner takes them.
  const key = delta > 0 ? 'ArrowUp' : 'ArrowDown';
  for (let k = 0; k < Math.abs(delta); k++) {
    if (r.signal.aborted) return { why: 'cancelled' };
    const [target, method, args, said] = by.length
      ? ([by[0]!, 'click', [], `click ${quote(by[0]!.name)}`] as const)
      : ([node, 'press', [key], `press ${key} in ${quote(node.name)}`] as const);
    const pressed = await actOnNode(r, target, method, [...args], said, `${reasoning}: ${k + 1} of ${Math.abs(delta)}`, view.url);
    if (!pressed) return { why: by.length ? 'the spinner button went away' : 'the spinner went away' };
  }
  await r.settle();
  const after = await look(r, r.instruction);
  const shown = after.nodes.find((n) => n.role === 'spinbutton' && n.name === node.name);
  if (!shown || Number(shown.states.value) !== want) {
    return { why: `after ${Math.abs(delta)} presses the spinner shows ${quote(String(shown?.states.value ?? 'nothing'))}, not ${quote(wanted)}` };
  }
  return {};
}

/** How long a step may wait for the number it is conditioned on, and how often the page is read meanwhile. */
const WATCH_MS = 30_000;
const WATCH_EVERY_MS = 200;

const holds = (c: Condition, v: number): boolean => compares(c.op, v, c.value);

/** The box a "once the checkbox is ticked" condition watches, or why there is not exactly one. */
function boxOf(c: Condition, nodes: OutlineNode[]): OutlineNode | string {
  try {
    const words = c.subject
      .replace(/\b(?:check ?box|box|tick ?box|switch|toggle)\b/gi, ' ')
      .replace(/^\s*the\s+/i, '')
      .trim();
    const p = choose(parseIntent(words ? `check the ${quote(words).slice(1, -1)} checkbox` : 'check the checkbox'), nodes);
    return p.node && CHECKABLE.has(p.node.role) ? p.node : `${quote(c.subject)} is not a box that can be ticked`;
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    return `no single box ${quote(c.subject)} shows (${e.message})`;
  }
}

/** Why the page cannot answer a condition now (null when it can). */
function conditionUnread(c: Condition, nodes: OutlineNode[]): string | null {
  if (c.kind === 'checked') {
    const box = boxOf(c, nodes);
    return typeof box === 'string' ? box : null;
  }
  return numberOf(c.subject, nodes, c.currency) ? null : `the page shows no single number for ${quote(c.subject)}`;
}

/** A pause the instruction asked for, ended early by cancelling. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
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

/** For how many rounds of reading the page a watched number must stay the same, on average, for a click at its value to be sure. */
const STEADY_READS = 10;

/**
 * Why a watched number moves too fast to act at (null when it does not): it changed between every
 * two reads (how fast is not known), or on average sooner than STEADY_READS rounds of reading.
 * The click lands a while after the value was read (the step is grounded and sent); a ticker
 * that moves meanwhile makes the click a gamble on its value.
 */
function tooFast(everyRead: boolean, changes: number[], spanMs: number, roundMs: number): string | null {
  if (!changes.length) return null;
  if (everyRead) return 'changed at every read of the page';
  // From the first change seen to the last (the watch began somewhere inside a step), or the whole watch for one.
  const every = changes.length > 1 ? (changes.at(-1)! - changes[0]!) / (changes.length - 1) : spanMs;
  return every < STEADY_READS * roundMs ? `changes about every ${Math.round(every)} ms` : null;
}

/** Reads the page until the condition holds (then the step runs), or the deadline passes. */
async function watch(r: Run, c: Condition, set: (v: View) => void): Promise<{ did: string } | { why: string }> {
  const until = Date.now() + WATCH_MS;
  const start = Date.now();
  let last: string | null = null;
  let reads = 0;
  /** When each change was seen. */
  const changes: number[] = [];
  /** Why the number, holding at the last read, moved too fast to act at. */
  let fast: string | null = null;
  const tooFastWhy = (f: string) => ({ why: `${quote(c.subject)} ${f}: the click would not surely land while ${quote(c.text)} holds` });
  for (;;) {
    if (r.signal.aborted) return { why: 'cancelled while waiting' };
    const asked = performance.now();
    const v = await look(r, r.instruction);
    const lookMs = performance.now() - asked;
    set(v);
    const t0 = performance.now();
    let seen: { value: number; shown: string } | null;
    if (c.kind === 'checked') {
      const box = boxOf(c, v.nodes);
      const ticked = typeof box !== 'string' && box.states.checked === true;
      seen = typeof box === 'string' ? null : { value: ticked ? 1 : 0, shown: `${box.name || box.role} ${ticked ? 'checked' : 'not checked'}` };
    } else seen = numberOf(c.subject, v.nodes, c.currency);
    r.clock.ms += performance.now() - t0;
    if (!seen) {
      return { why: c.kind === 'checked' ? `the box ${quote(c.subject)} went away` : `the page no longer shows a single number for ${quote(c.subject)}` };
    }
    reads++;
    if (last !== null && seen.shown !== last) changes.push(Date.now());
    last = seen.shown;
    // A number that holds at once is read twice more first: how fast it moves is not known from one read.
    if (holds(c, seen.value) && (c.kind !== 'number' || reads >= 3)) {
      const round = WATCH_EVERY_MS + lookMs;
      const everyRead = reads >= 3 && changes.length === reads - 1;
      fast = c.kind === 'number' ? tooFast(everyRead, changes, Date.now() - start, round) : null;
      if (fast && everyRead) return tooFastWhy(fast);
      // Moving, but not at every read: acted on once it has stayed for as long as a fast one could not (a value that loaded late).
      if (!fast || Date.now() - changes.at(-1)! >= STEADY_READS * round) return { did: `waited until ${quote(c.text)} (the page showed ${quote(seen.shown)})` };
    } else fast = null;
    if (Date.now() >= until) {
      if (fast) return tooFastWhy(fast);
      return { why: `waited ${WATCH_MS / 1000} s for ${quote(c.text)}; the page still showed ${quote(last)}` };
    }
    await new Promise((res) => setTimeout(res, WATCH_EVERY_MS));
  }
}

/** A suggestion that is what was typed, or begins with it ("Berlin" fits "Berlin, Germany"). */
function suggestionFor(typed: string, prefix: boolean): (name: string) => boolean {
  const t = normalize(typed);
  return (name) => {
    const n = normalize(name);
    return n === t || (prefix && t.length >= 3 && n.startsWith(t));
  };
}

const OUTSIDE_RESULTS = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'menu', 'menubar', 'tablist', 'toolbar']);
const PAGE_CONTROL = oneOf(PAGER);
const TO_NEXT_PAGE = oneOf(NEXT_PAGE);

function under(n: OutlineNode, roles: ReadonlySet<string>): OutlineNode | null {
  for (let p = n.parent; p; p = p.parent) if (roles.has(p.role)) return p;
  return null;
}

/**
 * The results a page lists: links after its search box (if it has one), outside navigation,
 * headers, footers and sidebars, not page numbers; one per list item or article.
 */
function resultsOf(nodes: OutlineNode[]): OutlineNode[] {
  const box = nodes.find((n) => n.id && (n.role === 'searchbox' || n.role === 'textbox' || n.role === 'combobox'));
  const from = box ? box.index : -1;
  const seen = new Set<OutlineNode>();
  const out: OutlineNode[] = [];
  for (const n of nodes) {
    if (!n.id || n.role !== 'link' || n.index <= from || under(n, OUTSIDE_RESULTS) || PAGE_CONTROL.test(n.name.trim())) continue;
    const item = under(n, new Set(['listitem', 'article', 'row']));
    if (item) {
      if (seen.has(item)) continue;
      seen.add(item);
    }
    out.push(n);
  }
  return out;
}

/** The pager's control to the next page, if the page shows one that is not disabled. */
const nextPageOf = (nodes: OutlineNode[]) =>
  nodes.find((n) => n.id && (n.role === 'link' || n.role === 'button') && TO_NEXT_PAGE.test(n.name.trim()) && n.states.disabled !== true);

/** How many pages of records are turned looking for one person. */
const RECORD_PAGES = 20;

/**
 * Click a field's control in a person's record ("her phone number"), turning the pages of the list until a page shows
 * the record; a page that stays the same after the turn is the last.
 */
async function clickRecordField(r: StepRunner, s: PlanStep, set: (v: View) => void, current: () => View): Promise<string | { why: string }> {
  const { who, field } = s.record!;
  const seen = new Set<string>();
  for (let pages = 1; pages <= RECORD_PAGES; pages++) {
    const nodes = current().nodes;
    const found = findRecord(nodes, who);
    if (found && 'why' in found) return found;
    if (found) {
      const c = fieldControl(found.lines, field);
      if ('why' in c) return c;
      const clicked = await actOnNode(r, c, 'click', [], s.say, `the ${field} in the record of ${quote(who)}`, current().url);
      return clicked ? `${s.say} (${quote(c.name)})` : { why: `the ${field} went away before it could be clicked` };
    }
    seen.add(current().text);
    const next = nextPageOf(nodes);
    if (!next) return { why: `no record is named ${quote(who)} on the ${pages} page${pages === 1 ? '' : 's'} the list has` };
    if (!(await actOnNode(r, next, 'click', [], `click ${quote(next.name)}`, `no record of ${quote(who)} on this page: the next`, current().url))) break;
    await r.settle();
    set(await look(r, r.instruction));
    if (seen.has(current().text)) return { why: `no record is named ${quote(who)} on the ${pages} pages the list has` };
  }
  return { why: `no record named ${quote(who)} in the first ${RECORD_PAGES} pages` };
}

/** Click the nth result of the page's results, going on to later result pages when the page has fewer. */
async function clickResult(r: StepRunner, s: PlanStep, set: (v: View) => void, current: () => View): Promise<string | { why: string }> {
  let left = s.result!;
  let counted = 0;
  for (let pages = 0; pages < 6; pages++) {
    const rs = resultsOf(current().nodes);
    if (left === -1 && rs.length) left = rs.length;
    if (left > 0 && left <= rs.length) {
      const target = rs[left - 1];
      const clicked = await actOnNode(r, target, 'click', [], s.say, `result ${counted + left} of the list`, current().url);
      if (!clicked) return { why: 'the result went away before it could be clicked' };
      return `${s.say} (${quote(target.name)})`;
    }
    left -= rs.length;
    counted += rs.length;
    const next = nextPageOf(current().nodes);
    if (!next || !rs.length) break;
    const why = `result ${s.result} is past the ${counted} on this page: the next page`;
    if (!(await actOnNode(r, next, 'click', [], `click ${quote(next.name)}`, why, current().url))) break;
    await r.settle();
    set(await look(r, r.instruction));
  }
  return { why: `the page lists ${counted} result${counted === 1 ? '' : 's'}, fewer than ${s.result}` };
}

/** What closes a dialog without accepting anything in it, most certain first. */
const CLOSERS = [oneOf(CLOSE_NAMES), /^close\b|\bdismiss\b/i, oneOf(DECLINE_NAMES)];

/**
 * A pop-up that took the form away: since the look before, a text field that took typing is disabled, and new controls
 * showed up, one of them (and only one) a control that closes or declines. That control, or null. One that accepts
 * ("OK", "Exit") is never it: it may do what the pop-up asks.
 */
function interruption(before: OutlineNode[], now: OutlineNode[]): OutlineNode | null {
  const was = new Map(before.flatMap((n) => (n.id ? [[n.id, n] as const] : [])));
  const disabled = now.some((n) => n.id && TEXT_ROLES.has(n.role) && n.states.disabled === true && was.has(n.id) && was.get(n.id)!.states.disabled !== true);
  if (!disabled) return null;
  const fresh = now.filter((n) => n.id && !was.has(n.id) && (n.role === 'button' || n.role === 'link') && n.states.disabled !== true);
  const closers = fresh.filter((n) => CLOSERS.some((re) => re.test(n.name.trim())));
  return closers.length === 1 ? closers[0]! : null;
}

/** Close the dialog that popped up over the page by its close control; false when there is none. */
async function closeDialog(r: Run, view: View): Promise<boolean> {
  const dialogs = new Set(['dialog', 'alertdialog']);
  const inDialog = view.nodes.filter(
    (n) => n.id && (n.role === 'button' || n.role === 'clickable' || n.role === 'link') && under(n, dialogs) && n.states.disabled !== true,
  );
  for (const re of CLOSERS) {
    const closer = inDialog.find((n) => re.test(n.name.trim()));
    if (!closer) continue;
    const closed = await actOnNode(
      r,
      closer,
      'click',
      [],
      `close the dialog (${quote(closer.name)})`,
      'a dialog covers the control the step needs',
      view.url,
    ).catch(() => null);
    return !!closed;
  }
  return false;
}

/** Roles of the items of a suggestion list (ARIA listboxes, jQuery UI menus, plain lists). */
const SUGGESTION_ROLES = new Set(['option', 'menuitem', 'listitem', 'clickable']);
const LISTS = new Set(['listbox', 'menu', 'list']);

/**
 * After typing: click the one suggestion `fits` accepts. `loose` allows list items and
 * clickable rows of any list (plain autocomplete widgets); otherwise only ARIA options. Controls
 * in `shownBefore` (ids shown before the typing) are not suggestions. Null when none or several fit.
 */
async function pickSuggestion(
  r: StepRunner,
  fits: (name: string) => boolean,
  loose: boolean,
  any = false,
  shownBefore?: ReadonlySet<string>,
): Promise<string | null> {
  for (let attempt = 0; attempt < 4; attempt++) {
    const v = await look(r, r.instruction);
    const inList = (n: OutlineNode) => {
      for (let p = n.parent; p; p = p.parent) if (LISTS.has(p.role)) return true;
      return false;
    };
    const options = v.nodes.filter(
      (n) => n.id && !shownBefore?.has(n.id) && (n.role === 'option' || (loose && SUGGESTION_ROLES.has(n.role) && inList(n))) && fits(n.name),
    );
    const names = new Set(options.map((o) => normalize(o.name)));
    if (options.length && (names.size === 1 || any)) {
      const option = options[0];
      const why = 'pick the suggestion that fits what was typed';
      if (!(await actOnNode(r, option, 'click', [], `click the suggestion ${quote(option.name)}`, why, v.url))) return null;
      return `picked the suggestion ${quote(option.name)}`;
    }
    if (names.size > 1) return null;
    // Suggestions often come after a short debounce.
    await new Promise((res) => setTimeout(res, 150));
  }
  return null;
}
