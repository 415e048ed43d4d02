import { McpTools } from '../../protocol/mcp';
import { cacheOf, withSession } from '../session-state';
import { defineTool, text } from './tool';

export default defineTool({
  name: 'extract',
  title: 'Extract',
  description: "Read information from the page. With an instruction, the text that answers it; without one, the page's text outline.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  inputSchema: McpTools.extract.input,
  outputSchema: McpTools.extract.output,
  handler: async (st, { instruction }, call) => {
    const extraction = await withSession(
      st,
      async (s, signal) =>
        instruction ? (await s.dh.extract(instruction, undefined, { ...cacheOf(st), signal })).data.extraction : (await (await s.dh.context.activePage()).snapshot()).text,
      call,
    );
    return text(extraction, { extraction });
  },
});
