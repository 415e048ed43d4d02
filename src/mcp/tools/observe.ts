import { McpTools } from '../../protocol/mcp';
import { cacheOf, withSession } from '../session-state';
import { costOf, defineTool, text } from './tool';

export default defineTool({
  name: 'observe',
  title: 'Observe',
  description: 'Find the elements on the page that match a description and say how to act on each (best match first).',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  inputSchema: McpTools.observe.input,
  outputSchema: McpTools.observe.output,
  handler: async (st, { instruction }, call) => {
    const r = await withSession(st, (s, signal) => s.dh.observe(instruction, { ...cacheOf(st), signal }), call);
    const lines = r.data.map((a, i) => `${i + 1}. ${a.description} (${a.method ?? 'click'}${a.arguments?.length ? ` ${JSON.stringify(a.arguments)}` : ''})`);
    return text(lines.length ? `Found ${lines.length}:\n${lines.join('\n')}` : 'Nothing on the page matches that.', {
      elements: r.data,
      ...costOf(r.metadata),
    });
  },
});
