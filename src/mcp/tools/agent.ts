import { McpTools } from '../../protocol/mcp';
import { clip } from '../../protocol/text';
import { approvalOf, withSession } from '../session-state';
import { costOf, defineTool, text } from './tool';

export default defineTool({
  name: 'agent',
  title: 'Agent',
  description:
    'Carry out a task of several steps on the page, described in plain language: "enter the username ada and the password x, then press Log in". ' +
    'With no model configured, the built-in model plans the steps and stops, saying why, at a step it cannot ground; each step is reported as progress.',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  inputSchema: McpTools.agent.input,
  outputSchema: McpTools.agent.output,
  handler: async (st, { instruction, maxSteps, approval }, call) => {
    const { approval: policy, onApproval } = approvalOf(st, approval, call);
    const r = await withSession(
      st,
      (s, signal) =>
        s.dh.agentExecute(
          { agentConfig: {}, executeOptions: { instruction, ...(maxSteps !== undefined ? { maxSteps } : {}), ...(policy ? { approval: policy } : {}) } },
          { signal, ...(onApproval ? { onApproval } : {}) },
        ),
      call,
    );
    const steps = r.result.actions.map((a) => ({ type: a.type, action: a.action, ...(a.result !== undefined ? { result: clip(a.result, 300) } : {}) }));
    const t = `${r.result.success ? 'Done' : 'Not done'}: ${r.result.message}`;
    return {
      ...text(t, { success: r.result.success, completed: r.result.completed, message: r.result.message, steps, ...costOf(r.result.metadata ?? {}) }),
      ...(r.result.success ? {} : { isError: true }),
    };
  },
});
