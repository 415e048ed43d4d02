/**
 * deckhand/local: a model that runs in the worker with no network and no weights.
 * It reads what a large model reads (the instruction and the page outline), as the
 * request's structured fields rather than the prompt text, and answers the same JSON shapes, with zero tokens and its real compute time. It
 * refuses, clearly, when it is not confident: a wrong click is worse than none.
 */
import { quote } from '../../protocol/text';
import { DeckhandError, ErrorCode } from '../../protocol/errors';
import type { ModelRequest } from '../../protocol/model';
import { choose, parseIntent, Refusal, type Facts, type Pick } from './act';
import { localExtract } from './extract';
import { buildOutline, type OutlineNode } from './outline';
import { similarity } from './text';
import { pickTool, type ToolPick } from './tools';

export const LOCAL_MODEL_NAME = 'deckhand/local';

const refuse = (what: string, why: string) =>
  new DeckhandError(ErrorCode.ModelRefused, `the local model could not ${what} on this page (${why}); configure a model for instructions like this`, {
    model: LOCAL_MODEL_NAME,
  });

export function localGenerate(req: ModelRequest): { object: unknown; confidence: number } {
  const instruction = req.instruction?.trim() ?? '';
  const nodes = buildOutline(req.outline ?? []);
  const props = (req.schema as { properties?: Record<string, unknown> }).properties ?? {};
  const tool = req.tools?.length && req.alreadyDone === undefined ? pickTool(instruction, req.tools).pick : null;
  if ('found' in props && 'elementId' in props) {
    return tool ? { object: toolAnswer(tool), confidence: 1 } : act(instruction, nodes, req.alreadyDone !== undefined, { today: req.today });
  }
  if ('elements' in props) {
    if (!tool) return observe(instruction, nodes);
    const { elementId, description, method, arguments: args } = toolAnswer(tool);
    return { object: { elements: [{ elementId, description, method, arguments: args }] }, confidence: 1 };
  }
  try {
    return localExtract(instruction, req.schema as never, nodes);
  } catch (e) {
    if (e instanceof Refusal) throw refuse(`extract ${quote(instruction)}`, e.message);
    throw e;
  }
}

/** A call of the page's own tool: on "page", as act's prompt says (core/page-tools.ts). */
function toolAnswer(t: ToolPick) {
  const args = [t.name, JSON.stringify(t.input)];
  return { found: true, elementId: 'page', method: 'callTool', arguments: args, description: t.description, twoStep: false, reason: '' };
}

function answer(p: Pick): { object: unknown; confidence: number } {
  return {
    object: {
      found: true,
      elementId: p.node?.id ?? 'page',
      method: p.method,
      arguments: p.args,
      description: p.description,
      twoStep: false,
      reason: '',
    },
    confidence: Math.round(p.confidence * 1000) / 1000,
  };
}

function act(instruction: string, nodes: OutlineNode[], secondStep: boolean, facts: Facts): { object: unknown; confidence: number } {
  if (secondStep)
    return { object: { found: false, elementId: '', method: 'click', arguments: [], description: '', twoStep: false, reason: 'done' }, confidence: 1 };
  try {
    return answer(choose(parseIntent(instruction), nodes, facts));
  } catch (e) {
    if (e instanceof Refusal) {
      const why = `the local model could not find what ${quote(instruction)} refers to on this page (${e.message})`;
      return {
        object: {
          found: false,
          elementId: '',
          method: 'click',
          arguments: [],
          description: '',
          twoStep: false,
          reason: `${why}; configure a model for instructions like this`,
        },
        confidence: 0,
      };
    }
    throw e;
  }
}

const ACTIONABLE = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'checkbox',
  'radio',
  'combobox',
  'listbox',
  'tab',
  'menuitem',
  'switch',
  'slider',
  'spinbutton',
  'option',
]);

function methodFor(n: OutlineNode): { method: string; args: string[] } {
  if (['textbox', 'searchbox', 'spinbutton'].includes(n.role)) return { method: 'fill', args: [''] };
  if (n.role === 'combobox' || n.role === 'listbox') return { method: 'selectOption', args: [] };
  if (n.role === 'checkbox' || n.role === 'switch') return { method: n.states.checked === true ? 'uncheck' : 'check', args: [] };
  return { method: 'click', args: [] };
}

function observe(instruction: string, nodes: OutlineNode[]): { object: unknown; confidence: number } {
  const actionable = nodes.filter((n) => n.id && ACTIONABLE.has(n.role) && n.states.disabled !== true);
  const describe = (n: OutlineNode) => `${n.name || n.role} ${n.role}`.trim();
  if (!instruction) {
    return {
      object: { elements: actionable.slice(0, 25).map((n) => ({ elementId: n.id!, description: describe(n), ...methodFor(n), arguments: methodFor(n).args })) },
      confidence: 1,
    };
  }
  // The same reading as act when the instruction is an action; a ranked search otherwise.
  try {
    const intent = parseIntent(instruction);
    const p = choose(intent, nodes);
    if (p.node)
      return { object: { elements: [{ elementId: p.node.id!, description: p.description, method: p.method, arguments: p.args }] }, confidence: p.confidence };
  } catch {
    /* not an action: rank by text */
  }
  const want = instruction.replace(/\b(find|show|list|get|all|the|every|any|elements?|on|this|page)\b/gi, ' ');
  const roleWord = /\b(buttons?|links?|fields?|inputs?|checkbox(es)?|tabs?)\b/i.exec(instruction)?.[1]?.toLowerCase();
  const roleOk = (n: OutlineNode) =>
    !roleWord ||
    (roleWord.startsWith('button') && n.role === 'button') ||
    (roleWord.startsWith('link') && n.role === 'link') ||
    ((roleWord.startsWith('field') || roleWord.startsWith('input')) && ['textbox', 'searchbox', 'spinbutton', 'combobox'].includes(n.role)) ||
    (roleWord.startsWith('checkbox') && n.role === 'checkbox') ||
    (roleWord.startsWith('tab') && n.role === 'tab');
  const rest = want.replace(/\b(buttons?|links?|fields?|inputs?|checkbox(es)?|tabs?)\b/gi, ' ').trim();
  const ranked = actionable
    .filter(roleOk)
    .map((n) => ({ n, s: rest ? similarity(rest, `${n.name} ${typeof n.states.placeholder === 'string' ? n.states.placeholder : ''}`) : 0.7 }))
    .filter((c) => c.s >= 0.5)
    .sort((a, b) => b.s - a.s || a.n.index - b.n.index)
    .slice(0, 10);
  return {
    object: { elements: ranked.map(({ n }) => ({ elementId: n.id!, description: describe(n), ...methodFor(n), arguments: methodFor(n).args })) },
    confidence: ranked[0]?.s ?? 0,
  };
}
