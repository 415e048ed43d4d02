/**
 * Steps waiting for the person's approval, as the side panel holds them: each request the worker
 * puts to this panel waits here until the person chooses Approve, Skip or Stop, or until the
 * worker says it ended (someone else decided, or nobody did in time). Components read snapshots
 * through `subscribe`/`get`, as with PanelSession.
 */
import type { ApprovalAnswer, ApprovalDecision, ApprovalRequest, ApprovalSettled } from '../protocol/approval';

export interface PendingApproval {
  req: ApprovalRequest;
}

export interface EndedApproval {
  req: ApprovalRequest;
  end: ApprovalSettled;
}

/** The last few that ended, so the person sees what became of a request that vanished. */
const KEEP_ENDED = 5;

export class Approvals {
  private pending: PendingApproval[] = [];
  private ended: EndedApproval[] = [];
  private readonly answers = new Map<string, (a: ApprovalAnswer) => void>();
  private readonly listeners = new Set<() => void>();
  private snapshot = { pending: this.pending, ended: this.ended };

  subscribe = (f: () => void): (() => void) => {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  };
  get = () => this.snapshot;

  /** A request from the worker: answered when the person decides (or null when it ends first). */
  request(req: ApprovalRequest): Promise<ApprovalAnswer> {
    return new Promise((resolve) => {
      this.answers.get(req.id)?.({ decision: null });
      this.answers.set(req.id, resolve);
      this.pending = [...this.pending.filter((p) => p.req.id !== req.id), { req }];
      this.changed();
    });
  }

  decide(id: string, decision: ApprovalDecision): void {
    const answer = this.answers.get(id);
    if (!answer) return;
    this.answers.delete(id);
    answer({ decision, by: 'the person at the side panel' });
  }

  settled(end: ApprovalSettled): void {
    const p = this.pending.find((x) => x.req.id === end.id);
    this.answers.get(end.id)?.({ decision: null });
    this.answers.delete(end.id);
    if (!p) return;
    this.pending = this.pending.filter((x) => x !== p);
    this.ended = [...this.ended, { req: p.req, end }].slice(-KEEP_ENDED);
    this.changed();
  }

  private changed(): void {
    this.snapshot = { pending: this.pending, ended: this.ended };
    for (const f of this.listeners) f();
  }
}
