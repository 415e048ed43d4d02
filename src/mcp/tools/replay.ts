import { McpTools } from '../../protocol/mcp';
import { withSession } from '../session-state';
import { defineTool, text } from './tool';

export default defineTool({
  name: 'replay',
  title: 'Replay a flow',
  description:
    "Replay a saved flow by name, with no model: the steps a person recorded in the side panel (or a flow stored for this key), from the flow's start page, " +
    'with values for its %name% placeholders. ' +
    'A step that no longer applies stops the replay with an error naming the step, unless selfHeal lets the model find it again.',
  // It performs recorded steps (may submit a form), on pages of the web.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  inputSchema: McpTools.replay.input,
  outputSchema: McpTools.replay.output,
  handler: async (st, { name, variables, selfHeal }, call) => {
    const r = await withSession(
      st,
      (s, signal) => s.dh.replay(name, { signal, ...(variables ? { variables } : {}), ...(selfHeal ? { selfHeal: true } : {}) }),
      call,
    );
    const lines = r.steps.map((s, i) => `${i + 1}. ${s.description} (${s.status})`);
    return text(`Replayed flow "${r.name}" (${r.steps.length} step${r.steps.length === 1 ? '' : 's'}), now at ${r.url}:\n${lines.join('\n')}`, {
      name: r.name,
      url: r.url,
      steps: r.steps,
      usage: r.usage,
    });
  },
});
