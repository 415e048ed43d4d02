/**
 * Steps waiting for the person's approval, from any caller (a program, the panel's own run):
 * what will be done, to which element, on which page, why it waits, and until when. Approve
 * carries it out; Skip leaves it undone (an agent hears it was skipped); Stop ends the run.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { Approvals } from '../src/panel/approvals';
import type { ApprovalRequest } from '../src/protocol/approval';

const KIND: Record<ApprovalRequest['kinds'][number], string> = {
  submit: 'submits a form',
  delete: 'deletes something',
  pay: 'pays or orders',
  'leave-site': 'leaves the site',
  upload: 'uploads a file',
  words: 'matches your words',
};
const ENDED: Record<string, string> = {
  approve: 'approved',
  skip: 'skipped',
  stop: 'stopped',
  timeout: 'refused: nobody answered in time',
  cancelled: 'ended: its run stopped',
};

export function ApprovalPrompts({ approvals }: { approvals: Approvals }) {
  const { pending, ended } = useSyncExternalStore(approvals.subscribe, approvals.get);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!pending.length) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [pending.length]);
  if (!pending.length && !ended.length) return null;
  return (
    <section className="approvals" aria-label="Steps waiting for approval">
      {pending.map(({ req }) => (
        <div key={req.id} className="approval" role="alertdialog" aria-labelledby={`ap-${req.id}`} data-testid="approval" data-approval-id={req.id}>
          <h2 id={`ap-${req.id}`}>Approve this step?</h2>
          <p data-testid="approval-summary">{req.summary}</p>
          <dl>
            <dt>Action</dt>
            <dd data-testid="approval-action">
              {req.method}
              {req.arguments.length > 0 && req.method !== 'goto' ? ` “${req.arguments.join(' ')}”` : ''}
            </dd>
            <dt>Element</dt>
            <dd data-testid="approval-element">{req.element}</dd>
            <dt>Why</dt>
            <dd data-testid="approval-kinds">
              {req.kinds.map((k) => KIND[k]).join(', ')}
              {req.words?.length ? ` (${req.words.join(', ')})` : ''}
            </dd>
            <dt>Page</dt>
            <dd>{req.url}</dd>
            {req.target && (
              <>
                <dt>Leads to</dt>
                <dd>{req.target}</dd>
              </>
            )}
            <dt>Waits</dt>
            <dd>{Math.max(0, Math.round((req.deadline - now) / 1000))} s more, then it is refused</dd>
          </dl>
          <div className="choices">
            <button className="primary" data-testid="approval-approve" onClick={() => approvals.decide(req.id, 'approve')}>
              Approve
            </button>
            <button data-testid="approval-skip" onClick={() => approvals.decide(req.id, 'skip')}>
              Skip
            </button>
            <button className="danger" data-testid="approval-stop" onClick={() => approvals.decide(req.id, 'stop')}>
              Stop
            </button>
          </div>
        </div>
      ))}
      {ended.map(({ req, end }) => (
        <p key={req.id} className="approval ended" data-testid="approval-ended" data-decision={end.decision}>
          {req.summary}: {ENDED[end.decision] ?? end.decision}
          {end.by ? ` by ${end.by}` : ''}
        </p>
      ))}
    </section>
  );
}
