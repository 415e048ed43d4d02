import { McpTools } from '../../protocol/mcp';
import { cacheOf, withSession } from '../session-state';
import { costOf, defineTool, text } from './tool';

export default defineTool({
  name: 'extract',
  title: 'Extract',
  description: "Read information from the page. With an instruction, the text that answers it; without one, the page's text outline.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  inputSchema: McpTools.extract.input,
  outputSchema: McpTools.extract.output,
  handler: async (st, { instruction }, call) => {
    const { extraction, cost } = await withSession(
      st,
      async (s, signal) => {
        if (!instruction) return { extraction: (await (await s.dh.context.activePage()).snapshot()).text, cost: {} };
        const r = await s.dh.extract(instruction, undefined, { ...cacheOf(st), signal });
        return { extraction: r.data.extraction, cost: costOf(r.metadata) };
      },
      call,
    );
    return text(extraction, { extraction, ...cost });
  },
});
