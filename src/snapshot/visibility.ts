/**
 * What a sighted user can see, for one snapshot. Text a person cannot see must not
 * reach a model: it is how pages smuggle instructions to it (opacity 0, 1px clipped
 * boxes, off-screen positions, text the colour of its background, ...).
 *
 * The walker drops what the browser does not render at all (display, visibility,
 * hidden, inert, closed details) for every element with one native call. The checks
 * here read styles and layout, so they run only for content about to be printed
 * (after folding, on big pages), memoised per element: one getComputedStyle per
 * element at most, ancestors computed once and shared, no DOM writes (no layout
 * thrash: layout is computed once and only read).
 */
import { embeddedValue, roleOf } from './accname';
import { composedContains, composedParent } from './dom';
import { mayHaveGenerated } from './generated';

const NO_VALUE_SHOWN = new Set(['button', 'submit', 'reset', 'image', 'checkbox', 'radio', 'hidden', 'file']);

/** The value a control shows where it sits (a field's text, a select's choice, a range's value); null for anything else. */
function shownValue(e: Element): string | null {
  if (e.localName === 'input' && NO_VALUE_SHOWN.has((e as HTMLInputElement).type)) return null;
  if (e.localName === 'input' && (e as HTMLInputElement).type === 'password') return '';
  if (e.localName !== 'input' && e.localName !== 'select' && e.localName !== 'textarea' && !e.hasAttribute('role')) return null;
  return embeddedValue(e, roleOf(e));
}

interface Box {
  /** Why the element and everything in it cannot be seen; null when it can. */
  hidden: string | null;
  /** Effective opacity (its own times its ancestors'). */
  opacity: number;
  /** Effective linear scale of its transforms and its ancestors'. */
  scale: number;
  /** The scroll container this box lives in (its scroll origin bounds where content can be reached); null: the document. */
  scroller: Element | null;
  /** The scroll container of what is inside this box: itself when it clips or scrolls, else its scroller. */
  inner: Element | null;
  /** It or an ancestor is fixed or sticky: what it paints over can be scrolled out from under it. */
  pinned: boolean;
  /** It or an ancestor is positioned out of flow or transformed: it may paint over things that are not its ancestors. */
  floats: boolean;
  /** position: fixed (its coordinates are the viewport's, not the document's). */
  fixed: boolean;
  /** Nearest positioned box, itself or an ancestor: what decides whether a positioned sibling paints over it. */
  stacker: Element | null;
  /** Its computed position. */
  position: string;
  /** Its own visibility is visible (inherited, so its text shows or not, whatever its children do). */
  seen: boolean;
  style: CSSStyleDeclaration | null;
}

type Rgba = [number, number, number, number];
interface Overlay {
  el: Element;
  rect: DOMRect;
  z: number;
  /** An absolutely positioned ::before or ::after of `el` (its box drawn over `el`'s in-flow content). */
  pseudo?: boolean;
}
interface Coverer {
  o: Overlay;
  x: Element;
}
const NONE: Coverer[] = [];

const INLINE_BOXES = new Set(['inline-block', 'inline-flex', 'inline-grid', 'inline-table', 'inline flow-root', 'inline flex', 'inline grid', 'inline table']);
const MEDIA = new Set(['img', 'picture', 'video', 'canvas', 'svg', 'iframe', 'object', 'embed']);
/** Text smaller than this many CSS pixels is not legible. */
const MIN_FONT_PX = 3;
/** Below this effective opacity content is not perceivable. */
const MIN_OPACITY = 0.1;
/** WCAG contrast ratio under which text melts into its background (1 = identical colours). */
const MIN_CONTRAST = 1.1;
/**
 * Hit tests cost in proportion to the page's size (about 0.1 ms each on a 35,000-element
 * page), so a snapshot makes about this many element-tests' worth of them, spread over
 * 8 to 150 tests (deterministic for a given page, so snapshots stay stable).
 */
const HIT_TEST_WORK = 50_000;

const ROOT_BOX: Box = {
  hidden: null,
  opacity: 1,
  scale: 1,
  scroller: null,
  inner: null,
  pinned: false,
  floats: false,
  fixed: false,
  stacker: null,
  position: 'static',
  seen: true,
  style: null,
};

export class Visibility {
  private readonly boxes = new Map<Element, Box>();
  private readonly texts = new Map<Element, boolean>();
  private readonly rects = new Map<Element, DOMRect>();
  private readonly backdrops = new Map<Element, Rgba | null>();
  private readonly origins = new Map<Element | null, { x: number; y: number; rtl: boolean }>();
  private readonly overlays = new Map<Element, Overlay[]>();
  private readonly covererLists = new Map<Element, Coverer[]>();
  private hitTests = 0;
  /**
   * -1: set from the page's size on the first hit test (counting every element is a walk of
   * the whole document: right for a snapshot, which walks it anyway, not for one element).
   */
  constructor(
    private hitBudget = -1,
    /** An element a hit test has just found on top: its own text needs no hit tests of its own. */
    private readonly onTop: Element | null = null,
  ) {}

  /** Why `el` (with everything inside it) cannot be seen, or null when it can. */
  hiddenReason(el: Element): string | null {
    return this.box(el).hidden;
  }

  hidden(el: Element): boolean {
    return this.box(el).hidden !== null;
  }

  /** Whether text directly inside `el` can be read by a person looking at the page. */
  textVisible(el: Element): boolean {
    let v = this.texts.get(el);
    if (v === undefined) this.texts.set(el, (v = this.computeTextVisible(el)));
    return v;
  }

  /**
   * The text of `el`'s subtree that a person can see, in document order, spaces normalised.
   * With `values`, a field, select or range inside gives the value it shows, as it does in a
   * label's name ("Flash the screen 3 times").
   */
  visibleText(el: Element, exclude?: Element | null, shadowRootOf?: (el: Element) => ShadowRoot | null, max = Infinity, values = false): string {
    if (this.hidden(el)) return '';
    // Fast path: a leaf's text is all visible or all hidden.
    if (el.childElementCount === 0 && !shadowRootOf?.(el)) {
      return normalize(this.leafText(el));
    }
    const out: string[] = [];
    // A name needs its first words only: a page-wide container's text is not read to the end.
    this.collect(el, out, exclude ?? null, shadowRootOf, { left: max, values });
    return normalize(out.join(''));
  }

  private leafText(el: Element): string {
    if (el.localName === 'input') {
      const i = el as HTMLInputElement;
      if (i.type === 'button' || i.type === 'submit' || i.type === 'reset') return this.textVisible(el) ? i.value : '';
      return '';
    }
    return this.textVisible(el) ? (el.textContent ?? '') : '';
  }

  private collect(
    el: Element,
    out: string[],
    exclude: Element | null,
    shadowRootOf: ((el: Element) => ShadowRoot | null) | undefined,
    budget: { left: number; values?: boolean },
  ): void {
    const sr = shadowRootOf?.(el);
    const kids: Node[] = sr ? Array.from(sr.childNodes) : el.localName === 'slot' ? (el as HTMLSlotElement).assignedNodes({ flatten: true }) : [];
    if (!sr && !kids.length) for (let c = el.firstChild; c; c = c.nextSibling) kids.push(c);
    // A closed <details> shows its summary only; text directly inside it is hidden like its elements.
    const closed = el.localName === 'details' && !(el as HTMLDetailsElement).open;
    for (const c of kids) {
      if (budget.left <= 0) return;
      if (c.nodeType === 3) {
        if (closed) continue;
        // Text right inside a shadow root belongs to its host.
        const parent = (c as Text).assignedSlot ?? c.parentElement ?? (c.parentNode as ShadowRoot | null)?.host ?? null;
        if (parent && this.textVisible(parent)) {
          const t = c.nodeValue ?? '';
          out.push(t);
          budget.left -= t.length;
        }
      } else if (c.nodeType === 1) {
        const e = c as Element;
        if (e === exclude || SKIP.has(e.localName) || e.getAttribute('aria-hidden') === 'true' || this.hidden(e)) continue;
        const value = budget.values ? shownValue(e) : null;
        if (value !== null) out.push(' ', value, ' ');
        else if (e.localName === 'br') out.push(' ');
        else if (e.localName === 'input' || e.localName === 'img') out.push(' ', this.leafText(e), ' ');
        else {
          // Children laid out as boxes of their own (blocks, flex and grid items, inline-blocks,
          // cells, list items) are separate words, as in innerText and Chrome's names; an inline run
          // (<b>Hel</b>lo) is one. Its style is already read (hidden() above computed it).
          const gap = this.separate(e) ? ' ' : '';
          out.push(gap);
          this.collect(e, out, exclude, shadowRootOf, budget);
          out.push(gap);
        }
      }
    }
  }

  /** Whether `el` is laid out as a box of its own rather than as part of the run of text around it. */
  separate(el: Element): boolean {
    const d = this.box(el).style?.getPropertyValue('display');
    if (!d) return !INLINE.has(el.localName);
    return d !== 'inline' && d !== 'contents';
  }

  /** Whether a visible image with this alt text is inside `el` (a link or button named by it). */
  hasVisibleImage(el: Element): boolean {
    for (const img of Array.from(el.querySelectorAll('img[alt], [role="img"][aria-label]'))) if (!this.hidden(img)) return true;
    return false;
  }

  // --- boxes: what hides an element together with its content ---

  private box(el: Element): Box {
    let b = this.boxes.get(el);
    if (!b) {
      b = this.computeBox(el);
      this.boxes.set(el, b);
    }
    return b;
  }

  private computeBox(el: Element): Box {
    const parentEl = composedParent(el);
    const p = parentEl ? this.box(parentEl) : ROOT_BOX;
    if (p.hidden) return p;
    if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert')) return { ...p, hidden: 'aria-hidden or inert' };
    // A closed <details> shows its first summary only.
    if (
      parentEl?.localName === 'details' &&
      !(parentEl as HTMLDetailsElement).open &&
      !(el.localName === 'summary' && parentEl.querySelector(':scope > summary') === el)
    ) {
      return { ...p, hidden: 'inside a closed details' };
    }
    // display: none here or above, content-visibility: hidden above, a closed <details>, and its own
    // visibility: the browser answers those in one native call. It also says no for display: contents
    // (no box, but its content shows) and for visibility: hidden (its children may show again).
    const s = getComputedStyle(el);
    let display = '';
    let seen = true;
    if (!el.checkVisibility({ visibilityProperty: true })) {
      if (el.checkVisibility()) seen = false;
      else {
        display = s.getPropertyValue('display');
        if (display !== 'contents') return { ...p, hidden: 'not rendered', style: s };
        seen = s.getPropertyValue('visibility') === 'visible';
      }
    }
    const b: Box = { ...p, scroller: p.inner, style: s, fixed: false, position: 'static', seen };
    b.opacity = p.opacity * num(s.getPropertyValue('opacity'), 1) * filterOpacity(s.getPropertyValue('filter'));
    if (b.opacity < MIN_OPACITY) return { ...b, hidden: 'transparent (opacity)' };
    // A leaf (no child elements, no shadow root) hides only itself, and its box shows what its own
    // transform or overflow did to it: those reads (the costly ones) only when the box is tiny.
    const leaf = el.childElementCount === 0 && !el.shadowRoot && !el.localName.includes('-') && el.localName !== 'slot';
    const r = leaf ? this.rect(el) : null;
    const tiny = !r || r.width < 4 || r.height < 4;
    if (tiny && !display) display = s.getPropertyValue('display');
    const boxless = display === 'contents' || (display.startsWith('inline') && !INLINE_BOXES.has(display));
    // Transforms do not apply to plain inline boxes (or to boxless ones).
    const t = boxless || !tiny ? 'none' : s.getPropertyValue('transform');
    const sc = boxless || !tiny ? 'none' : s.getPropertyValue('scale');
    let own = 1;
    if (t !== 'none') own *= matrixScale(t);
    if (sc !== 'none') own *= scaleOf(sc);
    b.scale = p.scale * own;
    if (b.scale < 0.05) return { ...b, hidden: 'scaled to nothing' };
    const cp = s.getPropertyValue('clip-path');
    if (cp !== 'none' && clipPathHidesAll(cp)) return { ...b, hidden: 'clip-path hides it' };
    const position = s.getPropertyValue('position');
    b.position = position;
    const outOfFlow = position === 'absolute' || position === 'fixed';
    if (outOfFlow) {
      const clip = s.getPropertyValue('clip');
      if (clip !== 'auto' && clipRectHidesAll(clip)) return { ...b, hidden: 'clip hides it' };
    }
    // (translate: moves a box without scaling it; the text's own position check catches it, and reading it costs.)
    const moved = outOfFlow || position === 'relative' || t !== 'none' || (!tiny && !!r && (r.right <= 0 || r.bottom <= 0));
    if (position !== 'static') b.stacker = el;
    b.fixed = position === 'fixed';
    b.pinned = p.pinned || position === 'fixed' || position === 'sticky';
    b.floats = p.floats || moved;
    if (!boxless) {
      const ox = tiny ? s.getPropertyValue('overflow-x') : 'visible';
      const oy = tiny ? s.getPropertyValue('overflow-y') : 'visible';
      if (ox !== 'visible' || oy !== 'visible') {
        // A box that clips its content to (almost) nothing: the "sr-only" pattern, height 0 with overflow hidden.
        if ((ox !== 'visible' && el.clientWidth <= 1) || (oy !== 'visible' && el.clientHeight <= 1)) return { ...b, hidden: 'clipped to a 1px box' };
        // What is inside measures its scroll origin from here.
        if (ox !== 'clip' && oy !== 'clip') b.inner = el;
      }
      // Placed where no scrolling reaches (left: -9999px and its kin). Only a box that is moved
      // can get there on its own; static text pushed by margins is checked with the text.
      if (moved && this.outOfReach(el, b)) return { ...b, hidden: 'positioned off-screen' };
    }
    return b;
  }

  private rect(el: Element): DOMRect {
    let r = this.rects.get(el);
    if (!r) this.rects.set(el, (r = el.getBoundingClientRect()));
    return r;
  }

  /** Where the content of a scroller (or the document) starts, in viewport coordinates: nothing before it can be scrolled to. */
  private origin(scroller: Element | null): { x: number; y: number; rtl: boolean } {
    let o = this.origins.get(scroller);
    if (!o) {
      if (!scroller) {
        o = { x: -window.scrollX, y: -window.scrollY, rtl: getComputedStyle(document.documentElement).direction === 'rtl' };
      } else {
        const r = this.rect(scroller);
        const st = this.box(scroller).style;
        o = {
          x: r.left + scroller.clientLeft - scroller.scrollLeft,
          y: r.top + scroller.clientTop - scroller.scrollTop,
          rtl: st?.getPropertyValue('direction') === 'rtl',
        };
      }
      this.origins.set(scroller, o);
    }
    return o;
  }

  /**
   * Entirely before the scroll origin of its scroll container (or the page), where no
   * scrolling reaches; a fixed box entirely outside the viewport. Content after the
   * viewport is left alone: pages scroll there, by hand or by script.
   */
  private outOfReach(el: Element, b: Box, indent = 0): boolean {
    const r = this.rect(el);
    if (r.width === 0 && r.height === 0) return false; // no box of its own: its content decides
    if (b.fixed) return r.right + indent <= 0 || r.bottom <= 0 || r.left + indent >= window.innerWidth || r.top >= window.innerHeight;
    const o = this.origin(b.scroller);
    // A negative text-indent moves the text (at most the box's width long) left by that much.
    return (!o.rtl && r.right + indent <= o.x) || r.bottom <= o.y;
  }

  // --- text: what hides text but not the box around it ---

  private computeTextVisible(el: Element): boolean {
    const b = this.box(el);
    if (b.hidden) return false;
    const s = b.style;
    if (!s) return true;
    // Its own content-visibility: hidden skips its text (its children's boxes already say so themselves).
    if (!b.seen || s.getPropertyValue('content-visibility') === 'hidden') return false;
    if (el instanceof SVGElement) return true; // SVG text paints with fill, not color
    if (num(s.getPropertyValue('font-size'), 16) * b.scale < MIN_FONT_PX) return false;
    const fill = parseColor(s.getPropertyValue('-webkit-text-fill-color') || s.getPropertyValue('color'));
    if (fill) {
      const alpha = fill[3] * b.opacity;
      if (alpha < MIN_OPACITY && !this.paintedOtherwise(el, s)) return false;
      if (alpha >= MIN_OPACITY && this.blendsIn(el, b, fill)) return false;
    }
    const indent = num(s.getPropertyValue('text-indent'), 0);
    // text-indent: -9999px, off the page or out of a box that clips it (the image-replacement trick).
    if (indent < 0 && (this.outOfReach(el, b, indent) || (b.inner === el && -indent >= this.rect(el).width))) return false;
    if (this.outOfReach(el, b) || this.textOutOfReach(el, b)) return false; // e.g. static text pushed away by negative margins
    if (this.covered(el, b) || this.behindBackground(el)) return false;
    return true;
  }

  /** A box that reaches past the scroll origin (a huge negative margin widens it): where is its text itself? */
  private textOutOfReach(el: Element, b: Box): boolean {
    if (b.fixed) return false;
    const r = this.rect(el);
    const o = this.origin(b.scroller);
    if (o.rtl || r.left >= o.x) return false;
    const range = document.createRange();
    let any = false;
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType !== 3 || !c.nodeValue?.trim()) continue;
      range.selectNodeContents(c);
      for (const tr of Array.from(range.getClientRects())) {
        if (tr.width === 0 && tr.height === 0) continue;
        any = true;
        if (tr.right > o.x && tr.bottom > o.y) return false;
      }
    }
    return any;
  }

  /** Transparent text can still show: gradient text (background-clip: text) or an outline (text stroke). */
  private paintedOtherwise(el: Element, s: CSSStyleDeclaration): boolean {
    if (num(s.getPropertyValue('-webkit-text-stroke-width'), 0) > 0 && (parseColor(s.getPropertyValue('-webkit-text-stroke-color'))?.[3] ?? 1) > 0) return true;
    for (let e: Element | null = el, i = 0; e && i < 4; e = composedParent(e), i++) {
      const es = this.box(e).style;
      if (!es) break;
      if (
        (es.getPropertyValue('background-clip') === 'text' || es.getPropertyValue('-webkit-background-clip') === 'text') &&
        es.getPropertyValue('background-image') !== 'none'
      )
        return true;
    }
    return false;
  }

  /**
   * The colour behind an element's content from its ancestors' background colours; null when
   * media or an unparsed colour is involved. Background images are looked for only when the
   * colours say the text blends in (rare), which keeps a read per element off the common path.
   */
  private backdrop(el: Element): Rgba | null {
    if (this.backdrops.has(el)) return this.backdrops.get(el)!;
    let out: Rgba | null;
    const s = this.box(el).style;
    const parent = composedParent(el);
    if (MEDIA.has(el.localName)) out = null;
    else {
      const bg = s ? parseColor(s.getPropertyValue('background-color')) : null;
      if (s && !bg)
        out = null; // a colour space this does not parse: do not guess
      else if (bg && bg[3] >= 0.99) out = bg;
      else {
        const under = parent ? this.backdrop(parent) : ([255, 255, 255, 1] as Rgba); // the canvas is white
        out = under && bg ? over(bg, under) : under;
      }
    }
    this.backdrops.set(el, out);
    return out;
  }

  /** Whether a background image paints between the text of `el` and the first opaque background colour behind it. */
  private imageBehind(el: Element): boolean {
    for (let e: Element | null = el; e; e = composedParent(e)) {
      const s = this.box(e).style;
      if (!s) break;
      if (s.getPropertyValue('background-image') !== 'none') return true;
      const bg = parseColor(s.getPropertyValue('background-color'));
      if (bg && bg[3] >= 0.99) break;
    }
    return false;
  }

  /** Text the colour of what is behind it. */
  private blendsIn(el: Element, b: Box, fill: Rgba): boolean {
    const bg = this.backdrop(el);
    if (!bg) return false;
    const fg = over([fill[0], fill[1], fill[2], fill[3] * b.opacity], bg);
    if (contrast(fg, bg) >= MIN_CONTRAST || this.imageBehind(el)) return false;
    // Out-of-flow or transformed text may sit on something other than its ancestors' background (a hero image): look.
    if (!b.floats) return true;
    const r = this.rect(el);
    if (r.bottom > 0 && r.right > 0 && r.top < window.innerHeight && r.left < window.innerWidth) {
      const root = el.getRootNode() as Document | ShadowRoot;
      const x = Math.min(Math.max((r.left + r.right) / 2, 0), window.innerWidth - 1);
      const y = Math.min(Math.max((r.top + r.bottom) / 2, 0), window.innerHeight - 1);
      const stack = root.elementsFromPoint(x, y);
      const i = stack.findIndex((e) => e === el || composedContains(el, e));
      if (i < 0) return false;
      for (const e of stack.slice(i + 1)) {
        if (composedContains(el, e)) continue;
        if (MEDIA.has(e.localName)) return false;
        const es = this.box(e).style;
        if (!es) continue;
        if (es.getPropertyValue('background-image') !== 'none') return false;
        const c = parseColor(es.getPropertyValue('background-color'));
        if (c && c[3] >= 0.5) return contrast(fg, over(c, [255, 255, 255, 1])) < MIN_CONTRAST;
      }
      return true;
    }
    // Off the viewport: only media under it could be what makes it readable.
    const container = (el as HTMLElement).offsetParent ?? document.body;
    if (!container) return true;
    for (const m of Array.from(container.querySelectorAll('img, picture, video, canvas, svg, iframe, object, embed, [style*="background"]'))) {
      const mr = this.rect(m);
      if (mr.left < r.right && mr.right > r.left && mr.top < r.bottom && mr.bottom > r.top) return false;
    }
    return true;
  }

  /**
   * Text entirely under an opaque element that does not move with the viewport. First a
   * cheap geometric look for the usual culprit, an opaque absolutely positioned sibling (of
   * the element or of an ancestor) laid over it; then, for text in the viewport and within
   * a budget, hit tests: one point first (the common answer: the text is on top), then the
   * corners.
   */
  private covered(el: Element, b: Box): boolean {
    const box = this.rect(el);
    if (box.width === 0 && box.height === 0) return false;
    if (this.coveredBySibling(el, b, box)) return true;
    if (this.onTop && composedContains(this.onTop, el)) return false;
    if (this.hitBudget < 0) this.hitBudget = Math.max(8, Math.min(150, Math.round(HIT_TEST_WORK / Math.max(1, document.getElementsByTagName('*').length))));
    if (this.hitTests >= this.hitBudget) return false;
    // Own text starts at the top of its box and overflows only downwards: a box below the viewport has none in it to test.
    if (box.top >= window.innerHeight) return false;
    // Where the words are, not the whole box: a block's line runs on past its text, and a cover
    // sized to the words leaves the rest of the box bare. (Measured only once a hit test is to be made.)
    const r = this.textRect(el) ?? box;
    let left = Math.max(r.left, 0);
    let top = Math.max(r.top, 0);
    let right = Math.min(r.right, window.innerWidth);
    let bottom = Math.min(r.bottom, window.innerHeight);
    // Only the part not scrolled away inside its containers can be tested.
    for (let sc = b.scroller; sc && right > left && bottom > top; sc = this.box(sc).scroller) {
      const sr = this.rect(sc);
      left = Math.max(left, sr.left + sc.clientLeft);
      top = Math.max(top, sr.top + sc.clientTop);
      right = Math.min(right, sr.left + sc.clientLeft + sc.clientWidth);
      bottom = Math.min(bottom, sr.top + sc.clientTop + sc.clientHeight);
    }
    if (right - left < 1 || bottom - top < 1) return false;
    this.hitTests++;
    const root = el.getRootNode() as Document | ShadowRoot;
    const cx = (left + right) / 2;
    const cy = (top + bottom) / 2;
    const hit = root.elementFromPoint(cx, cy);
    if (!hit || hit === el || composedContains(el, hit) || composedContains(hit, el)) return false;
    const points: [number, number][] = [[cx, cy]];
    if (right - left >= 3 && bottom - top >= 3) points.push([left + 1, top + 1], [right - 1, top + 1], [left + 1, bottom - 1], [right - 1, bottom - 1]);
    for (const [x, y] of points) {
      let coveredHere = false;
      for (const e of root.elementsFromPoint(x, y)) {
        if (e === el || composedContains(el, e) || composedContains(e, el)) break; // ours (or its ancestor: ours is not hit-testable) comes first
        if (this.opaqueCover(e) || this.coveredInside(e, x, y)) {
          coveredHere = true;
          break;
        }
      }
      if (!coveredHere) return false;
    }
    return true;
  }

  /** A shadow host on top at (x, y): whether what it paints there from its shadow root is opaque (the hit test stops at the host). */
  private coveredInside(host: Element, x: number, y: number): boolean {
    const sr = host.shadowRoot;
    if (!sr) return false;
    for (const e of sr.elementsFromPoint(x, y)) {
      if (e === host || !composedContains(host, e)) break;
      if (this.opaqueCover(e) || this.coveredInside(e, x, y)) return true;
    }
    return false;
  }

  /** The box of the text right inside `el` (its own text nodes), null when it has none. */
  private textRect(el: Element): DOMRect | null {
    let l = Infinity;
    let t = Infinity;
    let r = -Infinity;
    let b = -Infinity;
    const range = document.createRange();
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType !== 3 || !c.nodeValue?.trim()) continue;
      range.selectNodeContents(c);
      const x = range.getBoundingClientRect();
      if (x.width === 0 && x.height === 0) continue;
      [l, t, r, b] = [Math.min(l, x.left), Math.min(t, x.top), Math.max(r, x.right), Math.max(b, x.bottom)];
    }
    return r > l ? new DOMRect(l, t, r - l, b - t) : null;
  }

  private coveredBySibling(el: Element, b: Box, r: DOMRect): boolean {
    for (const { o, x } of this.coverers(el)) {
      if (o.z < 0) continue;
      if (o.rect.left > r.left || o.rect.top > r.top || o.rect.right < r.right || o.rect.bottom < r.bottom) continue;
      // What orders the text against x's siblings: its nearest positioned box inside x, if any. A positioned
      // box paints over in-flow content; over another positioned box only when higher, or as high and later.
      const st = b.stacker && (b.stacker === x || composedContains(x, b.stacker)) ? b.stacker : null;
      // A pseudo-element's order against positioned content is not worked out: it covers in-flow content only.
      if (o.pseudo && st) continue;
      if (st) {
        const zs = parseInt(this.box(st).style?.getPropertyValue('z-index') ?? '', 10) || 0;
        if (o.z < zs || (o.z === zs && !(st.compareDocumentPosition(o.el) & Node.DOCUMENT_POSITION_FOLLOWING))) continue;
      }
      return true;
    }
    return false;
  }

  /** Overlays that are siblings of `el` or of one of its ancestors (`x`: which one), gathered once per element. */
  private coverers(el: Element): Coverer[] {
    let list = this.covererLists.get(el);
    if (!list) {
      const parent = composedParent(el);
      if (!parent) list = NONE;
      else {
        const up = this.coverers(parent);
        const overlays = this.overlaysIn(parent);
        list = up;
        if (overlays.length) {
          const here = overlays.filter((o) => o.el !== el);
          if (here.length) list = [...up, ...here.map((o) => ({ o, x: el }))];
        }
      }
      this.covererLists.set(el, list);
    }
    return list;
  }

  /** Opaque absolutely or relatively positioned children of `parent` (parents of a few children only: a long list has no overlays worth the cost). */
  private overlaysIn(parent: Element): Overlay[] {
    let list = this.overlays.get(parent);
    if (!list) {
      list = [];
      const n = parent.childElementCount;
      if (n >= 2 && n <= 50) {
        for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
          // Siblings of printed content are mostly printed too: their boxes are wanted anyway.
          const cb = this.box(c);
          // Relatively positioned boxes paint over in-flow content too (one pulled over the text by a negative margin, say).
          if (cb.hidden || (cb.position !== 'absolute' && cb.position !== 'relative') || !this.opaqueCover(c)) continue;
          list.push({ el: c, rect: this.rect(c), z: parseInt(cb.style?.getPropertyValue('z-index') ?? '', 10) || 0 });
        }
      }
      if (n <= 50) list.push(...this.pseudoCovers(parent));
      this.overlays.set(parent, list);
    }
    return list;
  }

  /**
   * The ::before and ::after of a positioned element laid over its content: absolutely
   * positioned, opaque, with a box of their own. Their box is worked out from the element's
   * padding box and the pseudo-element's resolved offsets and size (the browser gives no rect).
   */
  private pseudoCovers(host: Element): Overlay[] {
    const hb = this.box(host);
    if (hb.hidden || hb.position === 'static' || !hb.style || hb.opacity < 0.9 || !mayHaveGenerated(host)) return [];
    const out: Overlay[] = [];
    for (const which of ['::before', '::after']) {
      const ps = getComputedStyle(host, which);
      const content = ps.getPropertyValue('content');
      if (content === 'none' || content === 'normal' || ps.getPropertyValue('position') !== 'absolute' || ps.getPropertyValue('display') === 'none') continue;
      if (num(ps.getPropertyValue('opacity'), 1) < 0.9 || ps.getPropertyValue('visibility') !== 'visible') continue;
      const bg = parseColor(ps.getPropertyValue('background-color'));
      if (ps.getPropertyValue('background-image') === 'none' && !(bg && bg[3] >= 0.9)) continue;
      const hr = this.rect(host);
      const left = hr.left + host.clientLeft + num(ps.getPropertyValue('left'), 0);
      const top = hr.top + host.clientTop + num(ps.getPropertyValue('top'), 0);
      const width = num(ps.getPropertyValue('width'), 0);
      const height = num(ps.getPropertyValue('height'), 0);
      if (width < 1 || height < 1) continue;
      out.push({ el: host, rect: new DOMRect(left, top, width, height), z: parseInt(ps.getPropertyValue('z-index'), 10) || 0, pseudo: true });
    }
    return out;
  }

  /**
   * Text of a box with a negative z-index is painted under the backgrounds of the in-flow boxes
   * around it, up to its stacking context: an opaque one of those over the text hides it.
   * The root and body are left out (their background is the canvas, painted under everything).
   */
  private behindBackground(el: Element): boolean {
    // The nearest positioned box with a z-index of its own decides the layer (only positioned
    // boxes are read: the others are many, and a z-index does nothing on them).
    let below: Element | null = null;
    for (let st = this.box(el).stacker; st && !below;) {
      const z = parseInt(this.box(st).style?.getPropertyValue('z-index') ?? '', 10);
      if (!Number.isNaN(z)) {
        if (z >= 0) return false;
        below = st;
      } else {
        const up = composedParent(st);
        st = up ? this.box(up).stacker : null;
      }
    }
    if (!below) return false;
    const r = this.rect(el);
    for (let a = composedParent(below); a && a !== document.body && a !== document.documentElement; a = composedParent(a)) {
      const s = this.box(a).style;
      if (!s || makesContext(s)) break;
      const ar = this.rect(a);
      if (ar.left > r.left || ar.top > r.top || ar.right < r.right || ar.bottom < r.bottom) continue;
      const bg = parseColor(s.getPropertyValue('background-color'));
      if (s.getPropertyValue('background-image') !== 'none' || (bg && bg[3] >= 0.9)) return true;
    }
    return false;
  }

  private opaqueCover(e: Element): boolean {
    const b = this.box(e);
    if (b.hidden || b.pinned || b.opacity < 0.9 || !b.style || !b.seen) return false;
    if (MEDIA.has(e.localName) || b.style.getPropertyValue('background-image') !== 'none') return true;
    const c = parseColor(b.style.getPropertyValue('background-color'));
    return !!c && c[3] >= 0.9;
  }
}

/** Whether a box's style makes it a stacking context (what a negative z-index is painted within). */
function makesContext(s: CSSStyleDeclaration): boolean {
  if (s.getPropertyValue('position') !== 'static' && s.getPropertyValue('z-index') !== 'auto') return true;
  return (
    num(s.getPropertyValue('opacity'), 1) < 1 ||
    s.getPropertyValue('transform') !== 'none' ||
    s.getPropertyValue('filter') !== 'none' ||
    s.getPropertyValue('isolation') === 'isolate' ||
    s.getPropertyValue('mix-blend-mode') !== 'normal' ||
    s.getPropertyValue('position') === 'fixed' ||
    s.getPropertyValue('position') === 'sticky'
  );
}

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'datalist']);
const INLINE = new Set([
  'span',
  'b',
  'i',
  'em',
  'strong',
  'small',
  'code',
  'kbd',
  'abbr',
  'mark',
  'sub',
  'sup',
  'u',
  's',
  'q',
  'cite',
  'time',
  'font',
  'var',
  'samp',
  'bdi',
  'bdo',
  'data',
  'del',
  'ins',
  'a',
  'label',
]);

const normalize = (s: string): string => s.replace(/\s+/g, ' ').trim();

function num(v: string, fallback: number): number {
  const n = parseFloat(v);
  return Number.isFinite(n) ? n : fallback;
}

/** opacity() in a filter multiplies the element's opacity. */
function filterOpacity(f: string): number {
  if (f === 'none' || !f.includes('opacity(')) return 1;
  let o = 1;
  for (const m of f.matchAll(/opacity\(\s*([\d.]+)(%?)\s*\)/g)) o *= m[2] ? parseFloat(m[1]) / 100 : parseFloat(m[1]);
  return o;
}

/** Linear scale of a computed transform: the square root of the area factor (0 for scaleX(0), scale(0), degenerate matrices). */
function matrixScale(t: string): number {
  const m = /^matrix(3d)?\(([^)]*)\)$/.exec(t);
  if (!m) return 1;
  const v = m[2].split(',').map(Number);
  const [a, b, c, d] = m[1] ? [v[0], v[1], v[4], v[5]] : [v[0], v[1], v[2], v[3]];
  const det = Math.abs(a * d - b * c);
  return Number.isFinite(det) ? Math.sqrt(det) : 1;
}

/** The `scale` property: "sx", "sx sy" or "sx sy sz" (numbers or percentages). */
function scaleOf(v: string): number {
  const parts = v
    .trim()
    .split(/\s+/)
    .map((p) => (p.endsWith('%') ? parseFloat(p) / 100 : parseFloat(p)));
  const sx = parts[0] ?? 1;
  const sy = parts[1] ?? sx;
  return Number.isFinite(sx * sy) ? Math.sqrt(Math.abs(sx * sy)) : 1;
}

/** clip-path shapes that leave nothing: inset(50%) and more, circle(0), ellipse(0 ...), a polygon with no area. */
export function clipPathHidesAll(cp: string): boolean {
  const inset = /^inset\(([^)]*)\)/.exec(cp);
  if (inset) {
    const vals = inset[1]
      .split(/\s+round\s+/)[0]
      .trim()
      .split(/\s+/);
    const [t, r = t, b = t, l = r] = vals;
    const pct = (x: string) => (x.endsWith('%') ? parseFloat(x) : NaN);
    if (pct(t) + pct(b) >= 100 || pct(l) + pct(r) >= 100) return true;
    return false;
  }
  const circle = /^circle\(\s*([\d.]+)(px|%)?/.exec(cp);
  if (circle) return parseFloat(circle[1]) === 0;
  const ellipse = /^ellipse\(\s*([\d.]+)(?:px|%)?\s+([\d.]+)/.exec(cp);
  if (ellipse) return parseFloat(ellipse[1]) === 0 || parseFloat(ellipse[2]) === 0;
  const poly = /^polygon\(([^)]*)\)/.exec(cp);
  if (poly) {
    const pts = poly[1]
      .replace(/^\s*(nonzero|evenodd)\s*,/, '')
      .split(',')
      .map((p) =>
        p
          .trim()
          .split(/\s+/)
          .map((x) => parseFloat(x)),
      );
    if (pts.some((p) => p.length < 2 || p.some((x) => !Number.isFinite(x)))) return false;
    let area = 0;
    for (let i = 0; i < pts.length; i++) {
      const [x1, y1] = pts[i];
      const [x2, y2] = pts[(i + 1) % pts.length];
      area += x1 * y2 - x2 * y1;
    }
    return Math.abs(area) < 1e-6;
  }
  return false;
}

/** clip: rect(top, right, bottom, left) with (almost) no area. */
export function clipRectHidesAll(clip: string): boolean {
  const m = /^rect\(([^)]*)\)$/.exec(clip);
  if (!m) return false;
  const [t, r, b, l] = m[1].split(/[\s,]+/).filter(Boolean);
  const v = (x: string | undefined) => (x === undefined || x === 'auto' ? NaN : parseFloat(x));
  const w = v(r) - v(l);
  const h = v(b) - v(t);
  return (Number.isFinite(w) && w <= 1) || (Number.isFinite(h) && h <= 1);
}

const colors = new Map<string, Rgba | null>();

/** rgb()/rgba() as computed styles serialise them; null for other colour spaces (no guessing). Pages use few colours: memoised. */
export function parseColor(c: string): Rgba | null {
  let v = colors.get(c);
  if (v === undefined) {
    v = parseColorOnce(c);
    if (colors.size > 500) colors.clear();
    colors.set(c, v);
  }
  return v;
}

function parseColorOnce(c: string): Rgba | null {
  if (c === 'transparent') return [0, 0, 0, 0];
  const m = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(c);
  if (!m) return null;
  const a = m[4] === undefined ? 1 : m[4].endsWith('%') ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
  return [+m[1], +m[2], +m[3], a];
}

/** `top` painted over an opaque `under`. */
function over(top: Rgba, under: Rgba): Rgba {
  const a = top[3];
  return [top[0] * a + under[0] * (1 - a), top[1] * a + under[1] * (1 - a), top[2] * a + under[2] * (1 - a), 1];
}

const channel = (v: number): number => {
  const s = v / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};
const lums = new Map<number, number>();

function luminance(c: Rgba): number {
  const key = (Math.round(c[0]) << 16) | (Math.round(c[1]) << 8) | Math.round(c[2]);
  let l = lums.get(key);
  if (l === undefined) {
    l = 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2]);
    if (lums.size > 2000) lums.clear();
    lums.set(key, l);
  }
  return l;
}

/** WCAG contrast ratio of two opaque colours (1 to 21). */
export function contrast(a: Rgba, b: Rgba): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/**
 * A short description of an element for messages (tag, id, classes, the first words a person
 * can see). Messages can reach a model (an agent reads its tools' results), so hidden text stays out.
 */
/** `onTop`: a hit test has just found `el` on top (an action's check), so its text is not covered. */
export function describeElement(el: Element, onTop = false): string {
  const id = el.id ? `#${el.id}` : '';
  const cls = typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\s+/).slice(0, 2).join('.') : '';
  let text = '';
  try {
    // One element's few text boxes: a small fixed hit-test budget, so the cost does not grow with the page.
    text = new Visibility(8, onTop ? el : null).visibleText(el).slice(0, 40);
  } catch {
    /* a detached element: no text */
  }
  return `<${el.localName}${id}${cls}>${text ? ` "${text}"` : ''}`;
}
