/**
 * The earlier agent() API of the client library: its configuration, checked by one zod schema,
 * the model it names, and its custom tools and MCP integrations as the tools an agent run calls.
 */
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { z, type ZodTypeAny } from 'zod';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import { describeZodError } from '../protocol/zod-errors';
import { jsonSchemaOf } from './json-schema';
import type { ModelSpec } from './models';
import type { ApprovalHandler, ApprovalPolicyInput } from '../protocol/approval';

export interface AgentOptions {
  provider?: 'anthropic' | 'openai';
  /** A model name (provider-prefixed, or bare with provider). Default: the instance's model. */
  model?: string;
  /** Instructions for the whole run (the agent's system prompt). */
  instructions?: string;
  options?: { apiKey?: string; baseURL?: string; organization?: string };
  /** MCP servers (URLs or connected clients) whose tools become the agent's tools. */
  integrations?: (string | McpClient)[];
  /** Custom tools: name → { description, inputSchema (zod), execute }. */
  tools?: Record<string, { description?: string; inputSchema: ZodTypeAny; execute: (input: any) => unknown }>;
}

export interface ExecuteInput {
  instruction: string;
  /** Save the run, when it succeeds, as a flow under this name (this client's store, else the browser's), to replay later with no model. */
  saveAs?: string;
  maxSteps?: number;
  /** A screenshot with each step in the dom mode too (hybrid and cua steps always carry one); default false. */
  autoScreenshot?: boolean;
  waitBetweenActions?: number;
  context?: string;
  /** Risky steps wait for approval (the instance's `approval` otherwise); see agentExecute. */
  approval?: ApprovalPolicyInput;
  /** Decides this run's steps that wait for approval (the instance's `onApproval` otherwise). */
  onApproval?: ApprovalHandler;
}

/** The custom tools and MCP integrations of an agent, as the tools an agent run can call. */
export async function agentTools(
  config: AgentOptions,
): Promise<{
  list: { name: string; description: string; inputSchema: Record<string, unknown>; run: (input: unknown) => Promise<string> }[];
  close: () => Promise<void>;
}> {
  const list: { name: string; description: string; inputSchema: Record<string, unknown>; run: (input: unknown) => Promise<string> }[] = [];
  for (const [name, t] of Object.entries(config.tools ?? {})) {
    list.push({
      name,
      description: t.description ?? name,
      inputSchema: jsonSchemaOf(t.inputSchema),
      run: async (input) => {
        const parsed = t.inputSchema.safeParse(input);
        if (!parsed.success)
          throw new DeckhandError(
            ErrorCode.InvalidArgument,
            `arguments for tool ${name} do not fit its schema: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`,
          );
        const out = await t.execute(parsed.data);
        return typeof out === 'string' ? out : JSON.stringify(out ?? null);
      },
    });
  }
  const opened: McpClient[] = [];
  for (const integration of config.integrations ?? []) {
    let client: McpClient;
    if (typeof integration === 'string') {
      const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      client = new Client({ name: 'deckhand-agent', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(integration)));
      opened.push(client);
    } else client = integration;
    const { tools } = await client.listTools();
    for (const t of tools) {
      list.push({
        name: t.name,
        description: t.description ?? t.name,
        inputSchema: t.inputSchema as Record<string, unknown>,
        run: async (input) => {
          const r = (await client.callTool({ name: t.name, arguments: (input ?? {}) as Record<string, unknown> })) as {
            content?: { type: string; text?: string }[];
            isError?: boolean;
          };
          const text = (r.content ?? []).map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
          if (r.isError) throw new DeckhandError(ErrorCode.ActionFailed, `tool ${t.name} failed: ${text}`);
          return text;
        },
      });
    }
  }
  return { list, close: async () => void (await Promise.all(opened.map((c) => c.close().catch(() => undefined)))) };
}

const AgentConfigSchema = z
  .object({
    provider: z.enum(['openai', 'anthropic']).optional(),
    model: z.string().trim().min(1, "must be a non-empty model name such as 'openai/gpt-4.1'").optional(),
    instructions: z.string().optional(),
    options: z.object({ apiKey: z.string().optional(), baseURL: z.string().optional(), organization: z.string().optional() }).strict().optional(),
    integrations: z.array(z.unknown()).optional(),
    tools: z.record(z.unknown()).optional(),
  })
  .strict();

/** The model an agent configuration names (undefined: the instance's); INVALID_ARGUMENT naming what is wrong. */
export function agentModel(config: unknown): ModelSpec | undefined {
  const r = AgentConfigSchema.safeParse(config);
  if (!r.success) {
    throw new DeckhandError(
      ErrorCode.InvalidArgument,
      `${describeZodError(r.error, 'agent configuration')} ` +
        '(fields: provider, model, instructions, options { apiKey, baseURL, organization }, integrations, tools)',
    );
  }
  const { provider, model, options: o = {} } = r.data;
  const name = model && provider && !model.includes('/') ? `${provider}/${model}` : model;
  if (!name) return undefined;
  if (!o.apiKey && !o.baseURL && !o.organization) return name;
  return {
    modelName: name,
    ...(o.apiKey ? { apiKey: o.apiKey } : {}),
    ...(o.baseURL ? { baseURL: o.baseURL } : {}),
    ...(o.organization ? { headers: { 'OpenAI-Organization': o.organization } } : {}),
  };
}
