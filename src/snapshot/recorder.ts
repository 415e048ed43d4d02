/**
 * Take over: while programs are paused, what the person does on the page, as Actions the engine
 * replays (selector, method, arguments, description). Only trusted input counts: a page script
 * cannot make up a step. Selectors come from the same builder the engine's snapshots use
 * (selector.ts), so a stored fix resolves as an inferred step does.
 *   - a click on a control (its nearest clickable ancestor) → click;
 *   - typing into a field → fill with what it holds (further typing updates the same step);
 *   - a choice in a select → selectOption with the chosen options' labels;
 *   - Enter in a field → press Enter.
 * Password fields are not recorded: their value would be stored in the cache.
 */
import { getRole } from 'dom-accessibility-api';
import { accessibleName } from './accname';
import type { ManualActionMessage } from '../protocol/content-messages';
import type { Action } from '../protocol/schemas';
import { defaultShadowRootOf, normalizeSpace } from './dom';
import { selectorFor } from './selector';

type Sink = (m: ManualActionMessage) => void;

const CLICKABLE =
  'button, a[href], summary, label, input, [role=button], [role=link], [role=checkbox], [role=radio], [role=switch], ' +
  '[role=tab], [role=menuitem], [role=option], [onclick]';
const TEXT_INPUT = /^(text|search|email|url|tel|number|date|time|datetime-local|month|week|)$/;

let sink: Sink | null = null;
let recording = false;
/** The field the last fill was for: more typing there replaces that step. */
let lastFill: Element | null = null;
/** The control a label's click activates: its own click (which the browser sends too) is not a second step. */
let labelled: Element | null = null;

/** Where recorded steps go (the content script sends them to the worker). */
export function setManualSink(f: Sink): void {
  sink = f;
}

export function setRecording(on: boolean): void {
  recording = on;
  lastFill = null;
}

export function isRecording(): boolean {
  return recording;
}

function targetOf(e: Event): Element | null {
  const t = e.composedPath()[0];
  return t instanceof Element ? t : null;
}

function describe(el: Element): string {
  let name = '';
  try {
    name = accessibleName(el, defaultShadowRootOf);
  } catch {
    // An element the library cannot name: described by its role and hints below.
  }
  const role = el.getAttribute('role') ?? getRole(el) ?? el.localName;
  if (name) return `${role} "${name.slice(0, 80)}"`;
  // No accessible name (an icon-only button): what else tells it apart.
  const hint =
    el.getAttribute('title') ??
    el.getAttribute('data-icon') ??
    (typeof el.className === 'string' && el.className.trim() ? `class ${el.className.trim().split(/\s+/).slice(0, 2).join(' ')}` : '');
  return `${role} with no name${hint ? ` (${hint})` : ''}`;
}

function emit(el: Element, method: string, args: string[], merge = false): void {
  if (!sink) return;
  const action: Action = { selector: selectorFor(el, defaultShadowRootOf), method, arguments: args, description: describe(el) };
  try {
    sink({ type: 'dh:manual', action, merge });
  } catch {
    // The worker is restarting: this step is lost, the next ones still go.
  }
}

const isTextField = (el: Element): el is HTMLInputElement | HTMLTextAreaElement =>
  el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && TEXT_INPUT.test(el.type));

function onClick(e: MouseEvent): void {
  if (!recording || !e.isTrusted || e.button !== 0) return;
  const t = targetOf(e);
  if (!t) return;
  const el = t.closest(CLICKABLE) ?? t;
  // Clicking into a field or a select only focuses it: what is typed or chosen is the step.
  if (isTextField(el) || el instanceof HTMLSelectElement || (el instanceof HTMLInputElement && el.type === 'password')) return;
  if (labelled && el === labelled) {
    labelled = null;
    return;
  }
  labelled = el instanceof HTMLLabelElement ? el.control : null;
  if (labelled) setTimeout(() => (labelled = null), 0);
  lastFill = null;
  emit(el, 'click', []);
}

function onInput(e: Event): void {
  if (!recording || !e.isTrusted) return;
  const el = targetOf(e);
  if (!el || !isTextField(el)) return;
  emit(el, 'fill', [el.value], lastFill === el);
  lastFill = el;
}

function onChange(e: Event): void {
  if (!recording || !e.isTrusted) return;
  const el = targetOf(e);
  if (!(el instanceof HTMLSelectElement)) return;
  lastFill = null;
  emit(
    el,
    'selectOption',
    [...el.selectedOptions].map((o) => normalizeSpace(o.label || o.text)),
  );
}

function onKey(e: KeyboardEvent): void {
  if (!recording || !e.isTrusted || e.key !== 'Enter' || e.isComposing) return;
  const el = targetOf(e);
  if (!el || el instanceof HTMLTextAreaElement || !(el instanceof HTMLInputElement) || el.type === 'password') return;
  lastFill = null;
  emit(el, 'press', ['Enter']);
}

/** Listen from document_start, before the page's own listeners; nothing is done until recording is on. */
export function installRecorder(): void {
  window.addEventListener('click', onClick, { capture: true, passive: true });
  window.addEventListener('input', onInput, { capture: true, passive: true });
  window.addEventListener('change', onChange, { capture: true, passive: true });
  window.addEventListener('keydown', onKey, { capture: true, passive: true });
}
