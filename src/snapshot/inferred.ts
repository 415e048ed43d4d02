/**
 * Names for clickable elements that show no text: an icon (`<span class="trash">`), an SVG
 * shape, a colour swatch. What a sighted user sees is the shape, the colour or the picture;
 * the words here describe that, and the snapshot marks them as inferred (`namefrom=...`).
 */

/** CSS colour keywords people use when they name a colour, with their sRGB values. */
const NAMED: [string, number, number, number][] = [
  ['black', 0, 0, 0],
  ['white', 255, 255, 255],
  ['red', 255, 0, 0],
  ['lime', 0, 255, 0],
  ['green', 0, 128, 0],
  ['blue', 0, 0, 255],
  ['yellow', 255, 255, 0],
  ['cyan', 0, 255, 255],
  ['aqua', 0, 255, 255],
  ['magenta', 255, 0, 255],
  ['fuchsia', 255, 0, 255],
  ['gray', 128, 128, 128],
  ['grey', 128, 128, 128],
  ['silver', 192, 192, 192],
  ['maroon', 128, 0, 0],
  ['olive', 128, 128, 0],
  ['purple', 128, 0, 128],
  ['teal', 0, 128, 128],
  ['navy', 0, 0, 128],
  ['orange', 255, 165, 0],
  ['pink', 255, 192, 203],
  ['brown', 165, 42, 42],
  ['gold', 255, 215, 0],
  ['violet', 238, 130, 238],
  ['indigo', 75, 0, 130],
  ['turquoise', 64, 224, 208],
  ['beige', 245, 245, 220],
  ['coral', 255, 127, 80],
  ['salmon', 250, 128, 114],
  ['khaki', 240, 230, 140],
  ['tan', 210, 180, 140],
  ['crimson', 220, 20, 60],
  ['lavender', 230, 230, 250],
  ['orchid', 218, 112, 214],
  ['plum', 221, 160, 221],
  ['tomato', 255, 99, 71],
  ['chocolate', 210, 105, 30],
  ['darkgreen', 0, 100, 0],
  ['darkblue', 0, 0, 139],
  ['darkred', 139, 0, 0],
  ['lightblue', 173, 216, 230],
  ['lightgreen', 144, 238, 144],
  ['lightgray', 211, 211, 211],
  ['darkgray', 169, 169, 169],
  ['skyblue', 135, 206, 235],
  ['royalblue', 65, 105, 225],
  ['hotpink', 255, 105, 180],
  ['limegreen', 50, 205, 50],
  ['forestgreen', 34, 139, 34],
  ['seagreen', 46, 139, 87],
  ['steelblue', 70, 130, 180],
  ['slateblue', 106, 90, 205],
  ['goldenrod', 218, 165, 32],
  ['sienna', 160, 82, 45],
  ['peru', 205, 133, 63],
];
function parseRgb(css: string): [number, number, number, number] | null {
  const m = /rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)/.exec(css);
  if (!m) return null;
  const a = m[4] === undefined ? 1 : m[4].endsWith('%') ? Number(m[4].slice(0, -1)) / 100 : Number(m[4]);
  return [Number(m[1]), Number(m[2]), Number(m[3]), a];
}

/** Hue (degrees), saturation, lightness and chroma of a colour, each of the last three from 0 to 1. */
function hslOf(r: number, g: number, b: number): { h: number; s: number; l: number; d: number } {
  const R = r / 255,
    G = g / 255,
    B = b / 255;
  const max = Math.max(R, G, B),
    min = Math.min(R, G, B);
  const l = (max + min) / 2;
  const d = max - min;
  const s = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
  const h = d === 0 ? 0 : ((max === R ? ((G - B) / d) % 6 : max === G ? (B - R) / d + 2 : (R - G) / d + 4) * 60 + 360) % 360;
  return { h, s, l, d };
}

/**
 * The words a person uses for a colour that is no keyword, from its hue, saturation and
 * lightness (nearest-RGB matching names muted design colours wrongly: #61bd4f is green, not
 * gray). Dark blues read "navy blue", dark oranges "brown", light reds "pink".
 */
function hueWords(r: number, g: number, b: number): string {
  const { h, s, l, d } = hslOf(r, g, b);
  if (l < 0.13) return 'black';
  if (l > 0.94) return 'white';
  if (s < 0.15 || d < 0.08) return l > 0.75 ? 'light gray' : l < 0.3 ? 'dark gray' : 'gray';
  if (h < 12 || h >= 340) return l > 0.75 ? 'pink' : l < 0.3 ? 'dark red' : 'red';
  if (h < 42) return l < 0.38 || (s < 0.45 && l < 0.55) ? 'brown' : l > 0.8 ? 'peach' : 'orange';
  if (h < 68) return l < 0.3 ? 'olive' : 'yellow';
  if (h < 160) return l < 0.25 ? 'dark green' : l > 0.8 ? 'light green' : 'green';
  if (h < 195) return l < 0.3 ? 'teal' : 'cyan';
  if (h < 250) return l < 0.42 && h >= 215 ? 'navy blue' : l > 0.8 ? 'light blue' : 'blue';
  if (h < 285) return l > 0.8 ? 'lavender' : 'purple';
  if (h < 320) return l > 0.75 ? 'pink' : 'magenta';
  return l > 0.6 ? 'pink' : 'red';
}

/** The colour keyword ("red", "aqua"), or the hue words of other colours; "" for transparent. */
export function colourName(css: string): string {
  const c = seenColour(css);
  if (!c) return '';
  return c.keyword ?? hueWords(c.r, c.g, c.b);
}

/** A colour that shows (not transparent), with its CSS keyword when it is one. */
function seenColour(css: string): { r: number; g: number; b: number; keyword?: string } | null {
  const rgb = parseRgb(css);
  if (!rgb || rgb[3] < 0.1) return null;
  const [r, g, b] = rgb;
  return { r, g, b, keyword: NAMED.find(([, R, G, B]) => R === r && G === g && B === b)?.[0] };
}

/** Least chroma whose hue a person still sees (5% of the range: a faint pink on white); below it the colour is a gray. */
const HUE_MIN_CHROMA = 0.05;

/**
 * The hue in whole degrees of a colour that is no keyword and not a gray, else null: what "a shade of red" is told by
 * when its words ("pink", "brown") have a name of their own. A keyword colour is the author's word and keeps it.
 */
export function hueOf(css: string): number | null {
  const c = seenColour(css);
  if (!c || c.keyword) return null;
  const { h, d } = hslOf(c.r, c.g, c.b);
  return d < HUE_MIN_CHROMA ? null : Math.round(h) % 360;
}

/** Class names that say nothing about what an element does. */
const CLASS_NOISE = new Set([
  'btn',
  'button',
  'icon',
  'icons',
  'ico',
  'fa',
  'fas',
  'far',
  'fab',
  'fal',
  'glyphicon',
  'ui',
  'material',
  'symbols',
  'outlined',
  'round',
  'rounded',
  'sharp',
  'js',
  'is',
  'has',
  'active',
  'clickable',
  'pointer',
  'item',
  'el',
  'element',
  'wrapper',
  'container',
  'inner',
  'outer',
  'col',
  'row',
  'flex',
  'd',
  'lg',
  'sm',
  'md',
  'xs',
  'xl',
  'primary',
  'secondary',
  'default',
  'small',
  'large',
  'big',
  'mini',
  'link',
  'action',
  'control',
  'widget',
  'corner',
  'all',
  'state',
  'hover',
  'focus',
  'thick',
  'thin',
  'solid',
  'regular',
  'light',
  'svg',
  'img',
  'image',
  'bi',
  'mdi',
  'ti',
  'feather',
  'lucide',
  'octicon',
  'dashicons',
  'show',
  'visible',
  'pull',
  'right',
  'left',
  'float',
  'text',
  'center',
  // States a page toggles on a control (simon-says lights a button with "push"): how it looks now, never what it does.
  'push',
  'pushed',
  'pressed',
  'press',
  'selected',
  'clicked',
  'checked',
  'lit',
  'highlighted',
  'current',
  'disabled',
  'enabled',
  'inactive',
  'toggled',
  'expanded',
  'collapsed',
  'animated',
  'blink',
  'flash',
  'glow',
  // SVG drawing classes inside an icon ("ql-stroke", "ql-fill", "ql-even").
  'stroke',
  'fill',
  'even',
  'formats',
]);

/**
 * Words of the class attributes of an element and the icons inside it, the innermost first:
 * "fa fa-trash-o" → "trash", "ui-icon-closethick" → "close".
 */
export function classWords(el: Element): string {
  const inner = Array.from(el.querySelectorAll('[class]')).slice(0, 3).reverse();
  const raw = [...inner, el].map((e) => e.getAttribute('class') ?? '').join(' ');
  const words: string[] = [];
  for (const token of raw.split(/\s+/)) {
    for (const w of token
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[\s_\-:]+/)) {
      // Icon sets glue a weight or style to the word: "closethick", "trash-o", "edit2".
      const word = w.replace(/(thick|thin|alt|fill|filled|outline|o|\d+)$/, '');
      if (word.length < 3 || /\d/.test(word) || CLASS_NOISE.has(word) || words.includes(word)) continue;
      words.push(word);
    }
  }
  return words.slice(0, 3).join(' ');
}

/** "url(".../icons/delete-item.png")" → "delete item". */
export function imageWords(css: string): string {
  const m = /url\(\s*["']?([^"')]+)["']?\s*\)/.exec(css);
  if (!m || m[1].startsWith('data:')) return '';
  const file = m[1].split(/[?#]/)[0].split('/').pop() ?? '';
  return file
    .replace(/\.[a-z0-9]+$/i, '')
    .replace(/[_\-.]+/g, ' ')
    .replace(/\d+(x\d+)?/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

const SHAPES: Record<string, string> = { circle: 'circle', ellipse: 'ellipse', line: 'line', polyline: 'line', path: 'shape', image: 'image' };

/** An SVG shape as people describe it: "yellow circle", "red square", "blue triangle". */
export function svgShape(el: Element): string {
  const tag = el.localName;
  let shape = SHAPES[tag];
  if (tag === 'rect') {
    const w = Number(el.getAttribute('width')) || (el as SVGGraphicsElement).getBBox?.().width || 0;
    const h = Number(el.getAttribute('height')) || (el as SVGGraphicsElement).getBBox?.().height || 0;
    shape = w && h && Math.abs(w - h) / Math.max(w, h) < 0.1 ? 'square' : 'rectangle';
  } else if (tag === 'polygon') {
    const points = (el.getAttribute('points') ?? '').trim().split(/[\s,]+/).length / 2;
    shape = points === 3 ? 'triangle' : points === 4 ? 'diamond' : points === 5 ? 'pentagon' : points === 6 ? 'hexagon' : points >= 10 ? 'star' : 'polygon';
  }
  if (!shape) return '';
  const style = getComputedStyle(el);
  const colour = colourName(style.fill) || colourName(style.stroke);
  return colour ? `${colour} ${shape}` : shape;
}

export const SVG_SHAPE_TAGS = new Set(['circle', 'ellipse', 'rect', 'polygon', 'polyline', 'path', 'line', 'image']);

/** Most pieces a figure's summary counts: more is a pattern, not a count a person makes. */
const FIGURE_MAX = 60;
/** What an HTML piece of a drawing is drawn with: plain boxes, never a field, a picture or a control. */
const PIECE_TAGS = new Set(['div', 'span', 'i', 'li']);
/** A box with any of these is something of its own (a widget, a named thing), not a piece of a drawing. */
const PIECE_NOT = ['role', 'aria-label', 'aria-labelledby', 'title', 'tabindex', 'contenteditable', 'draggable', 'onclick'];
/** The SVG shapes a figure is drawn with; a path is an icon's outline, not a shape a person names. */
const FIGURE_SHAPE_TAGS = new Set(['circle', 'ellipse', 'rect', 'polygon']);
/** An SVG smaller than this either way is an icon, not a drawing to count. */
const FIGURE_MIN_PX = 32;
/** Elements of an SVG drawing that are not pieces of it. */
const SVG_META = new Set(['title', 'desc', 'defs', 'style', 'metadata']);

/** One letter or digit drawn as SVG text: a piece too ("a red digit"), never a word. */
function glyphPiece(k: Element): string {
  const t = (k.textContent ?? '').trim();
  if (!/^[\p{L}\p{N}]$/u.test(t)) return '';
  const colour = colourName(getComputedStyle(k).fill);
  const kind = /\p{N}/u.test(t) ? 'digit' : 'letter';
  return colour ? `${colour} ${kind}` : kind;
}

/** A piece a drawing is made of, with no words: an SVG shape, one drawn letter or digit, or an empty box with a colour of its own. */
function drawnPiece(k: Element): string {
  if (k.namespaceURI === 'http://www.w3.org/2000/svg') return FIGURE_SHAPE_TAGS.has(k.localName) ? svgShape(k) : k.localName === 'text' ? glyphPiece(k) : '';
  const style = getComputedStyle(k);
  const colour = colourName(style.backgroundColor);
  const r = k.getBoundingClientRect();
  if (!colour || r.width < 4 || r.height < 4 || r.width > 300 || r.height > 300) return '';
  // A square with rounded corners is still a square here; only a box not as wide as high is a rectangle.
  return `${colour} ${boxShape(k, style) || (Math.abs(r.width - r.height) <= Math.max(2, r.width * 0.1) ? 'square' : 'rectangle')}`;
}

/** Pieces whose extents (the longer side of each) are apart by this ratio are two sizes; within the smaller one, one size. */
const SIZES_APART = 1.5;
const SIZE_SAME = 1.25;

/**
 * The extent from which pieces are large, when the extents fall in exactly two groups (every
 * step between neighbours small, one step between the groups large); null for one size or many.
 */
function sizeCut(sizes: number[]): number | null {
  const a = sizes.filter((x) => x > 0).sort((x, y) => x - y);
  if (a.length < 2 || a.length !== sizes.length) return null;
  let cut: number | null = null;
  for (let i = 1; i < a.length; i++) {
    const step = a[i]! / a[i - 1]!;
    if (step >= SIZES_APART) {
      if (cut !== null) return null;
      cut = a[i]!;
    } else if (step > SIZE_SAME) return null;
  }
  return cut;
}

/**
 * "large" or "small" for a shape or glyph of an SVG drawing whose pieces come in two clear sizes (each piece its
 * bounding box's longer side, as a figure line counts them); null when they do not. `cuts` keeps each drawing's cut for a walk.
 */
export function drawnSize(el: Element, cuts: WeakMap<Element, number | null>): 'large' | 'small' | null {
  const svg = (el as SVGElement).ownerSVGElement;
  if (!svg) return null;
  const side = (k: Element) => {
    const r = k.getBoundingClientRect();
    return Math.max(r.width, r.height);
  };
  let cut = cuts.get(svg);
  if (cut === undefined) {
    const sides = Array.from(svg.querySelectorAll('circle, ellipse, rect, polygon, text'), side).filter((x) => x > 0);
    cut = sides.length > FIGURE_MAX ? null : sizeCut(sides);
    cuts.set(svg, cut);
  }
  return cut === null ? null : side(el) >= cut ? 'large' : 'small';
}

/** A box drawn as a shape: "circle" (fully rounded and as wide as high), "square" (sharp and as wide as high). */
export function boxShape(el: Element, style: CSSStyleDeclaration): string {
  const r = el.getBoundingClientRect();
  if (r.width < 4 || r.height < 4 || Math.abs(r.width - r.height) > Math.max(2, r.width * 0.1)) return '';
  const radius = parseFloat(style.borderTopLeftRadius) || 0;
  const pct = /%$/.test(style.borderTopLeftRadius) ? (radius / 100) * r.width : radius;
  if (pct >= r.width / 2 - 1) return 'circle';
  return pct === 0 && colourName(style.backgroundColor) ? 'square' : '';
}

/** Whether a box beside `el` (a sibling) holds two or more pieces of a drawing and nothing else. */
function besidePieces(el: Element, plain: (k: Element) => boolean): boolean {
  for (let s = el.parentElement?.firstElementChild ?? null; s; s = s.nextElementSibling) {
    if (s === el || s.childElementCount < 2 || s.childElementCount > FIGURE_MAX) continue;
    const kids = [...s.children];
    if (kids.every(plain) && kids.every((k) => drawnPiece(k) !== '')) return true;
  }
  return false;
}

/**
 * A box whose children are all pieces of a drawing with no words (coloured blocks, SVG shapes), counted as a person
 * counts them: "7 shapes: 3 red squares, 4 blue squares". Empty when any visible child is anything else or takes input; the cheap
 * reads (children, text) come before any style is read.
 */
export function drawnFigure(el: Element, takesInput: (piece: Element) => boolean): string {
  if (el.childElementCount > FIGURE_MAX + SVG_META.size) return '';
  // A box with a role or a name of its own (a seat drawn as a labelled group) is that, not a drawing.
  if (PIECE_NOT.some((a) => el.hasAttribute(a))) return '';
  const svg = el.namespaceURI === 'http://www.w3.org/2000/svg';
  // In SVG, only the drawing itself: its groups are parts of it.
  if (svg && el.localName !== 'svg') return '';
  const plain = (k: Element) => PIECE_TAGS.has(k.localName) && !k.childElementCount && !k.textContent?.trim() && !PIECE_NOT.some((a) => k.hasAttribute(a));
  // Most boxes fail on their first child (it has words or children): no list is made for them.
  const kids: Element[] = [];
  for (let k = el.firstElementChild; k; k = k.nextElementSibling) {
    if (svg && SVG_META.has(k.localName)) continue;
    if (svg ? !FIGURE_SHAPE_TAGS.has(k.localName) && k.localName !== 'text' : !plain(k)) return '';
    kids.push(k);
  }
  // One shape is a figure only when drawn as such (an SVG), or beside a box of pieces (the sides of a sum of blocks):
  // else one coloured box is a bar, a dot, a divider.
  const least = svg || (kids.length === 1 && besidePieces(el, plain)) ? 1 : 2;
  if (kids.length < least || kids.length > FIGURE_MAX) return '';
  if (svg) {
    const box = el.getBoundingClientRect();
    if (box.width < FIGURE_MIN_PX || box.height < FIGURE_MIN_PX) return '';
  }
  const counts = new Map<string, number>();
  // A piece a person cannot see (hidden, moved off the page, outside a box that clips it) is not counted.
  const style = getComputedStyle(el);
  const clip = /hidden|clip|auto|scroll/.test(style.overflowX + style.overflowY) ? el.getBoundingClientRect() : null;
  const unseen = (k: Element) => {
    if (!k.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return true;
    const r = k.getBoundingClientRect();
    // Page coordinates: a figure scrolled out of view is still on the page.
    if (r.right + window.scrollX <= 0 || r.bottom + window.scrollY <= 0 || r.left + window.scrollX >= document.documentElement.scrollWidth) return true;
    return !!clip && (r.right <= clip.left || r.left >= clip.right || r.bottom <= clip.top || r.top >= clip.bottom);
  };
  const pieces: { piece: string; size: number }[] = [];
  for (const k of kids) {
    if (unseen(k)) continue;
    // A piece that takes clicks or drags is a target of its own, with its own line.
    if (takesInput(k)) return '';
    const piece = drawnPiece(k);
    if (!piece) return '';
    const r = k.getBoundingClientRect();
    pieces.push({ piece, size: Math.max(r.width, r.height) });
  }
  // Pieces drawn in two clearly different sizes are "large" and "small", as a person says them.
  const cut = sizeCut(pieces.map((p) => p.size));
  for (const { piece, size } of pieces) {
    const said = cut === null ? piece : `${size >= cut ? 'large' : 'small'} ${piece}`;
    counts.set(said, (counts.get(said) ?? 0) + 1);
  }
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  if (total < least) return '';
  const parts = [...counts].map(([piece, k]) => `${k} ${k === 1 ? piece : piece.replace(/(?:s|x|sh|ch)$/, '$&e') + 's'}`);
  return `${total} shape${total === 1 ? '' : 's'}: ${parts.join(', ')}`;
}
