import { McpTools } from '../../protocol/mcp';
import { approvalOf, cacheOf, withSession } from '../session-state';
import { costOf, defineTool, text } from './tool';

export default defineTool({
  name: 'act',
  title: 'Act',
  description:
    'Do one thing on the page, described in plain language: "click the Sign in button", "type \\"hello\\" into the search box", ' +
    '"select France from the country dropdown". One action per call.',
  // It changes the page (may submit a form or delete a row), and pages reach the web.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  inputSchema: McpTools.act.input,
  outputSchema: McpTools.act.output,
  handler: async (st, { action, approval }, call) => {
    const a = approvalOf(st, approval, call);
    const r = await withSession(st, (s, signal) => s.dh.act(action, { ...cacheOf(st), ...a, signal }), call);
    const t = r.data.success ? `Done: ${r.data.message}.` : `Nothing was done: ${r.data.message}`;
    return {
      ...text(t, { success: r.data.success, message: r.data.message, actions: r.data.actions, cache: r.metadata.cache.status, ...costOf(r.metadata) }),
      ...(r.data.success ? {} : { isError: true }),
    };
  },
});
