/**
 * Dialogs and pop-ups: one closed by its own close control (or Escape), every pop-up closed, consent given (a box ticked,
 * the control that goes on), and a dialog that covers a control or takes a form away closed without accepting anything.
 */
import { quote } from '../../../protocol/text';
import { isInside, type OutlineNode } from '../outline';
import type { PlanStep } from '../plan';
import { CONSENT_BOXES, GO_BACK_NAMES, GO_ON_NAMES, NOT_CONSENT, SERIES_GO_ON, SERIES_MAX } from '../words/consent';
import { coverage } from '../text';
import { anyOf, oneOf } from '../words/grammar';
import { CLOSE_NAMES, DECLINE_NAMES } from '../words/menus';
import { TEXT_ROLES, type View, look, type Outcome, actOnNode, type Run, pause, under } from './run';
import { WATCH_EVERY_MS } from './watch';

const DIALOGS: ReadonlySet<string> = new Set(['dialog', 'alertdialog']);
/** The dialog an instruction closes: the one its words name (its name or text), or the page's only one. */
export function dialogOf(words: string, nodes: OutlineNode[]): OutlineNode | string {
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
export async function dismissStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
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
export const CLOSE_ROLES: ReadonlySet<string> = new Set(['button', 'link', 'clickable']);

/**
 * The close controls of the pop-ups the page shows: those inside its dialogs when it has any, else the page's controls
 * named only "Close", "×" and the like (a pop-up drawn as a plain box).
 */
export function popupClosers(nodes: OutlineNode[]): OutlineNode[] {
  // Never the × of an item in a list, a row or a tab (a tag's remove, a tab's close): that deletes, it closes no pop-up.
  const closers = nodes.filter(
    (n) => n.id && CLOSE_ROLES.has(n.role) && n.states.disabled !== true && CLOSE_NAME.test(n.name.trim()) && !under(n, ITEM_HOLDERS),
  );
  const inDialogs = closers.filter((n) => under(n, DIALOGS));
  return nodes.some((n) => DIALOGS.has(n.role)) ? inDialogs : closers;
}

/** Close every pop-up by its own close control, one at a time, each close checked; done when none is left. */
export async function dismissAllStep(r: Run, _step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
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
export const consentBoxes = (nodes: OutlineNode[]) =>
  nodes.filter(
    (n) => n.id && (n.role === 'checkbox' || n.role === 'switch') && n.states.checked !== true && n.states.checked !== 'true' && CONSENT_BOX.test(n.name),
  );

/**
 * Proving a person is here, a box the page ticked already ("I am human", checked): the proof given, so what sends it may
 * go on. Never for terms: a form with its terms box ticked is not sent by accepting them.
 */
export const consentGiven = (step: PlanStep, nodes: OutlineNode[]) =>
  step.consent?.kind === 'human' &&
  nodes.some((n) => n.id && (n.role === 'checkbox' || n.role === 'switch') && [true, 'true'].includes(n.states.checked) && CONSENT_BOX.test(n.name));

/** The page's one control that goes on ("I understand", else "Continue"), never one that goes back; or why there is none. */
export function goOnControl(nodes: OutlineNode[], ticked = false, series = false): OutlineNode | string {
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
export async function consentStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
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

/** What closes a dialog without accepting anything in it, most certain first. */
const CLOSERS = [oneOf(CLOSE_NAMES), /^close\b|\bdismiss\b/i, oneOf(DECLINE_NAMES)];

/**
 * A pop-up that took the form away: since the look before, a text field that took typing is disabled, and new controls
 * showed up, one of them (and only one) a control that closes or declines. That control, or null. One that accepts
 * ("OK", "Exit") is never it: it may do what the pop-up asks.
 */
export function interruption(before: OutlineNode[], now: OutlineNode[]): OutlineNode | null {
  const was = new Map(before.flatMap((n) => (n.id ? [[n.id, n] as const] : [])));
  const disabled = now.some((n) => n.id && TEXT_ROLES.has(n.role) && n.states.disabled === true && was.has(n.id) && was.get(n.id)!.states.disabled !== true);
  if (!disabled) return null;
  const fresh = now.filter((n) => n.id && !was.has(n.id) && (n.role === 'button' || n.role === 'link') && n.states.disabled !== true);
  const closers = fresh.filter((n) => CLOSERS.some((re) => re.test(n.name.trim())));
  return closers.length === 1 ? closers[0]! : null;
}

/** Close the dialog that popped up over the page by its close control; false when there is none. */
export async function closeDialog(r: Run, view: View): Promise<boolean> {
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
