import { McpTools } from '../../protocol/mcp';
import { withSession } from '../session-state';
import { defineTool, text } from './tool';

export default defineTool({
  name: 'navigate',
  title: 'Navigate',
  description: 'Open a URL in the browser (absolute, with http:// or https://). Waits for the page to load.',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  inputSchema: McpTools.navigate.input,
  outputSchema: McpTools.navigate.output,
  handler: async (st, { url }, call) => {
    const info = await withSession(st, async (s, signal) => (await s.dh.context.activePage()).goto(url, { signal }), call);
    return text(`Opened ${info.url} ("${info.title}").`, { url: info.url, title: info.title });
  },
});
