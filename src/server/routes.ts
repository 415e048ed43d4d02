/**
 * The HTTP service's operations, declared once from the protocol's zod schemas (HttpRoutes in
 * src/protocol/http.ts): each POST body, the session id in the path, the x-stream-response
 * header, the success body around the route's `data` and the one error body. The service
 * validates requests with these declarations and serves the OpenAPI document they make.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { ERROR_MAP } from '../protocol/errors';
import { HttpErrorBodySchema, HttpResourceRoutes, HttpRoutes, HttpSuccessBodySchema, StreamEventSchema, type HttpResourceRoute } from '../protocol/http';
import { ENGINE_VERSION } from '../protocol/version';
import { FlowNameSchema } from '../protocol/flows';

export type HttpPath = keyof typeof HttpRoutes;

interface Operation {
  /** How validation messages name the body ("invalid act request: ..."). */
  what: string;
  summary: string;
  /** Takes x-stream-response (and streamResponse): validated on every session route. */
  header: boolean;
  /** May answer with Server-Sent Events. */
  streams: boolean;
}

export const OPERATIONS: Record<HttpPath, Operation> = {
  '/v1/sessions/start': { what: 'session start request', summary: 'Start a browser session', header: true, streams: true },
  '/v1/sessions/{id}/navigate': { what: 'navigate request', summary: "Open a URL in the session's active page", header: true, streams: true },
  '/v1/sessions/{id}/act': { what: 'act request', summary: 'Perform an action, from an instruction or an Action', header: true, streams: true },
  '/v1/sessions/{id}/observe': { what: 'observe request', summary: 'List the elements an instruction could act on', header: true, streams: true },
  '/v1/sessions/{id}/extract': { what: 'extract request', summary: 'Extract data from the page', header: true, streams: true },
  '/v1/sessions/{id}/agentExecute': { what: 'agentExecute request', summary: 'Run the autonomous agent', header: true, streams: true },
  '/v1/sessions/{id}/replay': {
    what: 'replay request',
    summary: "Replay a flow by name (this key's, then the session browser's) or given whole, with no model unless selfHeal",
    header: true,
    streams: true,
  },
  '/v1/sessions/{id}/callTool': {
    what: 'callTool request',
    summary: "Call one of the active page's own tools (WebMCP) by name, its input checked against the tool's schema",
    header: true,
    streams: true,
  },
  // Takes the stream flag for symmetry but always answers JSON.
  '/v1/sessions/{id}/end': { what: 'end request', summary: 'End the session, cancelling what runs in it', header: true, streams: false },
  '/v1/cache/lookup': { what: 'cache lookup', summary: "Look a key up in this API key's result cache", header: false, streams: false },
  '/v1/cache/record': { what: 'cache record', summary: "Record a result in this API key's result cache", header: false, streams: false },
  '/v1/cache/invalidate': { what: 'cache invalidate', summary: "Remove a key from this API key's result cache", header: false, streams: false },
};

const ErrorBody = HttpErrorBodySchema.openapi('ErrorBody');

const SessionParams = z.object({
  // Described as a UUID; the session manager, not the validator, refuses others (INVALID_SESSION_ID).
  id: z.string().openapi({ param: { name: 'id', in: 'path' }, format: 'uuid', description: 'A session id from /v1/sessions/start' }),
});

const StreamHeaders = z.object({
  'x-stream-response': z
    .enum(['true', 'false'], { errorMap: () => ({ message: 'must be "true" or "false"' }) })
    .optional()
    .openapi({ description: 'Answer with Server-Sent Events; must agree with streamResponse in the body when both are given' }),
});

const ApprovalParams = SessionParams.extend({
  approvalId: z
    .string()
    .max(100)
    .openapi({ param: { name: 'approvalId', in: 'path' }, description: "A waiting step's id (the `approval` event's data.id, or GET .../approvals)" }),
});

const FlowParams = z.object({
  // The name's own rules (trimmed, 1 to 120 characters, no control characters): a bad one is a 400 naming it.
  name: FlowNameSchema.openapi({ param: { name: 'name', in: 'path' }, description: 'A flow name (1 to 120 characters, no control characters), URL-encoded' }),
});

export const RESOURCE_OPERATIONS: Record<HttpResourceRoute, { what: string; summary: string }> = {
  'GET /v1/sessions/{id}/flows': { what: 'flow list request', summary: "The flows saved in the session browser's side panel (its extension), newest first" },
  'PUT /v1/flows/{name}': { what: 'flow', summary: "Store a flow (as the side panel exports it) in this key's store, under the name in the path" },
  'GET /v1/flows/{name}': { what: 'flow request', summary: "A flow from this key's store" },
  'DELETE /v1/flows/{name}': { what: 'flow request', summary: "Remove a flow from this key's store" },
  'GET /v1/sessions/{id}/approvals': {
    what: 'approval list request',
    summary: "The session's steps waiting for approval now (act, agentExecute with `approval`)",
  },
  'GET /v1/sessions/{id}/tools': { what: 'tool list request', summary: "The active page's own tools (WebMCP): name, description, input schema" },
  'POST /v1/sessions/{id}/approvals/{approvalId}': {
    what: 'approval decision',
    summary: 'Approve, skip or stop a step of the session that waits for approval',
  },
};

/** Every status of the error table, with the codes that answer with it. */
const errorResponses = Object.fromEntries(
  [...new Set(Object.values(ERROR_MAP).map((e) => e.http))]
    .sort((a, b) => a - b)
    .map((status) => [
      status,
      {
        description: Object.entries(ERROR_MAP)
          .filter(([, e]) => e.http === status)
          .map(([code]) => code)
          .join(', '),
        content: { 'application/json': { schema: ErrorBody } },
      },
    ]),
);

export function operation(path: HttpPath) {
  const { request, data } = HttpRoutes[path];
  const op = OPERATIONS[path];
  return createRoute({
    method: 'post',
    path,
    tags: [path.startsWith('/v1/cache/') ? 'cache' : 'sessions'],
    summary: op.summary,
    request: {
      ...(path.includes('{id}') ? { params: SessionParams } : {}),
      ...(op.header ? { headers: StreamHeaders } : {}),
      body: { required: true, content: { 'application/json': { schema: request } } },
    },
    responses: {
      200: {
        description: op.streams ? 'The result, or with streaming an event stream whose `finished` event carries the same data' : 'The result',
        content: {
          'application/json': { schema: HttpSuccessBodySchema.extend({ data }) },
          ...(op.streams
            ? {
                'text/event-stream': {
                  schema: z.string().openapi({ description: 'Server-Sent Events: `id`, `event` (the status) and `data`, a StreamEvent as JSON' }),
                },
              }
            : {}),
        },
      },
      ...errorResponses,
    },
  });
}

/** A route of HttpResourceRoutes: its method, path parameters, JSON body (PUT) and answer. */
export function resourceOperation(route: HttpResourceRoute) {
  const [method, path] = route.split(' ');
  const r = HttpResourceRoutes[route] as { request?: z.ZodTypeAny; data: z.ZodTypeAny };
  return createRoute({
    method: method.toLowerCase() as 'get' | 'put' | 'post' | 'delete',
    path,
    tags: [path.includes('/approvals') ? 'approvals' : path.endsWith('/tools') ? 'sessions' : 'flows'],
    summary: RESOURCE_OPERATIONS[route].summary,
    request: {
      params: path.includes('{approvalId}') ? ApprovalParams : path.includes('{id}') ? SessionParams : FlowParams,
      ...(r.request ? { body: { required: true, content: { 'application/json': { schema: r.request } } } } : {}),
    },
    responses: {
      200: { description: 'The result', content: { 'application/json': { schema: HttpSuccessBodySchema.extend({ data: r.data }) } } },
      ...errorResponses,
    },
  });
}

export const OpenApiDocumentRoute = createRoute({
  method: 'get',
  path: '/v1/openapi.json',
  tags: ['service'],
  summary: 'This OpenAPI document',
  security: [],
  responses: {
    200: { description: 'The OpenAPI 3.0 document of /v1', content: { 'application/json': { schema: z.object({ openapi: z.string() }).passthrough() } } },
    ...errorResponses,
  },
});

/** What the operations name but do not declare: the key header, and the shape of one streamed event. */
export function registerComponents(registry: OpenAPIHono['openAPIRegistry']): void {
  registry.registerComponent('securitySchemes', 'apiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'x-dh-api-key',
    description: "One of the service's API keys; each key is a tenant",
  });
  registry.register('StreamEvent', StreamEventSchema);
}

export const DOCUMENT_CONFIG = {
  openapi: '3.0.3',
  info: {
    title: 'Deckhand HTTP service',
    version: ENGINE_VERSION,
    description:
      'Browser sessions driven by AI, and the result cache. Every failure answers { success: false, error: { code, message } } ' +
      'with the status of its code. MCP (Streamable HTTP) is served at /mcp and is not described here.',
  },
  security: [{ apiKey: [] }],
};

/**
 * The OpenAPI document of every operation above, built without a running service: the service
 * serves it at /v1/openapi.json and the docs site renders it (scripts/gen-reference.ts).
 */
export function openApiDocument(): ReturnType<OpenAPIHono['getOpenAPIDocument']> {
  const app = new OpenAPIHono();
  registerComponents(app.openAPIRegistry);
  app.openAPIRegistry.registerPath(OpenApiDocumentRoute);
  for (const path of Object.keys(OPERATIONS) as HttpPath[]) app.openAPIRegistry.registerPath(operation(path));
  for (const route of Object.keys(RESOURCE_OPERATIONS) as HttpResourceRoute[]) app.openAPIRegistry.registerPath(resourceOperation(route));
  return app.getOpenAPIDocument(DOCUMENT_CONFIG);
}
