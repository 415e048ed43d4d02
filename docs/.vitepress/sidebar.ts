/**
 * The site's navigation as plain data: config.ts gives it to VitePress, and
 * test/unit/docs-site.test.ts checks that every page it names exists (or is generated).
 */
export interface Item {
  text: string;
  link: string;
}
export interface Section {
  text: string;
  /** Where the top navigation bar's entry for this section leads. */
  link: string;
  items: Item[];
}

export const sections: Section[] = [
  {
    text: 'Start',
    link: '/start/install',
    items: [
      { text: 'Overview', link: '/' },
      { text: 'Install', link: '/start/install' },
      { text: 'A first script', link: '/start/first-script' },
      { text: 'The side panel', link: '/start/side-panel' },
      { text: 'MCP in a desktop host', link: '/start/mcp-desktop' },
    ],
  },
  {
    text: 'Guides',
    link: '/guides/act-observe-extract',
    items: [
      { text: 'Act, observe, extract', link: '/guides/act-observe-extract' },
      { text: 'Models', link: '/guides/models' },
      { text: 'The agent', link: '/guides/agent' },
      { text: 'The result cache', link: '/guides/cache' },
      { text: 'Flows: record and replay', link: '/guides/flows' },
      { text: 'experimentalBatch', link: '/guides/batch' },
      { text: 'Pages and locators', link: '/guides/pages-and-locators' },
      { text: 'The page snapshot', link: '/guides/snapshot' },
      { text: "A page's own tools (WebMCP)", link: '/guides/page-tools' },
      { text: 'Earlier calls', link: '/guides/earlier-calls' },
      { text: 'The HTTP service', link: '/guides/http-service' },
      { text: 'The MCP server', link: '/guides/mcp-server' },
      { text: 'The side panel', link: '/guides/side-panel' },
      { text: 'Approval of risky steps', link: '/guides/approval' },
      { text: 'Attach to your own Chrome', link: '/guides/attach' },
      { text: 'Many browsers', link: '/guides/many-browsers' },
      { text: 'A fleet on Kubernetes', link: '/guides/kubernetes' },
      { text: 'Security for operators', link: '/guides/security' },
      { text: 'Python', link: '/guides/python' },
      { text: 'Go', link: '/guides/go' },
      { text: 'Errors', link: '/guides/errors' },
      { text: 'Development', link: '/guides/development' },
    ],
  },
  {
    text: 'Reference',
    link: '/reference/',
    items: [
      { text: 'Overview', link: '/reference/' },
      { text: 'TypeScript API', link: '/reference/typescript/' },
      { text: 'HTTP API', link: '/reference/http' },
      { text: 'MCP tools', link: '/reference/mcp' },
      { text: 'Error codes', link: '/reference/errors' },
      { text: 'CLI', link: '/reference/cli' },
      { text: 'Python', link: '/reference/python' },
      { text: 'Go', link: '/reference/go' },
    ],
  },
  {
    text: 'Architecture',
    link: '/architecture',
    items: [{ text: 'Architecture', link: '/architecture' }],
  },
  {
    text: 'Benchmarks',
    link: '/benchmarks',
    items: [{ text: 'Benchmarks', link: '/benchmarks' }],
  },
];

/** The Markdown file (relative to docs/) a sidebar link names: '/x/' is x/index.md, '/x' is x.md. */
export function pageFile(link: string): string {
  const path = link.replace(/^\//, '').replace(/#.*$/, '');
  return path === '' || path.endsWith('/') ? `${path}index.md` : `${path}.md`;
}
