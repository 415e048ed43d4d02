/**
 * Writes schema/deckhand.schema.json: JSON Schema for every public wire shape, generated
 * from the zod schemas in src/protocol (the only declaration of each shape). The Python and
 * Go SDKs are generated from or checked against it. `npm run schema`; the unit test
 * test/unit/schema.test.ts fails when the checked-in file is stale.
 *
 * One document with `definitions` rather than a file per shape: shapes share parts (Action,
 * ResultMetadata, ResolvedModel, ...), and as `$ref`s inside one document they stay one
 * type each in generated code, with no cross-file references for generators to resolve.
 * `x-deckhand` maps RPC methods, HTTP routes and MCP tools to their definitions.
 */
import * as pageTools from '../src/protocol/page-tools';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z, type ZodTypeAny } from 'zod';
import { ignoreOverride, zodToJsonSchema } from 'zod-to-json-schema';
import * as agent from '../src/protocol/agent';
import * as cache from '../src/protocol/cache';
import * as flows from '../src/protocol/flows';
import { ErrorCode, ErrorCodeSchema, ReceivedErrorSchema, SerializedErrorSchema } from '../src/protocol/errors';
import { errorCodeDocs } from './reference/render';
import * as http from '../src/protocol/http';
import { McpTools } from '../src/protocol/mcp';
import { ClientMethods, Methods, OPERATIONS, type OperationDecl } from '../src/protocol/methods';
import * as model from '../src/protocol/model';
import { ModelPriceSchema, PricesSchema } from '../src/protocol/prices';
import { BridgeFrameSchema, BridgeStatusSchema, PanelMethods, QaRecordingSchema, QaStepSchema } from '../src/protocol/panel';
import { RpcErrorSchema, RpcMessageSchema, RpcRequestSchema, RpcResultSchema } from '../src/protocol/rpc';
import * as s from '../src/protocol/schemas';
import { AllowSchemesSchema } from '../src/protocol/url-policy';
import { ApprovalKindSchema, ApprovalPolicySchema, ApprovalRequestSchema } from '../src/protocol/approval';
import { CHROMIUM_FLAGS, LAUNCH_DEFAULTS, SHARED_CHROMIUM_FLAGS } from '../src/protocol/launch';
import { CACHE_BOUNDS, SQLITE_CACHE_MIGRATIONS, SQLITE_CACHE_STATEMENTS } from '../src/protocol/cache-sql';
import { ModelParamSchema } from '../src/protocol/resolve-model';
import { SCHEMA_LIMITS } from '../src/protocol/json';

export const SCHEMA_FILE = 'schema/deckhand.schema.json';
/** Draft-07: the newest dialect zod-to-json-schema writes correctly, and the one SDK generators read best. */
const DIALECT = 'http://json-schema.org/draft-07/schema#';

/** Named shapes, by the name their definition gets (the zod schema's name without "Schema"). */
const NAMED: Record<string, ZodTypeAny> = {
  // Shared building blocks and the operations' results (schemas.ts).
  Action: s.ActionSchema,
  ActionTarget: s.ActionTargetSchema,
  ActMethod: s.ActMethodSchema,
  PageId: s.PageIdSchema,
  LocatorSpec: s.LocatorSpecSchema,
  Usage: s.UsageSchema,
  CacheStatus: s.CacheStatusSchema,
  CacheInfo: s.CacheInfoSchema,
  ResultMetadata: s.ResultMetadataSchema,
  ActResult: s.ActResultSchema,
  ObserveResult: s.ObserveResultSchema,
  ExtractResult: s.ExtractResultSchema,
  Metrics: s.MetricsSchema,
  TimeoutMs: s.TimeoutMsSchema,
  WaitMs: s.WaitMsSchema,
  Variables: s.VariablesSchema,
  OperationOptions: s.OperationOptionsSchema,
  SnapshotOptions: s.SnapshotOptionsSchema,
  SnapshotResult: s.SnapshotResultSchema,
  GotoOptions: s.GotoOptionsSchema,
  ScreenshotOptions: s.ScreenshotOptionsSchema,
  PageInfo: s.PageInfoSchema,
  AllowSchemes: AllowSchemesSchema,
  // A page's own tools (WebMCP).
  PageTool: pageTools.PageToolSchema,
  PageToolsResult: pageTools.PageToolsResultSchema,
  CallToolResult: pageTools.CallToolResultSchema,
  // Approval of risky steps.
  ApprovalKind: ApprovalKindSchema,
  ApprovalPolicy: ApprovalPolicySchema,
  ApprovalRequest: ApprovalRequestSchema,
  // Errors and RPC frames.
  ErrorCode: ErrorCodeSchema,
  Error: SerializedErrorSchema,
  ReceivedError: ReceivedErrorSchema,
  RpcMessage: RpcMessageSchema,
  RpcRequest: RpcRequestSchema,
  RpcResult: RpcResultSchema,
  RpcError: RpcErrorSchema,
  // Models.
  ModelConfig: model.ModelConfigSchema,
  GenericModelConfig: model.GenericModelConfigSchema,
  OpenAIEndpointFormat: model.OpenAIEndpointFormatSchema,
  StructuredOutputMode: model.StructuredOutputModeSchema,
  VertexModelConfig: model.VertexModelConfigSchema,
  AzureApiKeyModelConfig: model.AzureApiKeyModelConfigSchema,
  AzureEntraModelConfig: model.AzureEntraModelConfigSchema,
  ServiceAccount: model.ServiceAccountSchema,
  HttpModel: model.HttpModelSchema,
  ResolvedModel: model.ResolvedModelSchema,
  NamedModel: model.NamedModelSchema,
  ModelParam: ModelParamSchema,
  ModelPrice: ModelPriceSchema,
  Prices: PricesSchema,
  OutlineLine: model.OutlineLineSchema,
  ModelRequest: model.ModelRequestSchema,
  ModelReply: model.ModelReplySchema,
  // The agent.
  AgentMode: agent.AgentModeSchema,
  AgentConfig: agent.AgentConfigSchema,
  ExecuteOptions: agent.ExecuteOptionsSchema,
  AgentExecuteRequest: agent.AgentExecuteRequestSchema,
  AgentStep: agent.AgentStepSchema,
  AgentUsage: agent.AgentUsageSchema,
  AgentResult: agent.AgentResultSchema,
  AgentRecording: agent.AgentRecordingSchema,
  AgentRunParams: agent.AgentRunParamsSchema,
  // The cache.
  CacheCallOption: cache.CacheCallOptionSchema,
  CacheLookupRequest: cache.CacheLookupRequestSchema,
  CacheEntry: cache.CacheEntrySchema,
  CacheLookupResponse: cache.CacheLookupResponseSchema,
  CacheRecordRequest: cache.CacheRecordRequestSchema,
  CacheRecordResponse: cache.CacheRecordResponseSchema,
  // The HTTP service.
  StartSessionRequest: http.StartSessionRequestSchema,
  StartSessionResult: http.StartSessionResultSchema,
  NavigateRequest: http.NavigateRequestSchema,
  ActRequest: http.ActRequestSchema,
  ObserveRequest: http.ObserveRequestSchema,
  ExtractRequest: http.ExtractRequestSchema,
  CallToolRequest: http.CallToolRequestSchema,
  AgentExecuteResult: http.AgentExecuteResultSchema,
  EndRequest: http.EndRequestSchema,
  EndResult: http.EndResultSchema,
  HttpError: http.HttpErrorSchema,
  HttpErrorBody: http.HttpErrorBodySchema,
  HttpSuccessBody: http.HttpSuccessBodySchema,
  StreamEvent: http.StreamEventSchema,
  ReplayRequest: http.ReplayRequestSchema,
  // Named flows.
  FlowName: flows.FlowNameSchema,
  Flow: flows.FlowSchema,
  FlowInput: flows.FlowInputSchema,
  FlowSummary: flows.FlowSummarySchema,
  FlowList: flows.FlowListSchema,
  FlowDeleteResult: flows.FlowDeleteResultSchema,
  FlowStepOutcome: flows.FlowStepOutcomeSchema,
  FlowReplayParams: flows.FlowReplayParamsSchema,
  FlowReplayResult: flows.FlowReplayResultSchema,
  // The side panel's export and the bridge's control frames.
  BridgeStatus: BridgeStatusSchema,
  BridgeFrame: BridgeFrameSchema,
  QaStep: QaStepSchema,
  QaRecording: QaRecordingSchema,
};

const ref = (name: string) => `#/definitions/${name}`;

/** 'context.newPage' → 'ContextNewPage'. */
const pascal = (name: string) =>
  name
    .split(/[.]/)
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join('');

type MethodTable = Record<string, { params: ZodTypeAny; result: ZodTypeAny }>;

/**
 * Every definition and the tables that point into them. A method's params or result that
 * is already a named shape is referenced by that name, not defined twice.
 */
function catalogue(): { defs: Map<string, ZodTypeAny>; tables: Record<string, Record<string, Record<string, string>>> } {
  const defs = new Map<string, ZodTypeAny>();
  const nameOf = new Map<ZodTypeAny, string>();
  const add = (name: string, schema: ZodTypeAny): string => {
    const known = nameOf.get(schema);
    if (known) return known;
    if (defs.has(name)) throw new Error(`two different shapes would both be named ${name}`);
    defs.set(name, schema);
    nameOf.set(schema, name);
    return name;
  };
  for (const [name, schema] of Object.entries(NAMED)) add(name, schema);
  // The output-token budget is the worker's alone: clients never send it.
  const forClients = (decl: OperationDecl | undefined) => {
    const { outputTokens: _budget, ...rest } = decl ?? {};
    return rest;
  };
  const methods = (table: MethodTable, operations: Record<string, OperationDecl | undefined> = {}) =>
    Object.fromEntries(
      Object.entries(table).map(([m, { params, result }]) => [
        m,
        { params: ref(add(`${pascal(m)}Params`, params)), result: ref(add(`${pascal(m)}Result`, result)), ...forClients(operations[m]) },
      ]),
    );
  return {
    defs,
    tables: {
      methods: methods(Methods, OPERATIONS),
      clientMethods: methods(ClientMethods),
      panelMethods: methods(PanelMethods),
      http: {
        ...Object.fromEntries(
          Object.entries(http.HttpRoutes).map(([path, r]) => [
            `POST ${path}`,
            { request: ref(add(`${pascal(path)}Request`, r.request)), data: ref(add(`${pascal(path)}Data`, r.data)) },
          ]),
        ),
        // Keyed `METHOD path` already; only PUT takes a body.
        ...Object.fromEntries(
          Object.entries(http.HttpResourceRoutes).map(([route, r]) => {
            const name = route
              .split(/[^A-Za-z0-9]+/)
              .filter(Boolean)
              .map((w) => w[0].toUpperCase() + w.slice(1).toLowerCase())
              .join('');
            const entry: Record<string, string> = {};
            if ('request' in r) entry.request = ref(add(`${name}Request`, r.request));
            entry.data = ref(add(`${name}Data`, r.data));
            return [route, entry];
          }),
        ),
      },
      mcpTools: Object.fromEntries(
        Object.entries(McpTools).map(([tool, t]) => [
          tool,
          { input: ref(add(`Mcp${pascal(tool)}Input`, z.object(t.input))), output: ref(add(`Mcp${pascal(tool)}Output`, z.object(t.output))) },
        ]),
      ),
    },
  };
}

/** Each error code's meaning (its comment in errors.ts), for the clients' own error types. */
function errorTable(): Record<string, { doc: string }> {
  const docs = errorCodeDocs(readFileSync(fileURLToPath(new URL('../src/protocol/errors.ts', import.meta.url)), 'utf8'));
  return Object.fromEntries(Object.entries(ErrorCode).map(([name, code]) => [code, { doc: docs[name] ?? '' }]));
}

/** The whole document, as the JSON text written to SCHEMA_FILE. */
export function generateSchema(): string {
  const { defs, tables } = catalogue();
  const names = [...defs.keys()].sort();
  const nameOfDef = new Map(names.map((n) => [defs.get(n)!._def, n]));
  const converted = zodToJsonSchema(z.null(), {
    target: 'jsonSchema7',
    definitions: Object.fromEntries(names.map((n) => [n, defs.get(n)!])),
    // Only .strict() objects refuse unknown properties; the others strip them, so they are allowed.
    removeAdditionalStrategy: 'strict',
    // A named shape is always a $ref to its definition; anything else is written out where it is
    // used (the default would point into another definition's properties instead).
    $refStrategy: 'none',
    override: (def, _refs, _seen, forceResolution) => {
      const name = nameOfDef.get(def);
      return name && !forceResolution ? { $ref: ref(name) } : ignoreOverride;
    },
  }) as { definitions: Record<string, unknown> };
  const doc = {
    $schema: DIALECT,
    title: 'Deckhand wire shapes',
    description:
      'Generated from the zod schemas in src/protocol by scripts/gen-schema.ts (npm run schema); do not edit. ' +
      'Each definition is one shape; x-deckhand maps RPC methods (frames: RpcMessage), HTTP routes (answers: ' +
      "HttpSuccessBody around data, or HttpErrorBody) and MCP tools to their definitions, and lists each error code's meaning (errors), the " +
      'Chromium switches a launcher passes to a Chromium it starts itself (chromiumFlags), the part of them every launcher ' +
      'passes, a Selenium Grid launcher too (sharedChromiumFlags), how deep and large a schema for extract may be (schemaLimits), ' +
      "the migrations of the result cache's SQLite file, in order (sqliteCacheMigrations), the statements a store runs with their " +
      'positional parameters (sqliteCacheStatements) and how many entries a tenant keeps (cacheBounds), which environment variables ' +
      "a provider's model reads, sent along with a NamedModel, and the default model by the key that is set (providerEnv), " +
      'and the default deadlines and bounds every client, launcher and the worker share (defaults, agentDefaults), ' +
      'the locator methods that send one action (locatorMethods). A method that is an operation says ' +
      'where its opId and timeout sit (dotted paths) and which deadline applies without a timeout ' +
      "(deadline; instruction: the model's when that field is a string).",
    definitions: Object.fromEntries(names.map((n) => [n, converted.definitions[n]])),
    'x-deckhand': {
      ...tables,
      chromiumFlags: CHROMIUM_FLAGS,
      sharedChromiumFlags: SHARED_CHROMIUM_FLAGS,
      schemaLimits: SCHEMA_LIMITS,
      sqliteCacheMigrations: SQLITE_CACHE_MIGRATIONS,
      sqliteCacheStatements: SQLITE_CACHE_STATEMENTS,
      cacheBounds: CACHE_BOUNDS,
      providerEnv: model.PROVIDER_ENV,
      defaults: { ...s.DEFAULTS, ...LAUNCH_DEFAULTS, maxTimeoutMs: s.MAX_TIMEOUT_MS, maxCallMs: s.MAX_CALL_MS },
      agentDefaults: agent.AGENT_DEFAULTS,
      locatorMethods: s.LOCATOR_METHODS,
      errors: errorTable(),
    },
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export const CACHE_SQL_FILE = 'schema/cache.sql';

/** The result cache's SQLite migrations as one SQL file, for people and tools that read SQL (src/protocol/cache-sql.ts holds them). */
export function generateCacheSql(): string {
  const head =
    '-- Generated from src/protocol/cache-sql.ts by scripts/gen-schema.ts (npm run schema); do not edit.\n' +
    "-- The result cache's SQLite file ($DECKHAND_HOME/cache.db): its migrations, in order. schema_version holds how many ran.\n";
  return head + SQLITE_CACHE_MIGRATIONS.map((m, i) => `\n-- migration ${i + 1}\n${m.trim()}\n`).join('');
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  mkdirSync(dirname(resolve(root, SCHEMA_FILE)), { recursive: true });
  writeFileSync(resolve(root, SCHEMA_FILE), generateSchema());
  writeFileSync(resolve(root, CACHE_SQL_FILE), generateCacheSql());
  console.log(`wrote ${SCHEMA_FILE} and ${CACHE_SQL_FILE}`);
}
