/**
 * Approval of risky steps (protocol/approval.ts). A call that asked for approval runs with a
 * Gate, carried by its signal (core/gate.ts) so that every action it makes (act, the agent's
 * steps, a batch's calls, a replay) is checked in one place: performAction and goto ask the gate
 * before any input goes out. A step that matches the policy waits for a decision; anything but "approve" is a
 * NOT_APPROVED refusal and nothing is done. Time spent waiting on a person does not count
 * towards the call's own deadlines (heldMs).
 */
import {
  APPROVAL_DEFAULT_TIMEOUT_MS,
  type ApprovalAnswer,
  type ApprovalDecision,
  type ApprovalKind,
  type ApprovalPolicy,
  type ApprovalRequest,
  type ApprovalSettled,
  type RiskFacts,
} from '../../protocol/approval';
import { DeckhandError, ErrorCode } from '../../protocol/errors';
import { maskValues } from '../../protocol/variables';
import { throwIfCancelled } from '../core/cancel';
import type { ActionGate, ApprovalAsker, GatedStep } from '../ports';

/** Methods that change something (a hover, a scroll or a focus never needs approval). */
const GATED: ReadonlySet<string> = new Set([
  'click',
  'doubleClick',
  'rightClick',
  'fill',
  'type',
  'press',
  'selectOption',
  'check',
  'uncheck',
  'dragAndDrop',
  'callTool',
]);
/** Methods that activate the element (submit, delete, pay apply to these); a page's tool is called like a button pressed. */
const ACTIVATES: ReadonlySet<string> = new Set(['click', 'doubleClick', 'check', 'uncheck', 'callTool']);

// Words, matched whole and in any case, on what the element says.
const anyOf = (words: string[]) => new RegExp(`\\b(${words.join('|')})\\b`, 'i');
const DELETE_WORDS = anyOf([
  'delete',
  'remove',
  'trash',
  'erase',
  'discard',
  'destroy',
  'wipe',
  'unsubscribe',
  'deactivate',
  'close (my )?account',
  'cancel (my )?(account|subscription|membership|order)',
]);
const PAY_WORDS = anyOf([
  'pay',
  'payment',
  'buy',
  'purchase',
  'checkout',
  'check out',
  'place (my |your )?order',
  'order now',
  'complete (my |your )?order',
  'confirm (my |your )?order',
  'subscribe',
  'donate',
  'book now',
]);
const SUBMIT_WORDS = /\b(submit|send|sign ?up|register|log ?in|sign ?in|confirm|apply|save|post|publish)\b/i;

/** The host a person would call the site: lower case, without a leading www. */
function siteOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    return u.hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
}

const wordRe = (w: string) => new RegExp(`(^|[^\\p{L}\\p{N}])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}\\p{N}])`, 'iu');

/**
 * The kinds of risk an action matches under `policy`, with the caller's words that matched.
 * `facts` is null for a goto (no element); `target` is then the URL.
 */
export function classify(
  policy: ApprovalPolicy,
  step: { method: string; args: string[]; pageUrl: string; facts: RiskFacts | null; target?: string; instruction?: string },
): { kinds: ApprovalRequest['kinds']; words: string[]; target?: string } {
  const want = new Set<ApprovalKind>(policy.when ?? []);
  const kinds = new Set<ApprovalRequest['kinds'][number]>();
  const f = step.facts;
  const here = siteOf(step.pageUrl);
  let target = step.target;
  if (step.method === 'goto') {
    const there = siteOf(step.target);
    if (want.has('leave-site') && there && here && there !== here) kinds.add('leave-site');
  } else if (!f) {
    // The page could not say what the step does: it waits for approval rather than going ahead unchecked.
    for (const k of want) kinds.add(k);
  } else {
    const activates = ACTIVATES.has(step.method) || (step.method === 'press' && /(^|\+)(Enter|Space| )$/i.test(step.args[0] ?? ''));
    const enter = step.method === 'press' && /(^|\+)Enter$/i.test(step.args[0] ?? '');
    const said = f.text;
    const submits = (activates && f.submits) || (enter && f.enterSubmits) || (activates && SUBMIT_WORDS.test(said) && isButtonLike(f));
    if (submits && f.formAction) target = f.formAction;
    if (activates && f.href) target = f.href;
    if (want.has('submit') && submits) kinds.add('submit');
    if (want.has('delete') && activates && DELETE_WORDS.test(said)) kinds.add('delete');
    if (want.has('pay') && ((activates && PAY_WORDS.test(said)) || (submits && PAY_WORDS.test(f.formAction ?? '')))) kinds.add('pay');
    if (want.has('upload') && f.file) kinds.add('upload');
    if (want.has('leave-site') && activates) {
      const there = siteOf(f.href ?? (submits ? f.formAction : undefined));
      if (there && here && there !== here) kinds.add('leave-site');
    }
  }
  const words: string[] = [];
  const haystack = [f?.text ?? '', step.instruction ?? '', step.method === 'goto' ? (step.target ?? '') : ''].join('\n');
  for (const w of policy.words ?? []) if (wordRe(w).test(haystack)) words.push(w);
  if (words.length) kinds.add('words');
  return { kinds: [...kinds], words, ...(target ? { target } : {}) };
}

function isButtonLike(f: RiskFacts): boolean {
  return (
    f.tag === 'button' ||
    f.role === 'button' ||
    f.role === 'menuitem' ||
    f.role === 'link' ||
    f.tag === 'a' ||
    (f.tag === 'input' && ['submit', 'button', 'image'].includes(f.type ?? ''))
  );
}

const KIND_WORDS: Record<ApprovalRequest['kinds'][number], string> = {
  submit: 'submits a form',
  delete: 'deletes something',
  pay: 'pays or orders',
  'leave-site': 'leaves the site',
  upload: 'uploads a file',
  words: 'says a word you listed',
};

let requests = 0;

/** One call's approval: its policy, who to ask, and how long it has waited on a person. */
export class Gate implements ActionGate {
  private held = 0;
  private waitingSince: number | null = null;

  constructor(
    readonly policy: ApprovalPolicy,
    private readonly ask: ApprovalAsker,
    private readonly vars: Record<string, { value: string }>,
    private readonly opId?: string,
    /** The call's instruction (act, agent), for the caller's words. */
    readonly instruction?: string,
  ) {}

  /** Time spent waiting for decisions so far, the wait going on now included. */
  heldMs(): number {
    return this.held + (this.waitingSince === null ? 0 : Date.now() - this.waitingSince);
  }

  /** Whether `method` is one a gate ever stops. */
  static gates(method: string): boolean {
    return GATED.has(method) || method === 'goto';
  }

  gates(method: string): boolean {
    return Gate.gates(method);
  }

  /**
   * Check one action; returns when it may go ahead. `describe` names the element as a person reads
   * it. Refused (skip, stop, no answer): NOT_APPROVED, with the decision in `data.decision`.
   */
  async check(step: GatedStep, signal: AbortSignal | undefined): Promise<void> {
    if (!Gate.gates(step.method)) return;
    const m = classify(this.policy, { ...step, instruction: this.instruction });
    if (!m.kinds.length) return;
    const mask = (s: string) => maskValues(s, this.vars);
    const timeout = this.policy.timeout ?? APPROVAL_DEFAULT_TIMEOUT_MS;
    const what = `${step.method}${step.args.length && step.method !== 'goto' ? ` ${JSON.stringify(mask(step.args.join(' ')))}` : ''} on ${mask(step.element)}`;
    const why = m.kinds.map((k) => KIND_WORDS[k]).join(', ');
    const req: ApprovalRequest = {
      id: `ap-${Date.now().toString(36)}-${(++requests).toString(36)}`,
      ...(this.opId ? { opId: this.opId } : {}),
      kinds: m.kinds,
      ...(m.words.length ? { words: m.words } : {}),
      method: step.method,
      arguments: step.args.map(mask),
      element: mask(step.element),
      url: mask(step.pageUrl),
      ...(m.target ? { target: mask(m.target) } : {}),
      summary: `${what} — it ${why}${m.words.length ? ` (${m.words.join(', ')})` : ''}`,
      deadline: Date.now() + timeout,
    };
    throwIfCancelled(signal);
    this.waitingSince = Date.now();
    let answer: Awaited<ReturnType<ApprovalAsker>>;
    try {
      answer = await this.ask(req, signal);
    } finally {
      this.held += Date.now() - (this.waitingSince ?? Date.now());
      this.waitingSince = null;
    }
    throwIfCancelled(signal);
    if (answer?.decision === 'approve') return;
    const decision = answer?.decision ?? 'timeout';
    const said =
      decision === 'timeout' ? `nobody answered within ${timeout} ms` : decision === 'skip' ? `${answer!.by} chose Skip` : `${answer!.by} chose Stop`;
    throw new DeckhandError(ErrorCode.NotApproved, `not approved: ${req.summary}; ${said}, so it was not done`, {
      decision,
      approvalId: req.id,
      kinds: req.kinds,
      ...(answer?.by ? { by: answer.by } : {}),
    });
  }
}

/** Whether an error is a refusal the run should end on (stop, or no answer), rather than a skipped step. */
export function endsRun(e: unknown): boolean {
  return e instanceof DeckhandError && e.code === ErrorCode.NotApproved && (e.data as { decision?: string } | undefined)?.decision !== 'skip';
}

/** One who may answer a request: a side panel, or the caller whose step waits. */
export interface Answerer {
  /** Who it is, when its answer does not say ("the side panel", "the caller"). */
  name: string;
  ask(req: ApprovalRequest): Promise<ApprovalAnswer>;
  /** The request ended (decided by someone, timed out, or its call stopped). */
  settled(s: ApprovalSettled): void;
}

/**
 * The requests waiting now. Each is put to every answerer there is when it starts and to those
 * that come later (a side panel opened meanwhile); the first decision wins, and at the deadline
 * (or when the call stops) it ends with none. Every answerer hears how it ended.
 */
export class ApprovalDesk {
  private readonly pending = new Map<
    string,
    { req: ApprovalRequest; asked: Set<Answerer>; settle: (a: { decision: ApprovalDecision; by: string } | null, why?: 'timeout' | 'cancelled') => void }
  >();

  /** `answerers` is read again for each newcomer (see offer). */
  ask(req: ApprovalRequest, answerers: Answerer[], signal: AbortSignal | undefined): Promise<{ decision: ApprovalDecision; by: string } | null> {
    return new Promise((resolve) => {
      const asked = new Set<Answerer>();
      const timer = setTimeout(() => settle(null, 'timeout'), Math.max(0, req.deadline - Date.now()));
      const onAbort = () => settle(null, 'cancelled');
      const settle = (a: { decision: ApprovalDecision; by: string } | null, why?: 'timeout' | 'cancelled') => {
        if (!this.pending.delete(req.id)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const end: ApprovalSettled = { id: req.id, decision: a?.decision ?? why ?? 'timeout', ...(a ? { by: a.by } : {}) };
        for (const x of asked) {
          try {
            x.settled(end);
          } catch {
            // An answerer that went away.
          }
        }
        resolve(a);
      };
      this.pending.set(req.id, { req, asked, settle });
      signal?.addEventListener('abort', onAbort, { once: true });
      for (const x of answerers) this.put(req.id, x);
    });
  }

  /** Put every waiting request to a newcomer. */
  offer(x: Answerer): void {
    for (const id of [...this.pending.keys()]) this.put(id, x);
  }

  /** A decision that came another way (the HTTP approval endpoint, say); false when no such request waits. */
  decide(id: string, decision: ApprovalDecision, by: string): boolean {
    const p = this.pending.get(id);
    if (!p) return false;
    p.settle({ decision, by });
    return true;
  }

  waiting(): ApprovalRequest[] {
    return [...this.pending.values()].map((p) => p.req);
  }

  private put(id: string, x: Answerer): void {
    const p = this.pending.get(id);
    if (!p || p.asked.has(x)) return;
    p.asked.add(x);
    x.ask(p.req).then(
      (a) => {
        if (a.decision) p.settle({ decision: a.decision, by: a.by ?? x.name });
      },
      () => undefined, // one that cannot answer (gone, no handler) leaves it to the others and the deadline
    );
  }
}
