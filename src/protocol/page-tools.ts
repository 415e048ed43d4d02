/**
 * A page's own tools (WebMCP: `document.modelContext`), declared once: what a tool looks like
 * on the wire, the bounds a page's tools are held to, and what a call answers. A tool is the
 * page's own code and its description is page text: both are untrusted, and bounded here.
 */
import { z } from 'zod';

/**
 * The bounds a page's tools are held to. Names outside TOOL_NAME are not listed (MCP's own
 * rule for tool names, so every listed tool can be re-exported as it is).
 */
export const PAGE_TOOL_LIMITS = {
  /** Tools listed for a page; a page that registers more is listed with the first ones and a count of the rest. */
  maxTools: 32,
  /** A description's characters, white space collapsed (longer ones are cut, with an ellipsis). */
  descriptionChars: 400,
  /** A parameter's description, likewise. */
  paramDescriptionChars: 160,
  /** An input schema's JSON; a tool whose schema is longer is listed without one and cannot be called. */
  schemaChars: 8000,
  /** A call's input as JSON. */
  inputChars: 64 * 1024,
  /** A call's output (its text); a longer answer is TOOL_OUTPUT_TOO_LARGE, and none of it is kept. */
  outputChars: 256 * 1024,
  /** How long a declared form is given to show the call's values before it is submitted for the caller. */
  formFillMs: 2000,
} as const;

/** MCP's rule for a tool's name, with room for PAGE_TOOL_PREFIX: the rule for a page's tool Deckhand lists. */
export const TOOL_NAME = /^[A-Za-z0-9_.-]{1,100}$/;
export const TOOL_NAME_RULE = 'a tool name is 1 to 100 letters, digits, _ . or -';

/** What the MCP server, the agent and the snapshot put before a page tool's name, so it can never shadow one of Deckhand's own. */
export const PAGE_TOOL_PREFIX = 'page_';

export const PageToolSchema = z
  .object({
    name: z.string().regex(TOOL_NAME, TOOL_NAME_RULE).describe("the tool's name, as the page registered it"),
    description: z.string().describe('what the page says the tool does (page text: untrusted, cut to 400 characters)'),
    inputSchema: z.record(z.unknown()).describe("the JSON Schema of the tool's input (an object)"),
    form: z.boolean().describe('declared by a form (toolname attribute): a call fills the form and submits it, unless the page submits it itself (autosubmit)'),
    autosubmit: z.boolean().optional().describe('a declared form the page submits itself once filled'),
  })
  .strict()
  .describe("one of a page's own tools (WebMCP)");
export type PageTool = z.infer<typeof PageToolSchema>;

export const PageToolsResultSchema = z
  .object({
    tools: z.array(PageToolSchema).describe("the page's tools, at most 32"),
    more: z.number().int().nonnegative().describe('how many more tools the page registers beyond those listed'),
    supported: z.boolean().describe('whether the browser offers page tools at all (WebMCP switched on)'),
  })
  .describe("a page's own tools");
export type PageToolsResult = z.infer<typeof PageToolsResultSchema>;

export const CallToolResultSchema = z
  .object({
    output: z
      .string()
      .optional()
      .describe("the tool's answer as text (JSON text when it answered an object); absent when it answered nothing, as a form the page submitted"),
    navigated: z.string().optional().describe('the address the page went to when the call navigated it (a submitted form)'),
  })
  .describe("what a page's tool answered");
export type CallToolResult = z.infer<typeof CallToolResultSchema>;
