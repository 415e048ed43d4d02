/**
 * DOM-side parts of actions that input events cannot express: focusing and
 * selecting a field before text is inserted, choosing native select options,
 * reading check state, and scrolling.
 */
import { composedContains, deepElementFromPoint, defaultShadowRootOf, normalizeSpace } from './dom';
import { clip } from '../protocol/text';
import { choicesOf } from './choices';
import { pressSeen, watchPress } from './press-watch';
import { valueForInput } from '../models/local/input-values';
import type { DrawnShape, DrawnShapes, OpResult, ResizeGrips } from '../protocol/content-messages';
import type { RiskFacts } from '../protocol/approval';

const TEXT_TYPES = new Set(['', 'text', 'search', 'url', 'tel', 'password', 'email', 'number']);
/** Input types whose text can be selected in part (setSelectionRange throws on email and number; a password's is not shown). */
const SELECTION_TYPES = new Set(['', 'text', 'search', 'url', 'tel']);
/** Input types whose value cannot be typed; Playwright sets these directly too. */
const SET_VALUE_TYPES = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);

/** The focused element, inside open shadow roots too. */
function deepActive(): Element | null {
  let a = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  return a;
}

function fire(el: Element): void {
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
}

function scrollContainer(el: Element): Element | null {
  for (let n: Element | null = el; n; n = n.parentElement) {
    if (n === document.body || n === document.documentElement) return null;
    const s = getComputedStyle(n);
    if (/(auto|scroll)/.test(s.overflowY) && n.scrollHeight > n.clientHeight + 1) return n;
  }
  return null;
}

/** Where `needle` starts in `hay`, every time. */
function occurrences(hay: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) at.push(i);
  return at;
}

/**
 * Select the one place `el` shows `text` (spaces as the page lays them out, case as written, else any
 * case), as a person's drag over it would. Text a sighted user cannot see is not searched; text shown
 * twice is refused, since which one was meant is unknown.
 */
function selectText(el: Element, text: string): OpResult {
  const want = normalizeSpace(text);
  // A text field's text is its value, selected as a person's drag in it would.
  if (el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && SELECTION_TYPES.has(el.type))) {
    return selectInField(el, want);
  }
  const pieces: { node: Text; start: number }[] = [];
  let shown = '';
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
    const parent = n.parentElement;
    if (!parent || !parent.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    // Each run of white space counts as one space, so offsets map back to the node's own characters.
    pieces.push({ node: n, start: shown.length });
    shown += n.data.replace(/\s/g, ' ');
  }
  // Match over the text with runs of spaces squeezed, then map back to raw offsets.
  const raw: number[] = [];
  let squeezed = '';
  for (let i = 0; i < shown.length; i++) {
    if (shown[i] === ' ' && squeezed.endsWith(' ')) continue;
    raw.push(i);
    squeezed += shown[i];
  }
  let hits = occurrences(squeezed, want);
  // Any case when the case as written is not shown; only where lower case keeps every offset (not "İ").
  const lower = squeezed.toLowerCase();
  if (!hits.length && lower.length === squeezed.length) hits = occurrences(lower, want.toLowerCase());
  if (hits.length !== 1) {
    const said = clip(want, 80);
    const message = hits.length ? `the text '${said}' is shown ${hits.length} times here; say which` : `the element does not show the text '${said}'`;
    return { ok: false, code: 'ACTION_FAILED', message };
  }
  const first = raw[hits[0]];
  const last = raw[hits[0] + want.length - 1];
  const pieceOf = (offset: number) => pieces.filter((p) => p.start <= offset).pop()!;
  const a = pieceOf(first);
  const b = pieceOf(last);
  const range = document.createRange();
  range.setStart(a.node, first - a.start);
  range.setEnd(b.node, last - b.start + 1);
  const sel = getSelection();
  sel?.removeAllRanges();
  sel?.addRange(range);
  return { ok: true };
}

function selectInField(el: HTMLTextAreaElement | HTMLInputElement, want: string): OpResult {
  const hay = el.value;
  let hits = occurrences(hay, want);
  if (!hits.length && hay.toLowerCase().length === hay.length) hits = occurrences(hay.toLowerCase(), want.toLowerCase());
  if (hits.length !== 1) {
    const said = clip(want, 80);
    const message = hits.length ? `the field shows '${said}' ${hits.length} times; say which` : `the field does not hold '${said}'`;
    return { ok: false, code: 'ACTION_FAILED', message };
  }
  el.focus({ preventScroll: true });
  el.setSelectionRange(hits[0], hits[0] + want.length);
  return { ok: true };
}

/** The cursors a grip shows, by the edge it resizes: the corner (both ways), the bottom edge, the right edge. */
const GRIP_CURSORS = { corner: /^(?:se|nwse)-resize$/, bottom: /^(?:s|n|ns|row)-resize$/, right: /^(?:e|w|ew|col)-resize$/ };

/**
 * Grips a script drew on a box's edges (jQuery UI's resizable, and the like): an element at the bottom-right corner, the
 * middle of the bottom edge or of the right edge, just inside or outside it, that shows a resize cursor. Each as a point
 * in the frame's viewport.
 */
function gripsOf(r: DOMRect): ResizeGrips {
  const out: ResizeGrips = {};
  const at: Record<keyof ResizeGrips, [number, number][]> = {
    corner: [
      [r.right - 3, r.bottom - 3],
      [r.right + 2, r.bottom + 2],
    ],
    bottom: [
      [r.left + r.width / 2, r.bottom - 2],
      [r.left + r.width / 2, r.bottom + 2],
    ],
    right: [
      [r.right - 2, r.top + r.height / 2],
      [r.right + 2, r.top + r.height / 2],
    ],
  };
  for (const edge of Object.keys(at) as (keyof ResizeGrips)[]) {
    for (const [x, y] of at[edge]) {
      const hit = deepElementFromPoint(document, x, y, defaultShadowRootOf);
      if (hit && GRIP_CURSORS[edge].test(getComputedStyle(hit).cursor)) {
        out[edge] = { x, y };
        break;
      }
    }
  }
  return out;
}

export function runOp(el: Element, op: string, args: string[]): OpResult {
  const h = el as HTMLElement;
  switch (op) {
    case 'risk':
      return { ok: true, value: riskFacts(el) };
    case 'hitsAt': {
      // Whether a press at this point (in the frame's viewport) lands on the element or inside it.
      const hit = deepElementFromPoint(document, Number(args[0]), Number(args[1]), defaultShadowRootOf);
      return { ok: true, value: !!hit && composedContains(el, hit) };
    }
    case 'watchPress':
      watchPress(el);
      return { ok: true };
    case 'pressSeen':
      return { ok: true, value: pressSeen() };
    case 'box': {
      // Its size, and whether a person can resize it by its corner grip (a text area, a box styled `resize`), or by
      // grips a script drew on its edges.
      const r = el.getBoundingClientRect();
      const resize = getComputedStyle(el).resize;
      return { ok: true, value: { width: r.width, height: r.height, resize, ...(resize === 'none' ? { grips: gripsOf(r) } : {}) } };
    }
    case 'shapes':
      return { ok: true, value: args[0] === 'marks' ? marksOf(el) : shapesOf(el) };
    case 'choices':
      return { ok: true, value: choicesOf(el) };
    case 'focus':
      h.focus({ preventScroll: true });
      return { ok: true };
    case 'focusEnd': {
      // `type` presses keys at the caret. A field it gives focus to gets the caret after its text, as a
      // person clicking past the text would (Chrome's focus() leaves it before: "3" into "1" made "31").
      // A field that has focus already keeps its caret where it is.
      if (deepActive() === el) return { ok: true };
      h.focus({ preventScroll: true });
      getSelection()?.modify('move', 'forward', 'documentboundary');
      return { ok: true };
    }
    case 'selectText':
      return selectText(el, args[0] ?? '');
    case 'focusRunBox': {
      // One box of the run, focused with what it holds selected, so typing replaces it.
      const box = boxRun(el)[Number(args[0])];
      if (!box) return { ok: false, code: 'ACTION_FAILED', message: `the code's boxes changed: box ${Number(args[0]) + 1} is gone` };
      box.focus({ preventScroll: true });
      box.select();
      return { ok: true };
    }
    case 'blur':
      h.blur();
      return { ok: true };
    case 'focusSelect': {
      if (el instanceof HTMLInputElement && SET_VALUE_TYPES.has(el.type)) {
        el.focus();
        // "11/05/2016" into a date input, "3:15 PM" into a time input: the form the input takes.
        const want = valueForInput(el.type, args[0] ?? '');
        el.value = want;
        if (el.value !== want && args[0])
          return { ok: false, code: 'ACTION_FAILED', message: `'${args[0]}' is not a valid value for an input of type ${el.type}` };
        fire(el);
        return { ok: true, mode: 'done' };
      }
      if (el instanceof HTMLInputElement && !TEXT_TYPES.has(el.type)) {
        return { ok: false, code: 'ACTION_FAILED', message: `cannot fill an input of type ${el.type}` };
      }
      if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
        if (el.readOnly) return { ok: false, code: 'ELEMENT_NOT_ACTIONABLE', message: 'the field is read-only' };
        el.focus();
        el.select();
        // The first of a run of one-character boxes says how many there are: a value that long goes a character a box.
        const oneLine = el instanceof HTMLInputElement;
        return { ok: true, mode: 'insertText', oneLine, ...(el.maxLength === 1 ? { value: boxRun(el).length } : {}) };
      }
      if (h.isContentEditable) {
        h.focus();
        const range = document.createRange();
        range.selectNodeContents(h);
        const sel = window.getSelection();
        sel?.removeAllRanges();
        sel?.addRange(range);
        return { ok: true, mode: 'insertText' };
      }
      return { ok: false, code: 'ACTION_FAILED', message: `cannot fill <${el.localName}>: it is not an input, textarea or contenteditable element` };
    }
    case 'selectOption': {
      if (!(el instanceof HTMLSelectElement)) {
        return { ok: false, code: 'ACTION_FAILED', message: `selectOption needs a native <select>, got <${el.localName}>` };
      }
      const options = Array.from(el.options);
      const picks: HTMLOptionElement[] = [];
      for (const want of args) {
        const w = normalizeSpace(want);
        const o =
          options.find((x) => x.value === want) ??
          options.find((x) => normalizeSpace(x.label || x.text) === w) ??
          options.find((x) => normalizeSpace(x.label || x.text).toLowerCase() === w.toLowerCase());
        if (!o) {
          const avail = options.map((x) => JSON.stringify(normalizeSpace(x.label || x.text))).join(', ');
          return { ok: false, code: 'ACTION_FAILED', message: `no option '${want}' in the select (options: ${avail})` };
        }
        if (o.disabled) return { ok: false, code: 'ELEMENT_NOT_ACTIONABLE', message: `option '${want}' is disabled` };
        picks.push(o);
      }
      if (!picks.length) return { ok: false, code: 'INVALID_ARGUMENT', message: 'selectOption needs at least one option label or value in arguments' };
      if (picks.length > 1 && !el.multiple) return { ok: false, code: 'INVALID_ARGUMENT', message: 'this select takes a single option' };
      el.focus();
      for (const o of options) o.selected = picks.includes(o);
      fire(el);
      return { ok: true, value: picks.map((p) => p.value) };
    }
    case 'state': {
      const i = el as HTMLInputElement;
      const aria = el.getAttribute('aria-checked');
      const checked = el instanceof HTMLInputElement && (i.type === 'checkbox' || i.type === 'radio') ? i.checked : aria === null ? undefined : aria === 'true';
      return { ok: true, state: { checked, value: 'value' in i ? String(i.value) : undefined, tag: el.localName, type: i.type } };
    }
    case 'scrollTo': {
      const raw = (args[0] ?? '').trim().replace(/%$/, '');
      const pct = Number(raw);
      if (!raw || !Number.isFinite(pct) || pct < 0 || pct > 100) {
        return { ok: false, code: 'INVALID_ARGUMENT', message: `scrollTo needs a percentage from 0 to 100 as its argument, got '${args[0] ?? ''}'` };
      }
      // The second argument, checked by the engine before it reaches here: vertical (the default), horizontal or both.
      const axis = args[1] ?? 'vertical';
      const down = axis !== 'horizontal';
      const across = axis !== 'vertical';
      const scrolls = (e: Element) => (down && e.scrollHeight > e.clientHeight + 1) || (across && e.scrollWidth > e.clientWidth + 1);
      const target = el === document.documentElement || el === document.body ? null : scrollContainer(el) === el ? el : scrolls(el) ? el : null;
      if (target) {
        if (down) target.scrollTop = ((target.scrollHeight - target.clientHeight) * pct) / 100;
        if (across) target.scrollLeft = ((target.scrollWidth - target.clientWidth) * pct) / 100;
      } else {
        // The viewport less its scroll bars: with both bars, innerHeight would stop a bar's width short of the end.
        const root = document.scrollingElement ?? document.documentElement;
        window.scrollTo({
          ...(down ? { top: ((root.scrollHeight - root.clientHeight) * pct) / 100 } : {}),
          ...(across ? { left: ((root.scrollWidth - root.clientWidth) * pct) / 100 } : {}),
          behavior: 'instant',
        });
      }
      return { ok: true };
    }
    case 'scrollIntoView':
      el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
      return { ok: true };
    case 'scrollChunk': {
      const dir = args[0] === 'up' ? -1 : 1;
      const own =
        el !== document.documentElement &&
        el !== document.body &&
        el.scrollHeight > el.clientHeight + 1 &&
        /(auto|scroll)/.test(getComputedStyle(el).overflowY);
      const target = own ? el : scrollContainer(el);
      if (target) target.scrollBy({ top: dir * target.clientHeight, behavior: 'instant' });
      else window.scrollBy({ top: dir * window.innerHeight, behavior: 'instant' });
      return { ok: true };
    }
    default:
      return { ok: false, code: 'UNSUPPORTED_METHOD', message: `unknown operation '${op}'` };
  }
}

/**
 * What an action on `el` may set off, for approval (engine/people/approval.ts): whether it submits a
 * form, where a link or a form leads, whether it chooses a file, and the words it shows. Read
 * only; the page is not changed.
 */
function riskFacts(el: Element): RiskFacts {
  const link = el.closest('a[href]') as HTMLAnchorElement | null;
  const label = el.closest('label') as HTMLLabelElement | null;
  const control = el instanceof HTMLLabelElement ? el.control : (label?.control ?? null);
  const input = el instanceof HTMLInputElement ? el : control instanceof HTMLInputElement ? control : null;
  const button = el.closest('button, input[type=submit], input[type=image]') as HTMLButtonElement | HTMLInputElement | null;
  const form = (button?.form ?? (el as HTMLInputElement).form ?? el.closest('form')) as HTMLFormElement | null;
  const submits = !!button && !!button.form && (button instanceof HTMLButtonElement ? button.type === 'submit' : true);
  const textField = el instanceof HTMLInputElement && TEXT_TYPES.has(el.type);
  const text = normalizeSpace(
    [
      el.getAttribute('aria-label'),
      (el as HTMLElement).innerText,
      (el as HTMLInputElement).value && el instanceof HTMLInputElement && !textField ? el.value : null,
      el.getAttribute('title'),
      el.getAttribute('alt'),
    ]
      .filter(Boolean)
      .join(' '),
  ).slice(0, 300);
  return {
    tag: el.localName,
    type: el instanceof HTMLInputElement || el instanceof HTMLButtonElement ? el.type : undefined,
    role: el.getAttribute('role') ?? undefined,
    text,
    href: link ? link.href : undefined,
    submits,
    // Enter in a single-line field submits its form (implicit submission).
    enterSubmits: !!form && textField,
    formAction: form ? form.action || location.href : undefined,
    file: input?.type === 'file',
  };
}

/** How many levels above a box its run's other boxes may sit (each box wrapped in an element of its own). */
const RUN_LEVELS = 3;

/**
 * The run of one-character boxes an input starts (a one-time code typed a character a box): it and the boxes after it
 * under the nearest ancestor that holds several, shown and enabled. An input that takes more than one character, or is
 * not the run's first box, starts none.
 */
function boxRun(el: Element): HTMLInputElement[] {
  if (!(el instanceof HTMLInputElement) || el.maxLength !== 1 || !TEXT_TYPES.has(el.type)) return [];
  let root: Element | null = el.parentElement;
  for (let level = 0; root && level < RUN_LEVELS; level++, root = root.parentElement) {
    const boxes = Array.from(root.querySelectorAll('input')).filter(
      (b) => b.maxLength === 1 && TEXT_TYPES.has(b.type) && !b.disabled && b.getClientRects().length > 0,
    );
    if (boxes.length < 2) continue;
    return boxes[0] === el ? boxes : [];
  }
  return [];
}

const round = (v: number) => Math.round(v * 10) / 10;
/** A shape as a drawing holds it: its centre and size relative to the drawing's top-left corner, to a tenth of a pixel. */
const drawnAt = (tag: string, r: DOMRect, box: DOMRect, fill: string): DrawnShape => ({
  tag,
  x: round(r.left + r.width / 2 - box.left),
  y: round(r.top + r.height / 2 - box.top),
  w: round(r.width),
  h: round(r.height),
  fill,
});

/** The largest side of a mark: a dot or small square drawn as a box of its own ("the target pixel"). */
const MARK_MAX_PX = 24;

/**
 * The marks drawn inside an element as boxes of their own: small elements with no content, shown, filled with a colour
 * of their own (a 5×5 black square on a page that takes clicks everywhere). Same form as its shapes, tag "box".
 */
function marksOf(el: Element): DrawnShapes {
  const box = el.getBoundingClientRect();
  const marks: DrawnShape[] = [];
  for (const m of el.querySelectorAll('*')) {
    if (marks.length >= SHAPES_MAX) break;
    if (m.childElementCount || (m.textContent ?? '').trim() || !(m instanceof HTMLElement) || /^(?:input|img|video|canvas|iframe|svg)$/.test(m.localName))
      continue;
    const r = m.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || r.width > MARK_MAX_PX || r.height > MARK_MAX_PX) continue;
    const cs = getComputedStyle(m);
    const fill = /rgba\(.*,\s*0\)$|transparent/.test(cs.backgroundColor) ? '' : cs.backgroundColor;
    if (!fill || cs.visibility !== 'visible' || Number(cs.opacity) === 0 || !m.checkVisibility()) continue;
    marks.push(drawnAt('box', r, box, fill));
  }
  return { width: box.width, height: box.height, shapes: marks };
}

/** The most shapes a drawing is read for. */
const SHAPES_MAX = 200;
/** SVG elements that draw one shape each. */
const SHAPE_TAGS = new Set(['circle', 'ellipse', 'rect', 'polygon', 'polyline', 'line', 'path']);

/**
 * The shapes an element draws (an SVG the page takes clicks on), as a person sees them: each one's kind, centre and size
 * relative to the element's top-left corner, and its fill; shapes that are not drawn (hidden, in <defs>) are left out.
 */
function shapesOf(shape: Element): DrawnShapes {
  // Asked of one of its shapes (a drawing that takes no clicks of its own), the whole drawing it is in.
  const el = shape instanceof SVGGraphicsElement && !(shape instanceof SVGSVGElement) ? (shape.ownerSVGElement ?? shape) : shape;
  const box = el.getBoundingClientRect();
  const shapes: DrawnShape[] = [];
  for (const s of el.querySelectorAll(Array.from(SHAPE_TAGS).join(','))) {
    if (shapes.length >= SHAPES_MAX) break;
    if (s.closest('defs, clipPath, mask, pattern, marker, symbol')) continue;
    const cs = getComputedStyle(s);
    if (cs.display === 'none' || cs.visibility !== 'visible' || Number(cs.opacity) === 0) continue;
    const r = s.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const drawn = drawnAt(s.localName, r, box, cs.fill);
    if (cs.stroke && cs.stroke !== 'none') drawn.stroke = cs.stroke;
    // A line's box loses which way it slopes: its ends, through the transforms it is drawn with.
    const m = s instanceof SVGLineElement ? s.getScreenCTM() : null;
    if (m && s instanceof SVGLineElement) {
      const at = (x: number, y: number) => new DOMPoint(x, y).matrixTransform(m);
      const a = at(s.x1.baseVal.value, s.y1.baseVal.value);
      const b = at(s.x2.baseVal.value, s.y2.baseVal.value);
      drawn.ends = [round(a.x - box.left), round(a.y - box.top), round(b.x - box.left), round(b.y - box.top)];
    }
    shapes.push(drawn);
  }
  return { width: box.width, height: box.height, shapes };
}
