/** Self-healing: which failures of a stored step mean "the element moved", and how to find it again. */
import { ErrorCode } from '../protocol/errors';
import type { Action } from '../protocol/schemas';

/** Failures of a stored step that re-inferring it may fix: the element is not where it was. */
export const HEALABLE: ReadonlySet<string> = new Set<string>([ErrorCode.ElementNotFound, ErrorCode.ElementNotActionable, ErrorCode.ElementCovered, ErrorCode.InvalidSelector]);

/** The instruction that re-finds one stored step from its description. */
export function healInstruction(a: Action): string {
  const arg = a.arguments?.[0];
  switch (a.method) {
    case 'fill':
    case 'type':
      return `type "${arg ?? ''}" into the ${a.description}`;
    case 'selectOption':
      return `select "${arg ?? ''}" from the ${a.description}`;
    case 'check':
    case 'uncheck':
      return `${a.method} the ${a.description}`;
    case 'press':
      return `press ${arg ?? 'Enter'} in the ${a.description}`;
    case 'hover':
      return `hover over the ${a.description}`;
    case 'doubleClick':
      return `double click the ${a.description}`;
    case 'rightClick':
      return `right click the ${a.description}`;
    default:
      return `click the ${a.description}`;
  }
}
