/**
 * The layers of docs/architecture.md, checked in CI (`npm run check:layers`). Arrows point
 * down: protocol at the bottom; the engine over protocol, the facade and its own ports; the
 * extension side (worker adapters, content scripts, panel) over the engine; the Node client
 * over protocol and the facade; sessions, service, MCP and CLI over the client.
 */
const NODE_SIDE = '^src/(client|sessions|server|mcp|cli)/';
const EXTENSION_SIDE = '^(src/(worker|snapshot|panel)/|entrypoints/|components/)';
/** The engine's own files outside its rooms: the dispatcher, the batch facade, metrics (not the ports). */
const ENGINE_ROOT = '^src/engine/(engine|batch|metrics)\\.ts$';
const ENGINE_ROOMS_AND_ROOT = '^src/engine/(core|agent|people|memory)/|' + ENGINE_ROOT;
const ENGINE_PORTS = '^src/engine/ports\\.ts$';

/** A rule that `from` may import nothing matching `to`. */
const never = (name, comment, from, to) => ({ name, comment, severity: 'error', from: { path: from }, to: { path: to } });

module.exports = {
  forbidden: [
    never('protocol-is-the-bottom', 'src/protocol imports zod and itself only', '^src/protocol/', '^(src/(?!protocol/)|entrypoints/|components/)'),
    never('facade-over-protocol', 'the Page/Locator facade serves Node and the worker alike: protocol only', '^src/facade/', '^(src/(?!(protocol|facade)/)|entrypoints/|components/)'),
    never('models-over-protocol', 'model resolution and the local model know the wire, nothing else', '^src/models/', '^(src/(?!(protocol|models)/)|entrypoints/|components/)'),
    never('engine-over-ports', 'the engine reaches the browser through its ports, never the adapters, and knows no transport', '^src/engine/', '^(src/(worker|snapshot|panel|client|sessions|server|mcp|cli)/|entrypoints/|components/)'),
    // The engine's rooms: core operations at the bottom; memory, people and the agent over it;
    // engine.ts puts them together. The ports (ports.ts) sit under every room.
    never('ports-under-the-rooms', 'the ports are what the engine asks of the outside: they name no room', ENGINE_PORTS, ENGINE_ROOMS_AND_ROOT),
    never('core-knows-no-room', 'core operations (act, observe, extract, pages, input, snapshots) know nothing of the agent, people or memory',
      '^src/engine/core/', ENGINE_ROOMS_AND_ROOT.replace('core|', '')),
    never('memory-over-core', 'the result cache, replay and flows use core operations, never the agent or people', '^src/engine/memory/',
      '^src/engine/(agent|people)/|' + ENGINE_ROOT),
    never('people-over-core', 'approval, pause, take over, watch and schedule use core only', '^src/engine/people/', '^src/engine/(agent|memory)/|' + ENGINE_ROOT),
    never('rooms-meet-in-engine', 'engine.ts alone puts the rooms together: batch and metrics use the ports only', '^src/engine/(batch|metrics)\\.ts$',
      '^src/engine/(core|agent|people|memory)/'),
    never('agent-over-rooms', 'the agent runs on core, memory (its replay) and people (its approval); it is not the dispatcher', '^src/engine/agent/', ENGINE_ROOT),
    {
      name: 'engine-no-node',
      comment: 'the engine runs in the service worker: no node: built-ins',
      severity: 'error',
      from: { path: '^(src/(engine|worker|snapshot|panel|models|facade|protocol)/|entrypoints/|components/)' },
      to: { dependencyTypes: ['core'] },
    },
    never('extension-not-node', 'extension code never imports Node-side code', EXTENSION_SIDE, NODE_SIDE),
    {
      name: 'worker-without-ai-sdk',
      comment: 'the service worker cannot load code lazily: the ai SDK and its providers stay in the offscreen document (src/models/provider-call.ts)',
      severity: 'error',
      from: { path: '^entrypoints/background\\.ts$' },
      to: { path: '(^src/models/(provider-call|providers)\\.ts$|node_modules/(ai|@ai-sdk/[^/]+)/)', reachable: true },
    },
    never('client-over-protocol', 'the Node client speaks the protocol: never the engine, the worker adapters or the content scripts', '^src/client/', '^(src/(engine|worker|snapshot|panel|models|sessions|server|mcp|cli)/|entrypoints/|components/)'),
    never('sessions-over-client', 'the session manager sits on the client', '^src/sessions/', '^(src/(engine|worker|snapshot|panel|server|mcp|cli)/|entrypoints/|components/)'),
    never('mcp-over-sessions', 'MCP tools use sessions and the client, never the HTTP service', '^src/mcp/', '^(src/(engine|worker|snapshot|panel|server|cli)/|entrypoints/|components/)'),
    never('server-over-sessions', 'the HTTP service uses sessions and the client (and mounts the MCP handler)', '^src/server/', '^(src/(engine|worker|snapshot|panel|cli)/|entrypoints/|components/)'),
    {
      name: 'no-circular',
      comment: 'modules that import each other (even for types only) cannot be read, tested or moved one at a time',
      severity: 'error',
      from: { pathNot: 'node_modules' },
      to: { circular: true },
    },
    never('cli-not-engine', 'the command line composes Node-side parts only', '^src/cli/', '^(src/(engine|worker|snapshot|panel)/|entrypoints/|components/)'),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
