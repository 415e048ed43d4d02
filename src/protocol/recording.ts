/**
 * The manual QA recording the side panel keeps and exports, and that named flows (flows.ts)
 * carry: what the person asked for and what was actually performed, step by step.
 */
import { z } from 'zod';
import { ActionSchema } from './schemas';

/** One step of a manual QA recording: what the person asked for and what was actually performed. */
export const QaStepSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('goto'), id: z.string(), description: z.string(), url: z.string(), urlAfter: z.string() }).strict(),
    /** Actions performed for an instruction (act, an observed action that was run, an agent's act step). */
    z.object({ kind: z.literal('act'), id: z.string(), description: z.string(), actions: z.array(ActionSchema).min(1), urlAfter: z.string() }).strict(),
    /** Keys pressed on whatever had focus (the agent's press tool). */
    z.object({ kind: z.literal('press'), id: z.string(), description: z.string(), keys: z.string(), urlAfter: z.string() }).strict(),
    z.object({ kind: z.literal('back'), id: z.string(), description: z.string(), urlAfter: z.string() }).strict(),
    z.object({ kind: z.literal('wait'), id: z.string(), description: z.string(), ms: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER) }).strict(),
    /** Data pulled out of the page; exported scripts extract again, Playwright tests cannot. */
    z
      .object({
        kind: z.literal('extract'),
        id: z.string(),
        description: z.string(),
        schema: z.record(z.unknown()).optional(),
        data: z.unknown(),
        urlAfter: z.string(),
      })
      .strict(),
  ])
  .describe(
    'one recorded step; its kind says which fields it has: goto (url), act (actions: the Actions performed, arguments with %name% placeholders), ' +
      'press (keys, pressed on whatever had focus), back, wait (ms) and extract (schema, data); ' +
      "every kind but wait has urlAfter, the page's URL after the step",
  );
export type QaStep = z.infer<typeof QaStepSchema>;

export const QaRecordingSchema = z
  .object({
    version: z.literal(1),
    title: z.string(),
    startUrl: z.string().describe('the page the recording starts on'),
    steps: z.array(QaStepSchema),
  })
  .strict()
  .describe('what a person asked for and what was actually performed, step by step, as the side panel records and exports it');
export type QaRecording = z.infer<typeof QaRecordingSchema>;

/** One recorded agent step, as far as a recording needs it (protocol/agent.ts has the whole shape). */
interface AgentStepLike {
  tool: string;
  args: Record<string, unknown>;
  actions?: z.infer<typeof ActionSchema>[];
}

/**
 * An agent run's recorded steps as recording steps: what it performed, not what it looked at.
 * Coordinate tools (click_at, type_at, drag), extract and done are left out: they cannot be
 * replayed without a model. `finalUrl` goes on the last step.
 */
export function qaStepsFromAgent(steps: AgentStepLike[], newId: () => string, finalUrl: string): QaStep[] {
  const out: QaStep[] = [];
  for (const s of steps) {
    const a = s.args;
    if (s.tool === 'act' && s.actions?.length)
      out.push({ kind: 'act', id: newId(), description: String(a.instruction ?? s.actions[0].description), actions: s.actions, urlAfter: '' });
    else if (s.tool === 'goto') out.push({ kind: 'goto', id: newId(), description: `Open ${a.url}`, url: String(a.url), urlAfter: String(a.url) });
    else if (s.tool === 'press')
      out.push({ kind: 'press', id: newId(), description: `Press ${a.keys ?? 'Enter'}`, keys: String(a.keys ?? 'Enter'), urlAfter: '' });
    else if (s.tool === 'back') out.push({ kind: 'back', id: newId(), description: 'Go back', urlAfter: '' });
    else if (s.tool === 'wait')
      out.push({ kind: 'wait', id: newId(), description: `Wait ${a.ms ?? 1000} ms`, ms: Math.max(0, Math.round(Number(a.ms ?? 1000))) });
    else if (s.tool === 'scroll') {
      const method = a.direction === 'up' ? 'prevChunk' : 'nextChunk';
      out.push({
        kind: 'act',
        id: newId(),
        description: `Scroll ${a.direction === 'up' ? 'up' : 'down'}`,
        actions: [{ selector: 'html', description: 'the page', method, arguments: [] }],
        urlAfter: '',
      });
    }
  }
  const last = out.at(-1);
  if (last && 'urlAfter' in last) last.urlAfter = finalUrl;
  return out;
}
