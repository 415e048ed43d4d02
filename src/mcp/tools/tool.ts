/**
 * One MCP tool: its name, what a client shows and may assume about it (annotations), its
 * schemas and its handler. Each tool is one file in this folder; server.ts registers them.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { McpSessionState, ToolCall } from '../session-state';

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface Tool<I extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  inputSchema?: I;
  outputSchema: z.ZodRawShape;
  handler: (st: McpSessionState, args: z.objectOutputType<I, z.ZodTypeAny>, call: ToolCall) => Promise<ToolResult>;
}

/** Readable text for the calling model, with the same facts as structured content. */
export const text = (t: string, structured: Record<string, unknown>): ToolResult => ({ content: [{ type: 'text', text: t }], structuredContent: structured });

export const defineTool = <I extends z.ZodRawShape>(t: Tool<I>): Tool<I> => t;

/** A result's `costUsd` for structured content, when its model's price was known. */
export const costOf = (metadata: { costUsd?: unknown }): { costUsd?: number } => (typeof metadata.costUsd === 'number' ? { costUsd: metadata.costUsd } : {});
