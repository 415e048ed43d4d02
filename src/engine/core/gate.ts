/**
 * A call's gate travels with its signal: every action of the call is given that signal already,
 * so performAction and goto find the gate (people/approval.ts) without knowing who set it.
 */
import type { ActionGate } from '../ports';

const gates = new WeakMap<AbortSignal, ActionGate>();

export function bindGate(signal: AbortSignal, gate: ActionGate | undefined): void {
  if (gate) gates.set(signal, gate);
}

export function gateOf(signal: AbortSignal | undefined): ActionGate | undefined {
  return signal ? gates.get(signal) : undefined;
}
