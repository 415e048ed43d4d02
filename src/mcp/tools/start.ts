import { McpTools } from '../../protocol/mcp';
import { ensureSession } from '../session-state';
import { defineTool, text } from './tool';

export default defineTool({
  name: 'start',
  title: 'Start a browser session',
  description:
    'Start (or reuse) the browser session for this conversation and make it the active one. Other tools start one automatically when none is active.',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  inputSchema: McpTools.start.input,
  outputSchema: McpTools.start.output,
  handler: async (st) => {
    const reused = !!st.session;
    const s = await ensureSession(st);
    return text(`${reused ? 'Reusing' : 'Started'} browser session ${s.id}.`, { sessionId: s.id, reused });
  },
});
