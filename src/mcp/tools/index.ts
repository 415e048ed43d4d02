/** Every MCP tool, in the order clients list them. */
import act from './act';
import agent from './agent';
import end from './end';
import extract from './extract';
import navigate from './navigate';
import observe from './observe';
import start from './start';
import type { Tool } from './tool';

export const TOOLS: readonly Tool[] = [start, end, navigate, act, observe, extract, agent] as unknown as Tool[];
