import { z } from 'zod';
import { withSession } from '../session-state';
import { defineTool, text } from './tool';

export default defineTool({
  name: 'extract',
  title: 'Extract',
  description: "Read information from the page. With an instruction, the text that answers it; without one, the page's text outline.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  inputSchema: { instruction: z.string().optional().describe('what to read, e.g. "the price of the first product"') },
  outputSchema: { extraction: z.string() },
  handler: async (st, { instruction }) => {
    const extraction = await withSession(st, async (s) =>
      instruction ? ((await s.dh.extract(instruction)).data as { extraction: string }).extraction : (await (await s.dh.context.activePage()).snapshot()).text,
    );
    return text(extraction, { extraction });
  },
});
