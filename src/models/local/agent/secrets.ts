/**
 * Tasks that ask for a secret (a password) the page reveals: the page the task names opened, the secret read once it
 * shows, the page scrolled until it does.
 */
import { quote } from '../../../protocol/text';
import type { OutlineNode } from '../outline';
import type { PlanStep } from '../plan';
import { lineKey, secretsShown, type ScrollWay } from '../secrets';
import { REVEALER_VERBS, SECRET_NOUNS, SEND_NAMES } from '../words/secrets';
import { either, oneOf } from '../words/grammar';
import { type View, look, type Outcome, actOnNode, type Run, pause } from './run';
import { SCROLLS_MAX } from './finding';
import { CLOSE_ROLES } from './dialogs';
import { WATCH_EVERY_MS } from './watch';

/** How long a secret the steps set off may take to show (an animation, a request). */
const SECRET_WAIT_MS = 3000;

/**
 * The page a task names, opened in the run's page (the address as written; a path on the open page's site; a host with
 * no scheme over https), under the operator's URL policy and the call's approval; the page as read there, or why not.
 */
export async function openSite(r: Run, site: string, at: string): Promise<View | string> {
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
export function otherPage(url: string, at: string): string | null {
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
export async function secretStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
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
export const REVEALER = new RegExp(`^\\W*(?:${either(REVEALER_VERBS)})\\s+(?:the\\s+|my\\s+)?(?:${either(SECRET_NOUNS)})\\W*$`, 'i');

const SCROLL_AXES: Readonly<Record<ScrollWay, string>> = { down: 'vertical', right: 'horizontal', both: 'both' };
/** The most scroll areas scrolled at each move of a reveal. */
const AREAS_MAX = 5;

/**
 * Scroll the page (and each of its scroll areas) to its end that way until a secret shows, then read it. The scroll asked
 * for is made even when the page's text holds a secret already: a page may count it, and the end may show another.
 */
export async function revealStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
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
