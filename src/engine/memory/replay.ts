/**
 * The one replay of stored Actions, with no model: act cache hits, agent recordings and the
 * side panel's recordings all run their steps here. A step whose element is gone is re-found
 * from its description (self-healing) when the caller gives a healer; otherwise, or when that
 * fails too, ReplayFailed says why, and the caller decides (compute live, run the agent live,
 * report the step).
 */
import { DeckhandError, ErrorCode } from '../../protocol/errors';
import { addUsage, ZERO_USAGE, type Action, type Usage } from '../../protocol/schemas';
import { performAction } from '../core/actions';
import { substituteArgs } from '../../protocol/variables';
import type { BrowserPort } from '../ports';
import { ReplayFailed } from './replay-failed';
import { locateTarget, TargetChanged } from './targets';

/** A stored step that no longer resolves fails fast, so self-healing or a live run can take over. */
export const REPLAY_STEP_TIMEOUT_MS = 3_000;

export { ReplayFailed };

/** Re-infers one step from an instruction: what it performed and what that cost. */
export type Healer = (instruction: string) => Promise<{ success: boolean; message: string; actions: Action[]; usage: Usage }>;

/** Failures of a stored step that re-inferring it may fix: the element is not where it was. */
export const HEALABLE: ReadonlySet<string> = new Set<string>([
  ErrorCode.ElementNotFound,
  ErrorCode.ElementNotActionable,
  ErrorCode.ElementCovered,
  ErrorCode.InvalidSelector,
]);

/** The instruction that re-finds one stored step from its description. */
export function healInstruction(a: Action): string {
  const arg = a.arguments?.[0];
  switch (a.method) {
    case 'fill':
    case 'type':
      return `type "${arg ?? ''}" into the ${a.description}`;
    case 'selectOption':
      return `select "${arg ?? ''}" from the ${a.description}`;
    case 'check':
    case 'uncheck':
      return `${a.method} the ${a.description}`;
    case 'press':
      return `press ${arg ?? 'Enter'} in the ${a.description}`;
    case 'hover':
      return `hover over the ${a.description}`;
    case 'doubleClick':
      return `double click the ${a.description}`;
    case 'rightClick':
      return `right click the ${a.description}`;
    default:
      return `click the ${a.description}`;
  }
}

/**
 * Perform `stored` in order on `page`, variables (%name%) filled from `vars`. Errors that are
 * not about finding the element (a closed page, a bad argument) propagate as they are.
 */
export async function replayActions(
  port: BrowserPort,
  page: number,
  stored: Action[],
  vars: Record<string, { value: string }>,
  heal: Healer | null,
  stepTimeoutMs = REPLAY_STEP_TIMEOUT_MS,
  /** Stops the replay (the caller cancelled, or went away). */
  signal?: AbortSignal,
  opts: {
    /**
     * Re-infer a step whose recorded element is gone or ambiguous (default). The cache turns it
     * off: such a hit is a miss (target_changed), and the whole instruction is computed afresh.
     */
    healChangedTargets?: boolean;
    /** How long the first step looks for its element (the page is already there). */
    firstWaitMs?: number;
  } = {},
): Promise<{ actions: Action[]; usage: Usage; healed: boolean }> {
  const actions: Action[] = [];
  let usage: Usage = { ...ZERO_USAGE };
  let healed = false;
  const reinfer = async (a: Action, why: string) => {
    if (!heal) throw new ReplayFailed(`step "${a.description}" failed: ${why}`);
    const h = await heal(healInstruction(a));
    usage = addUsage(usage, h.usage);
    if (!h.success || !h.actions.length) throw new ReplayFailed(`step "${a.description}" could not be found again: ${h.message}`);
    actions.push(...h.actions);
    healed = true;
  };
  for (const [i, a] of stored.entries()) {
    let selector = a.selector;
    if (a.target) {
      try {
        const waitMs = i === 0 ? Math.min(stepTimeoutMs, opts.firstWaitMs ?? stepTimeoutMs) : stepTimeoutMs;
        const at = await locateTarget(port, page, { ...a, target: a.target }, waitMs, signal);
        selector = at.selector;
        healed ||= at.moved;
      } catch (e) {
        if (!(e instanceof TargetChanged) || opts.healChangedTargets === false) throw e;
        await reinfer(a, e.message);
        continue;
      }
    }
    try {
      await performAction(port, page, { selector }, a.method, substituteArgs(a.method, a.arguments ?? [], vars), stepTimeoutMs, signal);
      actions.push(selector === a.selector ? a : { ...a, selector });
    } catch (e) {
      if (!(e instanceof DeckhandError) || !HEALABLE.has(e.code)) throw e;
      await reinfer(a, e.message);
    }
  }
  return { actions, usage, healed };
}
