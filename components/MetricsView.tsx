/** The session's token and time counters, as a compact table; what was spent and saved in dollars, in the summary. */
import type { Metrics } from '../src/protocol/schemas';

const OPS = ['act', 'observe', 'extract', 'total'] as const;
const COLS = [
  ['PromptTokens', 'In'],
  ['CompletionTokens', 'Out'],
  ['ReasoningTokens', 'Reas.'],
  ['CachedInputTokens', 'Cached'],
  ['InferenceTimeMs', 'ms'],
] as const;

const fmt = (n: number) => (n >= 10_000 ? `${(n / 1000).toFixed(n >= 100_000 ? 0 : 1)}k` : String(Math.round(n)));
const usd = (n: number) => `$${n >= 1 ? n.toFixed(2) : Number(n.toPrecision(2))}`;

export function MetricsView({ metrics }: { metrics: Metrics | null }) {
  return (
    <details className="metrics" data-testid="metrics">
      <summary>
        Session metrics
        {metrics ? (
          <span className="muted">
            {' '}
            · {fmt(metrics.totalPromptTokens + metrics.totalCompletionTokens)} tokens
            {metrics.totalCostUsd > 0 ? <span data-metric-summary="totalCostUsd"> · {usd(metrics.totalCostUsd)}</span> : null}
            {metrics.totalCacheSavedCostUsd > 0 ? (
              <span data-metric-summary="totalCacheSavedCostUsd"> · {usd(metrics.totalCacheSavedCostUsd)} saved by the cache</span>
            ) : null}
          </span>
        ) : null}
      </summary>
      {metrics ? (
        <table>
          <thead>
            <tr>
              <th />
              {COLS.map(([, label]) => (
                <th key={label}>{label}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {OPS.map((op) => (
              <tr key={op} className={op === 'total' ? 'total' : undefined}>
                <th>{op}</th>
                {COLS.map(([key]) => {
                  const name = `${op}${key}` as keyof Metrics;
                  return (
                    <td key={key} data-metric={name} title={`${name}: ${metrics[name]}`}>
                      {fmt(metrics[name])}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">Not available yet.</p>
      )}
    </details>
  );
}
