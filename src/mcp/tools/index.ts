/** Every MCP tool, in the order clients list them. */
import act from './act';
import agent from './agent';
import end from './end';
import extract from './extract';
import flows from './flows';
import navigate from './navigate';
import observe from './observe';
import replay from './replay';
import start from './start';
import type { Tool } from './tool';

export const TOOLS: readonly Tool[] = [start, end, navigate, act, observe, extract, agent, replay, flows] as unknown as Tool[];
