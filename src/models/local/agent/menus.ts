/**
 * Menus: what counts as a menu's item, a menu path checked before it is followed, the page's one menu opener, and an item
 * looked for through every menu (menu bars drawn as plain buttons too).
 */
import { clip, quote } from '../../../protocol/text';
import { parseIntent } from '../act';
import { isInside, type OutlineNode } from '../outline';
import type { PlanStep } from '../plan';
import { SECRET_NOUNS } from '../words/secrets';
import { coverage, normalize } from '../text';
import { either, oneOf } from '../words/grammar';
import { APP_MENU_NAMES, MENU_OPENER_NAMES, SECRET_ITEM_WORDS } from '../words/menus';
import { type View, look, type Outcome, actOnNode, type Run, pause } from './run';
import { WATCH_EVERY_MS } from './watch';

const MENUS = new Set(['menubar', 'menu', 'navigation']);
/** How many more looks (WATCH_EVERY_MS × 2 apart) a hover gets to bring up its submenu before its item is clicked instead. */
export const HOVER_LATE_LOOKS = 3;

/** A menu's item: a menuitem, or a target inside a menu bar, menu or navigation. */
export function menuLike(n: OutlineNode): boolean {
  if (n.role === 'menuitem') return true;
  for (let p = n.parent; p; p = p.parent) if (MENUS.has(p.role)) return true;
  return false;
}

/** The index of a menu path's last step: the steps after `i` that a hover opens, and the one after the last hover. */
export function pathEnd(plan: PlanStep[], i: number): number {
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
export async function notInMenu(r: Run, item: OutlineNode, rest: PlanStep[]): Promise<string | null> {
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

const MENU_OPENER = oneOf(MENU_OPENER_NAMES);
export const OPENER_ROLES = new Set(['button', 'clickable', 'link', 'menuitem']);

/**
 * The page's one control that opens a menu: one that says it does (a button with a popup, closed),
 * else one named as a menu's opener ("Menu", "☰", "+") or by the menu's kind ("Pie menu").
 */
export function menuOpener(kind: string | undefined, nodes: OutlineNode[]): OutlineNode | string {
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

/**
 * The item a click step names ("click on the item labeled "Stop"") when the page shows a menu with submenus of its own to
 * look through for it, else null: only a click, only by a name (an item of that very name), only where a menu item opens a menu.
 */
export function submenuItem(say: string, nodes: OutlineNode[]): string | null {
  const intent = (() => {
    try {
      return parseIntent(say);
    } catch {
      return null;
    }
  })();
  if (!intent || intent.method !== 'click' || intent.context || intent.within || intent.ordinal !== undefined) return null;
  const name = intent.quoted ?? intent.target;
  if (!name.trim() || !submenuOpeners(nodes).some((n) => n.role === 'menuitem' || menuLike(n))) return null;
  return name;
}
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
export function looseBar(nodes: OutlineNode[]): OutlineNode[] {
  if (menuOpeners(nodes).length) return [];
  const rows = buttonRows(nodes);
  return rows.length === 1 ? rows[0]! : [];
}
/** Openers of menus: those marked so or drawn with an arrow, and a plain menu bar's menus. */
export const menuOpeners = (nodes: OutlineNode[]) => [...new Set([...submenuOpeners(nodes), ...barMenus(nodes)])];
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
export async function menuFindStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const { target, click, exact: exactOnly } = step.menuFind!;
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
    if (exact.length === 1 || (fit.length === 1 && !exactOnly)) return (exact[0] ?? fit[0])!;
    // A plain click by name takes only the item of that name, as it would on the page; others that hold the words are no fit.
    if (exactOnly) return exact.length > 1 ? `${exact.length} items are named ${quote(target)}` : null;
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
        // A submenu may open a moment after the hover (jQuery UI waits 300 ms): looked for again before a click.
        for (let k = 0; k < HOVER_LATE_LOOKS && ![...shown()].some((key) => !before.has(key)); k++) {
          await pause(WATCH_EVERY_MS * 2, r.signal);
          set(await look(r, r.instruction));
        }
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
export async function openMenuStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
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
