/**
 * The engine's side of a run by the built-in model's agent (models/local/agent/): the page
 * read as a snapshot with its structured lines, and each step done through the ports, under the
 * run's signal (and so its approval).
 */
import type { StepRunner } from '../../models/local/step-runner';
import { boxOf, clickInside, clickMoving, dragBy, holdOn, performAction, pointNow, pointOf, resizeBy, shapesIn, strokeInside } from '../core/actions';
import { captureSnapshot, selectorsForIds } from '../core/snapshot';
import { evaluate, goto } from '../core/pages';
import { pageToday } from '../core/today';
import { endsRun } from '../people/approval';
import { sleep, type BrowserPort } from '../ports';
import { describeEffect, EffectWatch } from './effect';

/** What the agent's run gives of its own: the act step, the notes and settling belong to its step machinery. */
export interface PlannedRun extends Pick<StepRunner, 'instruction' | 'maxSteps' | 'signal' | 'settle' | 'act' | 'note'> {
  port: BrowserPort;
  page: number;
  /** The operator's URL opt-in for going to a page (protocol/url-policy.ts), as the agent's goto has it. */
  allowSchemes?: readonly string[];
}

/** How much of the page the model reads at each step. */
const SNAPSHOT_BUDGET = 8000;
/** How long a direct action on an element of the outline may wait for it. */
const NODE_ACTION_MS = 5000;
/** How long a moving target may take to be found where it is (it never keeps still: no wait for that). */
const MOVING_MS = 2000;
/** How long the page may take to list the items of a menu. */
const MENU_TEXTS_MS = 3000;
/** How long a step's Back may take to change the address, and how often it is looked at. */
const BACK_MS = 2000;
const BACK_POLL_MS = 100;

export function planSteps(run: PlannedRun): StepRunner {
  const { port, page, signal } = run;
  const effects = new EffectWatch(port, page);
  return {
    instruction: run.instruction,
    maxSteps: run.maxSteps,
    signal,
    settle: run.settle,
    act: run.act,
    note: run.note,
    look: async (focus) => {
      const snap = await captureSnapshot(port, page, { budget: SNAPSHOT_BUDGET, lines: true, ...(focus ? { focus } : {}) });
      return { lines: snap.lines ?? [], text: snap.text, url: snap.url, tools: snap.tools ?? [] };
    },
    selectors: async (ids) => (await selectorsForIds(port, page, ids)).map((s) => s?.selector ?? null),
    perform: (selector, method, args) => performAction(port, page, { selector }, method, args, NODE_ACTION_MS, signal),
    pointOf: (selector) => pointOf(port, page, { selector }, NODE_ACTION_MS, signal),
    boxOf: (selector) => boxOf(port, page, { selector }, NODE_ACTION_MS, signal),
    pointNow: (selector) => pointNow(port, page, { selector }, MOVING_MS, signal),
    clickMoving: (selector) => clickMoving(port, page, { selector }, MOVING_MS, signal),
    dragBy: (selector, move) => dragBy(port, page, { selector }, move, NODE_ACTION_MS, signal),
    resizeBy: (selector, dx, dy) => resizeBy(port, page, { selector }, dx, dy, NODE_ACTION_MS, signal),
    shapesIn: (selector, marks) => shapesIn(port, page, { selector }, NODE_ACTION_MS, signal, marks),
    clickInside: (selector, at) => clickInside(port, page, { selector }, at, NODE_ACTION_MS, signal),
    strokeInside: (selector, points) => strokeInside(port, page, { selector }, points, NODE_ACTION_MS, signal),
    hold: (selector, ms) => holdOn(port, page, { selector }, ms, NODE_ACTION_MS, signal),
    menuTexts: async (selector) =>
      (await port.frameRequest<{ texts: string[] }>(page, 0, { type: 'dh:menuTexts', selector }, MENU_TEXTS_MS).catch(() => ({ texts: [] as string[] }))).texts,
    back: async () => {
      const from = (await port.pageInfo(page)).url;
      await evaluate(port, page, 'history.back()', false, undefined, NODE_ACTION_MS);
      // Back goes on after the call returns: the address is read once it has changed (or the wait is over).
      for (let waited = 0; waited < BACK_MS && !signal?.aborted; waited += BACK_POLL_MS) {
        if ((await port.pageInfo(page)).url !== from) break;
        await sleep(BACK_POLL_MS);
      }
      await run.settle();
      return { url: (await port.pageInfo(page)).url };
    },
    today: () => pageToday(port, page),
    open: async (url) => {
      const info = await goto(port, page, url, {}, run.allowSchemes ?? [], signal);
      return { url: info.url };
    },
    effects: {
      begin: () => effects.begin(),
      end: async (kind) => {
        const e = await effects.end(kind);
        // A click taken by something made to take clicks (a control, a pointer cursor): a target hit, not the space beside it.
        return { shows: e.shows, said: describeEffect(e), taken: e.seen.includes('taken') };
      },
    },
    endsRun,
  };
}
