/**
 * What the reference pages are made from, read from the code in this process: the OpenAPI
 * document, the MCP tools with their schemas as JSON Schema, the error table with the comments
 * of errors.ts. Kept apart from gen-reference.ts (which writes files and runs tools) so the
 * unit test renders the same data the site shows.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { TOOLS } from '../../src/mcp/tools';
import { ERROR_MAP, ErrorCode } from '../../src/protocol/errors';
import { McpTools, type McpToolName } from '../../src/protocol/mcp';
import { openApiDocument } from '../../src/server/routes';
import { errorCodeDocs, type ErrorRow, type JsonSchema, type McpToolDoc, type OpenApiDocument } from './render';

export const httpDocument = (): OpenApiDocument => openApiDocument() as unknown as OpenApiDocument;

const toJsonSchema = (shape: z.ZodRawShape) => zodToJsonSchema(z.object(shape), { $refStrategy: 'none', target: 'jsonSchema7' }) as JsonSchema;

/** Every tool as the server lists it (src/mcp/tools), with the schemas of McpTools. */
export function mcpToolDocs(): McpToolDoc[] {
  return TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    annotations: { ...t.annotations },
    input: toJsonSchema(McpTools[t.name as McpToolName].input),
    output: toJsonSchema(McpTools[t.name as McpToolName].output),
  }));
}

/**
 * Every code in declaration order, with its HTTP status and MCP code; its meaning is the comment
 * in errors.ts, else (given `python`, from the Python package) the docstring of its exception class.
 */
export function errorRows(python: Record<string, { class: string; doc: string }> = {}): ErrorRow[] {
  const docs = errorCodeDocs(readFileSync(fileURLToPath(new URL('../../src/protocol/errors.ts', import.meta.url)), 'utf8'));
  return Object.entries(ErrorCode).map(([name, code]) => ({
    code,
    name,
    http: ERROR_MAP[code].http,
    mcp: ERROR_MAP[code].mcp,
    python: python[code]?.class,
    meaning: docs[name] || python[code]?.doc,
  }));
}
