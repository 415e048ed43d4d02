/** Type an instruction, choose what to run, watch it happen. */
import { useRef, useState, type KeyboardEvent } from 'react';
import type { PanelSession, PanelState, RunKind } from '../src/panel/session';
import { MetricsView } from './MetricsView';
import { Timeline } from './Timeline';

const KINDS: { id: RunKind; label: string; placeholder: string }[] = [
  { id: 'act', label: 'Act', placeholder: 'Do one thing, e.g. "click Create account"' },
  { id: 'observe', label: 'Observe', placeholder: 'Find elements, e.g. "the sign-up form fields"' },
  { id: 'extract', label: 'Extract', placeholder: 'Pull data out, e.g. "the price of each product"' },
  { id: 'agent', label: 'Agent', placeholder: 'A whole task, e.g. "sign up as Ada with ada@example.com"' },
];

export function RunView({ session, state }: { session: PanelSession; state: PanelState }) {
  const [kind, setKind] = useState<RunKind>('act');
  const [text, setText] = useState('');
  const [schema, setSchema] = useState('');
  const input = useRef<HTMLTextAreaElement>(null);
  const running = !!state.running;
  const meta = KINDS.find((k) => k.id === kind)!;

  const run = () => {
    if (running) return;
    void session.run(kind, text, kind === 'extract' ? schema : undefined);
    input.current?.select();
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter runs; Shift+Enter is a new line.
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      run();
    }
  };

  return (
    <div className="run">
      <div className="segmented" role="radiogroup" aria-label="What to run">
        {KINDS.map((k) => (
          <button key={k.id} role="radio" aria-checked={kind === k.id} onClick={() => setKind(k.id)} data-testid={`kind-${k.id}`}>
            {k.label}
          </button>
        ))}
      </div>
      <textarea
        ref={input}
        className="instruction"
        rows={2}
        value={text}
        placeholder={meta.placeholder}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKey}
        aria-label="Instruction"
        data-testid="instruction"
        autoFocus
      />
      {kind === 'extract' && (
        <details className="schema" open={!!schema}>
          <summary>JSON Schema (optional)</summary>
          <textarea
            rows={5}
            value={schema}
            spellCheck={false}
            placeholder='{"type":"object","properties":{"title":{"type":"string"}}}'
            onChange={(e) => setSchema(e.target.value)}
            aria-label="JSON Schema"
            data-testid="schema"
          />
        </details>
      )}
      <div className="actions">
        {running ? (
          <button className="danger" onClick={() => void session.stop()} data-testid="stop">
            Stop <kbd>Esc</kbd>
          </button>
        ) : (
          <button className="primary" onClick={run} data-testid="run">
            Run {meta.label.toLowerCase()} <kbd>↵</kbd>
          </button>
        )}
        {state.entries.length > 0 && !running && (
          <button className="quiet" onClick={() => session.clearTimeline()}>
            Clear
          </button>
        )}
      </div>
      {state.entries.length === 0 ? (
        <div className="empty" data-testid="empty">
          <p>Nothing run yet.</p>
          <p className="muted">
            Type an instruction and press Enter. The built-in model works offline, and its agent carries out tasks of several plain steps; add a provider in
            Settings for harder pages and open-ended tasks.
          </p>
        </div>
      ) : (
        <Timeline session={session} entries={state.entries} />
      )}
      <MetricsView metrics={state.metrics} />
    </div>
  );
}
