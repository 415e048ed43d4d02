import { McpTools } from '../../protocol/mcp';
import { withSession } from '../session-state';
import { defineTool, text } from './tool';

export default defineTool({
  name: 'flows',
  title: 'List saved flows',
  description:
    "The flows saved in this session browser's side panel, newest first: each one's name, title, number of steps and start page. " +
    'Replay one with the replay tool.',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  inputSchema: McpTools.flows.input,
  outputSchema: McpTools.flows.output,
  handler: async (st, _args, call) => {
    const flows = await withSession(st, (s) => s.dh.flows.list(), call);
    const lines = flows.map((f) => `- "${f.name}": ${f.steps} step${f.steps === 1 ? '' : 's'} from ${f.startUrl} (saved ${f.savedAt})`);
    return text(flows.length ? `${flows.length} saved flow${flows.length === 1 ? '' : 's'}:\n${lines.join('\n')}` : 'No flows are saved in this browser.', {
      flows,
    });
  },
});
