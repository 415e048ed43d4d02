import { McpTools } from '../../protocol/mcp';
import { endSession } from '../session-state';
import { defineTool, text } from './tool';

export default defineTool({
  name: 'end',
  title: 'End the browser session',
  description: 'Close the active browser session and its browser.',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  inputSchema: McpTools.end.input,
  outputSchema: McpTools.end.output,
  handler: async (st) => {
    const ended = await endSession(st);
    return text(ended ? 'Ended the browser session.' : 'There was no active browser session.', { ended });
  },
});
