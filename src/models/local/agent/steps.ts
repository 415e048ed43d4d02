/**
 * The tables runPlan dispatches by: the steps carried out whole, and what each needs on the page before anything runs;
 * and whether a grounded step may bring up what a later step needs.
 */
import type { Pick } from '../act';
import type { OutlineNode } from '../outline';
import type { PlanStep } from '../plan';
import { sortTarget } from '../sorting';
import { drawButton } from '../draws';
import { tripFields } from '../trips';
import { either } from '../words/grammar';
import { ONWARD_WORDS } from '../words/menus';
import { type Clock, type WholeStep, whyNot } from './run';
import { starFor, rateStep } from './pickers';
import { scrollerOf, scrollFindStep, nextSlideOf, slideFindStep } from './finding';
import { menuLike, menuOpener, looseBar, menuOpeners, menuFindStep, openMenuStep } from './menus';
import { searchFields } from './search';
import { dragTarget, sortStep, namedTarget, resizeStep, holdStep } from './drags';
import { dragSet, dragEachStep } from './pieces';
import { sizedDragStep, sizedThings } from './sized';
import { rightClickPlace, rightClickStep, movingCandidates, movingStep, drawingsOf, spotStep, coordStep } from './pointing';
import { gameNotReady, guessControls, guessNumber, drawStep, playGame } from './games';
import { secretStep, revealStep } from './secrets';
import { dialogOf, dismissStep, popupClosers, dismissAllStep, consentBoxes, consentGiven, goOnControl, consentStep } from './dialogs';
import { doorsOf, mazeStep, riverPlan, riverStep, hanoiNotReady, hanoiStep, terminalField, removeFileStep } from './puzzles';
import { orderLines, orderStep } from './lists';

/** Controls a text step may change the page through (a suggestion list, a section opening). */
const CHANGES_PAGE = new Set(['click', 'check', 'uncheck', 'selectOption', 'press', 'doubleClick', 'rightClick', 'dragAndDrop', 'hover']);

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
export function reveals(pick: Pick, step: PlanStep): boolean {
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

/** The steps carried out whole, by the field of the plan step that asks for each. */
export const WHOLE_STEPS: readonly [keyof PlanStep, WholeStep][] = [
  ['dragEach', dragEachStep],
  ['dragSized', sizedDragStep],
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

/**
 * What a step carried out whole needs on the page before anything runs, and what it leaves for
 * the steps after it: 'changes' (it may change what the page shows: later steps are grounded
 * when they run) or 'runs on' (the run's last step: nothing after it is checked).
 */
export const READY_CHECKS: readonly [keyof PlanStep, (s: PlanStep, nodes: OutlineNode[], clock: Clock) => string | null, 'changes' | 'runs on'][] = [
  ['searchForm', (s, nodes) => whyNot(searchFields(s.searchForm!, nodes)), 'changes'],
  ['trip', (s, nodes) => whyNot(tripFields(s.trip!, nodes)), 'changes'],
  ['drag', (s, nodes, clock) => whyNot(dragTarget(s.drag!, nodes, clock)), 'changes'],
  ['dragEach', (s, nodes, clock) => whyNot(dragSet(s.dragEach!, nodes, clock)), 'changes'],
  ['dragSized', (s, nodes) => (sizedThings(s.dragSized!, nodes) ? null : `the page shows nothing to drag that is a ${s.dragSized!.what}`), 'changes'],
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
