/**
 * The layers of docs/architecture.md, checked in CI (`npm run check:layers`). Arrows point
 * down: protocol at the bottom; the engine over protocol, the facade, models and its own ports,
 * in rooms (core under memory, people and the agent; engine.ts puts them together); the
 * extension side (the worker's adapters and serving, content scripts, panel) over the engine;
 * the Node client over protocol and the facade; sessions, keys, the PostgreSQL stores, the
 * service, MCP and the CLI over the client.
 */
const NODE_SIDE = '^src/(client|sessions|keys|postgres|server|mcp|cli)/';
const EXTENSION_SIDE = '^(src/(worker|snapshot|panel)/|entrypoints/|components/)';
/** What Node-side code never imports: the engine and everything bundled into the extension. */
const EXTENSION = 'src/(engine|worker|snapshot|panel)/|entrypoints/|components/';
/** The engine's own files outside its rooms: the dispatcher, the batch facade, metrics (not the ports). */
const ENGINE_ROOT = '^src/engine/(engine|batch|metrics)\\.ts$';
const ENGINE_ROOMS_AND_ROOT = '^src/engine/(core|agent|people|memory)/|' + ENGINE_ROOT;
const ENGINE_PORTS = '^src/engine/ports\\.ts$';

/** A rule that `from` may import nothing matching `to`. */
const never = (name, comment, from, to) => ({ name, comment, severity: 'error', from: { path: from }, to: { path: to } });
/** Node-side folders: `from` may import neither the extension's code nor the folders named in `also`. */
const nodeNever = (name, comment, from, also) => never(name, comment, from, `^(${EXTENSION}${also ? `|src/(${also})/` : ''})`);

module.exports = {
  forbidden: [
    never('protocol-is-the-bottom', 'src/protocol imports zod and itself only', '^src/protocol/', '^(src/(?!protocol/)|entrypoints/|components/)'),
    never('facade-over-protocol', 'the Page/Locator facade serves Node and the worker alike: protocol only', '^src/facade/',
      '^(src/(?!(protocol|facade)/)|entrypoints/|components/)'),
    never('models-over-protocol', 'model resolution and the local model know the wire, nothing else (the engine provides what the local agent runs on)',
      '^src/models/', '^(src/(?!(protocol|models)/)|entrypoints/|components/)'),
    never('engine-over-ports', 'the engine reaches the browser through its ports, never the adapters, and knows no transport', '^src/engine/',
      '^(src/(worker|snapshot|panel|client|sessions|keys|postgres|server|mcp|cli)/|entrypoints/|components/)'),
    // The engine's rooms: core operations at the bottom; memory, people and the agent over it;
    // engine.ts puts them together. The ports (ports.ts) sit under every room.
    never('ports-under-the-rooms', 'the ports are what the engine asks of the outside: they name no room', ENGINE_PORTS, ENGINE_ROOMS_AND_ROOT),
    never('core-knows-no-room', 'core operations (act, observe, extract, pages, input, snapshots) know nothing of the agent, people or memory',
      '^src/engine/core/', ENGINE_ROOMS_AND_ROOT.replace('core|', '')),
    never('memory-over-core', 'the result cache, replay and flows use core operations, never the agent or people', '^src/engine/memory/',
      '^src/engine/(agent|people)/|' + ENGINE_ROOT),
    never('people-over-core', 'approval, pause, take over, watch and schedule use core only', '^src/engine/people/',
      '^src/engine/(agent|memory)/|' + ENGINE_ROOT),
    never('rooms-meet-in-engine', 'engine.ts alone puts the rooms together: batch and metrics use the ports only', '^src/engine/(batch|metrics)\\.ts$',
      '^src/engine/(core|agent|people|memory)/'),
    never('agent-over-rooms', 'the agent runs on core, memory (its replay) and people (its approval); it is not the dispatcher',
      '^src/engine/agent/', ENGINE_ROOT),
    {
      name: 'engine-no-node',
      comment: 'the engine runs in the service worker: no node: built-ins',
      severity: 'error',
      from: { path: '^(src/(engine|worker|snapshot|panel|models|facade|protocol)/|entrypoints/|components/)' },
      to: { dependencyTypes: ['core'] },
    },
    never('extension-not-node', 'extension code never imports Node-side code', EXTENSION_SIDE, NODE_SIDE),
    never('worker-booted-by-background', "the worker's adapters and its RPC serving are put together by entrypoints/background.ts alone",
      '^(src/(snapshot|panel)/|components/|entrypoints/(?!background\\.ts$))', '^src/worker/'),
    {
      name: 'worker-without-ai-sdk',
      comment: 'the service worker cannot load code lazily: the ai SDK and its providers stay in the offscreen document (src/models/provider-call.ts)',
      severity: 'error',
      from: { path: '^entrypoints/background\\.ts$' },
      to: { path: '(^src/models/(provider-call|providers)\\.ts$|node_modules/(ai|@ai-sdk/[^/]+)/)', reachable: true },
    },
    nodeNever('client-over-protocol', 'the Node client speaks the protocol: never the engine, the worker adapters or the content scripts', '^src/client/',
      'models|sessions|keys|postgres|server|mcp|cli'),
    never('keys-alone', 'the API key ring (environment, key file) stands alone: protocol only', '^src/keys/',
      '^(src/(?!(protocol|keys)/)|entrypoints/|components/)'),
    nodeNever('sessions-over-client', 'the session manager sits on the client; the registry it declares is implemented in src/postgres', '^src/sessions/',
      'postgres|server|mcp|cli'),
    nodeNever('postgres-under-the-service', 'the PostgreSQL stores implement the ports sessions, keys and the client cache declare: no surface of their own',
      '^src/postgres/', 'models|server|mcp|cli'),
    {
      name: 'pg-driver-in-postgres',
      comment: 'only src/postgres loads the PostgreSQL driver, so the embedded default never does',
      severity: 'error',
      from: { pathNot: '^src/postgres/' },
      to: { path: 'node_modules/(@types/)?pg/' },
    },
    nodeNever('mcp-over-sessions', 'MCP tools use sessions, keys and the client, never the HTTP service or PostgreSQL', '^src/mcp/', 'postgres|server|cli'),
    nodeNever('server-over-sessions', 'the HTTP service uses sessions, keys, the PostgreSQL stores and the client (and mounts the MCP handler)',
      '^src/server/', 'cli'),
    {
      name: 'no-circular',
      comment: 'modules that import each other (even for types only) cannot be read, tested or moved one at a time',
      severity: 'error',
      from: { pathNot: 'node_modules' },
      to: { circular: true },
    },
    nodeNever('cli-not-engine', 'the command line composes Node-side parts only', '^src/cli/', ''),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
