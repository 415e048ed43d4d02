/**
 * Values an instruction names by where they are on the page rather than by what they are:
 * "the value of Year of Birth", "the text below", "the 3rd word of the paragraph", "the last
 * word in the text area". The built-in model never types such a description: it reads the
 * value off the page (label-value pairs, tables, paragraphs, text areas) or refuses.
 */
import { Refusal } from './act';
import { labelledValues } from './extract';
import { isInside, type OutlineNode } from './outline';
import { isoDate } from './input-values';
import { coverage, DIRECTION_LINE, normalize, similarity } from './text';
import { anyOf, either, oneOf } from './words/grammar';
import { ANSWER_WORDS, MATH_NOUNS } from './words/math';
import { ordinalOf } from './words/numbers';
import { LARGE_WORDS, SMALL_WORDS } from './words/places';
import {
  AMOUNT_NAMES,
  COLOUR_WORDS,
  PIECE_NOUNS,
  SAME_COLOUR,
  SHAPE_ALSO,
  SHAPE_SIDES,
  SHAPE_WORDS,
  SHOWN_ON,
  TEXT_WORDS,
  VALUE_WORDS,
} from './words/references';

export { isReference } from './text';

const TEXTY = new Set(['text', 'paragraph', 'blockquote', 'code', 'note', 'status', 'definition', 'caption']);

/** The value of `attribute` for `entity`: a table cell (entity's row, attribute's column) or a labelled value in the entity's card. */
function attributeOf(entity: string, attribute: string, nodes: OutlineNode[]): string {
  const found = new Set<string>();
  const cellsOf = (row: OutlineNode) => row.name.split(' | ').map((c) => c.trim());
  for (const table of nodes.filter((n) => ['table', 'grid', 'treegrid'].includes(n.role))) {
    const rows = nodes.filter((n) => n.role === 'row' && n.index > table.index && n.depth > table.depth && isInside(n, table));
    const header = rows.find((row) => cellsOf(row).some((c) => normalize(c) === normalize(attribute)));
    if (!header) continue;
    const k = cellsOf(header).findIndex((c) => normalize(c) === normalize(attribute));
    for (const row of rows) {
      if (row === header || !cellsOf(row).some((c) => coverage(entity, c) >= 0.99)) continue;
      const v = cellsOf(row)[k];
      if (v) found.add(v);
    }
  }
  if (!found.size) {
    // A card or item that names the entity, with the attribute as a label inside it.
    for (const box of nodes.filter((n) => ['listitem', 'article', 'group', 'region', 'dialog', 'row', 'figure'].includes(n.role))) {
      if (
        coverage(
          entity,
          `${box.name} ${box.children
            .filter((c) => !c.id)
            .map((c) => c.name)
            .join(' ')}`,
        ) < 0.99
      )
        continue;
      const inside = nodes.filter((n) => isInside(n, box));
      for (const p of labelledValues(inside)) if (typeof p.value === 'string' && normalize(p.label) === normalize(attribute)) found.add(p.value.trim());
    }
  }
  if (found.size === 1) return [...found][0];
  throw new Refusal(
    found.size
      ? `the page shows ${found.size} different values for ${JSON.stringify(`${entity}'s ${attribute}`)}`
      : `the page shows no ${JSON.stringify(attribute)} for ${JSON.stringify(entity)}`,
  );
}

const TOKEN = '[\\p{L}\\p{N}._/#-]*';
/** What follows a label in a sentence ("is A-48213", ': "x"'): (1), (2) a quoted value or (3) a token with a digit in it. */
const AFTER_LABEL = `\\s*(?:is|was|reads|:|=|#|no\\.?)?\\s*(?:"([^"]+)"|“([^”]+)”|([\\p{L}\\p{N}]${TOKEN}\\p{N}${TOKEN}|\\p{N}${TOKEN}))`;

/**
 * The one value the page gives `label`: a label-value pair ("Year of Birth | 1815", "Total: $12"),
 * a table column with one row, or the words after the label in a sentence ("Your order number
 * is A-48213"). A Refusal when none or several different ones.
 */
function labelled(label: string, nodes: OutlineNode[]): string {
  const want = normalize(label);
  const pairs = labelledValues(nodes).filter((p) => typeof p.value === 'string' && String(p.value).trim());
  let hits = pairs.filter((p) => normalize(p.label) === want);
  if (!hits.length) hits = pairs.filter((p) => coverage(label, p.label) >= 0.99 && coverage(p.label, label) >= 0.6);
  // One label shown twice (a table and a summary) is one value when both say the same.
  let values = [...new Set(hits.map((p) => String(p.value).trim()))];
  if (!values.length) {
    // A column of a table with one row of data.
    for (const table of nodes.filter((n) => ['table', 'grid', 'treegrid'].includes(n.role))) {
      const rows = nodes.filter((n) => n.role === 'row' && isInside(n, table)).map((row) => row.name.split(' | ').map((c) => c.trim()));
      const k = rows[0]?.findIndex((c) => normalize(c) === want) ?? -1;
      if (k >= 0 && rows.length === 2 && rows[1][k]) values.push(rows[1][k]);
    }
  }
  if (!values.length) {
    // "Your order number is A-48213.": the token after the label, when it holds a digit or is quoted.
    const esc = label
      .trim()
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\s+/g, '\\s+');
    const re = new RegExp(`\\b${esc}${AFTER_LABEL}`, 'iu');
    for (const n of nodes) {
      const m = re.exec(n.name);
      if (m) values.push((m[1] ?? m[2] ?? m[3]).replace(/[.,;:]+$/, ''));
    }
    values = [...new Set(values)];
  }
  if (values.length === 1) return values[0];
  throw new Refusal(
    values.length ? `${values.length} values on the page go by ${JSON.stringify(label)}` : `no value on the page goes by ${JSON.stringify(label)}`,
  );
}

/** Lines of page text a value can come from: not a control's own label, not the instruction echoed on the page. */
function textBlocks(nodes: OutlineNode[], instruction: string): OutlineNode[] {
  return nodes.filter((n) => {
    if (!TEXTY.has(n.role) || !n.name.trim()) return false;
    // Text inside a button or link is its name, not content.
    for (let p = n.parent; p; p = p.parent) if (p.id && ['button', 'link', 'option', 'menuitem', 'tab', 'clickable'].includes(p.role)) return false;
    // Site furniture (a banner, a menu, a footer) is not the content an instruction points at.
    for (let p = n.parent; p; p = p.parent) if (['banner', 'navigation', 'contentinfo'].includes(p.role)) return false;
    return !(instruction && similarity(n.name, instruction) > 0.8);
  });
}

/** A field's text as the view shows it, when that is all of it: a value cut short ("…") would be read or copied wrong. */
function whole(v: string, phrase: string): string {
  if (v.endsWith('…')) throw new Refusal(`the text in ${phrase} is longer than this view of the page shows`);
  return v;
}

/** The one text a phrase such as "the paragraph", "the text area", "the text below" points at. */
function sourceText(phrase: string, nodes: OutlineNode[], instruction: string): string {
  const p = phrase.toLowerCase();
  if (/\b(?:text ?area|text ?box|textbox|input|field|box)\b/.test(p)) {
    const kind = nodes.filter((n) => n.id && (n.role === 'textbox' || n.role === 'searchbox') && (!/area/.test(p) || n.states.multiline === true));
    // "the 2nd text area", "the last text box": counted among the fields of that kind, in page order.
    const ord = /\b(\w+)\s+(?:text ?area|text ?box|textbox|input|field|box)\b/.exec(p);
    const k = ord ? ordinalOf(ord[1], true) : null;
    if (k !== null) {
      const box = k === 'last' ? kind[kind.length - 1] : kind[k - 1];
      const v = box?.states.value;
      if (typeof v !== 'string' || !v) throw new Refusal(`it reads a value from ${phrase}, and the page has ${kind.length} such fields`);
      return whole(v, phrase);
    }
    const boxes = kind.filter((n) => typeof n.states.value === 'string' && n.states.value);
    if (boxes.length !== 1)
      throw new Refusal(`it reads a value from ${phrase}, and the page has ${boxes.length || 'no'} such field${boxes.length === 1 ? '' : 's'} with text in it`);
    return whole(String(boxes[0].states.value), phrase);
  }
  const blocks = textBlocks(nodes, instruction);
  // The instruction shown on the page ("... the text below"): what follows it.
  const echo = nodes.find((n) => TEXTY.has(n.role) && instruction && similarity(n.name, instruction) > 0.8);
  const after = echo ? blocks.filter((b) => b.index > echo.index) : [];
  const below = /\bbelow\b|\bfollowing\b/.test(p) && after.length > 0;
  const pool = below ? after : blocks;
  // "The text below" the directions, with no control between: the one block right under them.
  const near = below ? after.filter((b) => !nodes.some((n) => n.id && n.index > echo!.index && n.index < b.index)) : [];
  // A paragraph is one block of text; short labels beside fields ("Time left:") and figures are not
  // paragraphs, and the page's own directions ("Read the line, then reproduce it") are not what they point at.
  const long = pool.filter(
    (b) =>
      b.name
        .trim()
        .split(/\s+/)
        .filter((w) => /\p{L}{2}/u.test(w)).length >= 2 &&
      !/:\s*$/.test(b.name) &&
      !DIRECTION_LINE.test(b.name.trim()),
  );
  const pick = near.length === 1 ? near : long.length === 1 ? long : pool.length === 1 ? pool : [];
  if (pick.length !== 1) throw new Refusal(`it reads a value from ${phrase}, and the page has ${pool.length || 'no'} blocks of text it could mean`);
  // A text of lines that ends with its own line break (the snapshot keeps one) is copied with it.
  const text = pick[0].name;
  return text.trim() + (/\S\n$/.test(text) ? '\n' : '');
}

/** "the text below", "the paragraph", "the text in the text area": (1) where the text is, or (2) what it is called. */
const TEXT_REF = new RegExp(
  `^(?:the\\s+|this\\s+)?(?:(?:${either(TEXT_WORDS)})(?:\\s+(?:below|above|shown|displayed|on the page|written|given))?` +
    '(?:\\s+(?:of|in|from|on)\\s+(?:the\\s+)?(.+))?' +
    '|(paragraph|text ?area|following text|text below|text above))$',
  'i',
);
/** "the answer", "the result of the expression". */
const ANSWER_REF = new RegExp(
  `^(?:the\\s+)?(?:${either(ANSWER_WORDS)})` +
    `(?:\\s+(?:of|to|for)\\s+(?:the\\s+|this\\s+)?(?:math\\s+)?(?:${either(MATH_NOUNS)})(?:\\s+(?:below|above|shown|on the page))?)?$`,
  'i',
);
/** "the value of Year of Birth", "the number next to Total": (1) the label. */
const VALUE_OF = new RegExp(
  `^(?:the\\s+)?(?:${either(VALUE_WORDS)})\\s+(?:of|for|in|next to|beside|by|under|after)\\s+(?:the\\s+)?(.+?)(?:\\s+(?:field|row|label|cell|column|entry))?$`,
  'i',
);
/** Where a value may be shown. */
/** "the order number from the message", "the City shown in the table": (1) the label. */
const SHOWN_IN = new RegExp(
  '^(?:the\\s+|your\\s+|my\\s+|this\\s+)?(.+?)\\s+(?:(?:shown|written|given|listed|displayed)\\s+)?' +
    `(?:from|in|on|of|at)\\s+(?:the\\s+|this\\s+)?(?:${either(SHOWN_ON)})$`,
  'i',
);

/**
 * The value `ref` describes, read off the page; a Refusal naming what could not be read.
 * `instruction` is the whole task, so its own text shown on the page is not taken for content.
 */
export function resolveReference(ref: string, nodes: OutlineNode[], instruction = ''): string {
  const r = ref.trim().replace(/[.,;]+$/, '');
  let m: RegExpExecArray | null;
  // "the 3rd word of the paragraph", "the last word in the text area".
  if ((m = /^(?:the\s+)?(\w+)\s+word\s+(?:of|in|from)\s+(?:the\s+)?(.+)$/i.exec(r))) {
    const k = /^\d{1,3}$/.test(m[1]) ? Number(m[1]) || null : ordinalOf(m[1]);
    if (k === null) throw new Refusal(`it describes a word (${ref}) the built-in model cannot count`);
    const ws = sourceText(m[2], nodes, instruction)
      .split(/\s+/)
      .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
      .filter(Boolean);
    const w = k === 'last' ? ws[ws.length - 1] : ws[k - 1];
    if (!w) throw new Refusal(`${m[2]} has ${ws.length} words, fewer than ${m[1]}`);
    return w;
  }
  // "Maria Lopez's employee ID": the cell of her row under that column, or the value by that label in her card.
  if ((m = /^(.+?)['’]s\s+(.+)$/.exec(r))) return attributeOf(m[1].replace(/^the\s+/i, ''), m[2], nodes);
  // "the text below", "the paragraph", "the text in the text area".
  if ((m = TEXT_REF.exec(r))) {
    return sourceText(m[1] ?? m[2] ?? r, nodes, instruction);
  }
  // "the answer", "the result of the expression": the one arithmetic expression the page shows, worked out.
  if (ANSWER_REF.test(r)) {
    const found = new Set<string>();
    for (const n of nodes) {
      if (n.id && !(typeof n.states.value === 'string')) continue;
      // "Solve for x": an equation in one unknown ("3x - 4 = 11"), whose "3x - 4" is no sum to work out.
      const unknowns = equationsIn(n.name);
      for (const v of unknowns) found.add(v);
      if (unknowns.length) continue;
      for (const hit of n.name.matchAll(EXPRESSION)) {
        const e = hit[0];
        // A date (06/07/2024) or a phone number (555-1234) is not a sum: minus and slash need spaces around them.
        if (!/\d\s*[+*x×÷]\s*[\d(]|\d\s+[-−/]\s+[\d(]/.test(e)) continue;
        // Nor is a count of a unit ("600 / 600sec" left on a timer): a number run into a word is a measure.
        if (/^\p{L}/u.test(n.name.slice(hit.index + e.length)) || /\p{L}$/u.test(n.name.slice(0, hit.index))) continue;
        const v = evaluate(e);
        if (v !== null) found.add(String(v));
      }
    }
    if (found.size === 1) return [...found][0];
    if (found.size > 1) throw new Refusal(`the page shows ${found.size} expressions with different answers`);
    if (!/^(?:the\s+)?(?:sum|total|value)$/i.test(r)) throw new Refusal('the page shows no arithmetic expression to work out');
  }
  // "the number of sides of the shape", "the shape of the figure": the one shape the page draws.
  if ((m = ONE_SHAPE_REF.exec(r))) return oneShape(nodes, !!m[1]);
  // "the total number of blocks", "the number of red squares": the pieces of the page's drawings, counted.
  if ((m = COUNT_REF.exec(r))) {
    const counted = piecesCounted(m[1], nodes);
    if (counted !== null) return String(counted);
  }
  // "the value of Year of Birth", "the number next to Total", "Year of Birth's value", "the Zip code value".
  const label =
    VALUE_OF.exec(r)?.[1] ??
    /^(?:the\s+)?(.+?)\s+value$/i.exec(r)?.[1] ??
    // "the order number from the message", "the City shown in the table".
    SHOWN_IN.exec(r)?.[1] ??
    /^(?:the\s+)?(.+?)\s+(?:shown|displayed|written|given|listed)(?:\s+(?:above|below|here))?$/i.exec(r)?.[1] ??
    // "your order number", "my booking reference": the person's own value, which the page shows by that label.
    /^(?:your|my)\s+((?:\S+\s+){0,3}\S+)$/i.exec(r)?.[1];
  if (label) return labelled(label.replace(/^(?:the|your|my)\s+/i, ''), nodes);
  // "the code", "the voucher code": a value the page shows by that label ("Code: SEA-4417"), or none.
  if ((m = /^the\s+((?:[\p{L}\p{N}-]+\s+){0,2}[\p{L}\p{N}-]+)$/iu.exec(r))) return labelled(m[1], nodes);
  throw new Refusal(`it names the value to type by a description (${JSON.stringify(ref.slice(0, 80))}) the built-in model cannot read off this page`);
}

const COUNT_REF = /^(?:the\s+)?(?:total\s+)?(?:number|count)\s+of\s+(.+?)(?:\s+(?:shown|on the page|below|above|in all|in total|altogether))?$/i;
const ONE_SHAPE_REF =
  /^(?:the\s+)?(?:(number of sides)(?:\s+(?:of|in|on))?|(?:shape|kind|type)\s+of)\s+(?:the\s+)?(?:shape|figure|drawing)(?:\s+(?:below|above|shown))?$/i;
const PIECE = oneOf(PIECE_NOUNS);
const SHAPE = oneOf(SHAPE_WORDS);
const COLOUR = oneOf(COLOUR_WORDS);
const LARGE = oneOf(LARGE_WORDS);
const SMALL = oneOf(SMALL_WORDS);
/** "boxes" is "box", "squares" is "square". */
export const singular = (w: string) => w.replace(/(ch|sh|x)es$/, '$1').replace(/s$/, '');
/** "7 shapes: 3 red squares, 4 blue squares": the snapshot's count of a drawing's pieces. */
const FIGURE_PART = /(\d+) ([a-z ]+?)(?=, \d|$)/g;

/**
 * How many pieces the page's drawings show that are what `what` says ("blocks", "red squares"), summed over its
 * drawings; null when the page has no drawing or `what` names no pieces. A word that is neither a colour nor a shape
 * ("large") is a refusal: the count would be a guess.
 */
function piecesCounted(what: string, nodes: OutlineNode[]): number | null {
  const pieces = figurePieces(nodes);
  // "Ks", "8s", "g's": one glyph, in the case it is written (a K is not a k).
  const glyph = GLYPHS.exec(what.trim())?.[1] ?? null;
  const words = what
    .toLowerCase()
    .replace(/^the\s+/, '')
    .split(/\s+/);
  const noun = glyph ? 'glyphs' : (words.at(-1) ?? '');
  if (!pieces.length || !(glyph || PIECE.test(noun) || SHAPE.test(noun))) return null;
  const said = words.slice(0, -1).filter((w) => w !== 'total' && w !== 'of');
  // A size is one of the two a drawing's line says ("large", "small"), when its pieces come in two sizes.
  const size = said.find((w) => LARGE.test(w)) ? 'large' : said.find((w) => SMALL.test(w)) ? 'small' : null;
  const colours = said.filter((w) => !LARGE.test(w) && !SMALL.test(w));
  const odd = colours.find((w) => !COLOUR.test(w));
  if (odd) throw new Refusal(`it counts pieces by "${odd}", which the built-in model cannot see`);
  if (size && !pieces.some((p) => p.said[0] === 'large' || p.said[0] === 'small'))
    throw new Refusal(`it counts ${size} pieces, and the drawing's pieces are not of two clear sizes`);
  // "Shapes" where letters or digits are drawn: whether a letter is a shape is the asker's to say.
  if (/^(?:shape|figure)s?$/.test(noun) && pieces.some((p) => p.glyph))
    throw new Refusal(`the drawing holds letters or digits, and whether they count as ${noun} is not said`);
  if (glyph) {
    const glyphKind = (p: { said: string[] }) => /^(?:letter|digit|number)$/.test(p.said.at(-1)!);
    // No letter or digit drawn: the count is not the drawing's to give.
    if (!pieces.some(glyphKind)) return null;
    // Letters a figure line counts without saying which: how many are Ks cannot be read.
    if (pieces.some((p) => glyphKind(p) && !p.glyph)) throw new Refusal(`the drawing's letters and digits are counted without saying which they are`);
  }
  const shape = !glyph && SHAPE.test(noun) ? singular(noun) : null;
  let total = 0;
  for (const { count, said: piece, glyph: drawn } of pieces) {
    if (glyph && drawn !== glyph) continue;
    // A square is a rectangle too; a digit is also called a number.
    const kind = singular(piece.at(-1)!);
    if (shape && kind !== shape && !(shape === 'rectangle' && kind === 'square') && !piece.includes(shape)) continue;
    if (size && piece[0] !== size) continue;
    if (colours.some((c) => !anyOf([SAME_COLOUR[c] ?? c]).test(piece.slice(0, -1).join(' ')))) continue;
    total += count;
  }
  // None written as asked, some in the other case ("Ks" where only "k"s are drawn): which was meant is not known.
  if (glyph && !total && pieces.some((p) => p.glyph && p.glyph !== glyph && p.glyph.toLowerCase() === glyph.toLowerCase()))
    throw new Refusal(`the drawing shows no ${JSON.stringify(glyph)}, only ones in the other case`);
  return total;
}

/** "Ks", "8s", "g's" (after the colour and size words): (1) the one letter or digit counted. */
const GLYPHS = /(?:^|\s)([\p{L}\p{N}])(?:['’]?s)$/u;

/** The pieces every figure line of the page counts: how many, and their words ("red", "square"). */
function figurePieces(nodes: OutlineNode[]): { count: number; said: string[]; glyph?: string }[] {
  const lines = nodes
    .filter((n) => n.role === 'figure' && /^\d+ shapes?: /.test(n.name))
    .flatMap((f) => [...f.name.slice(f.name.indexOf(':') + 1).matchAll(FIGURE_PART)])
    .map(([, k, piece]) => ({ count: Number(k), said: piece!.trim().split(' ') }));
  if (lines.length) return lines;
  // A drawing whose pieces take clicks: each shape its own line, with its size and fill ("red circle"; a glyph "y" is a
  // letter, "3" a digit, called a number too).
  return nodes
    .filter((n) => n.id && n.role === 'clickable' && typeof n.states.size === 'string')
    .map((n) => {
      const name = n.name.trim();
      const glyph = /^\p{L}$/u.test(name) ? ['letter'] : /^\d$/.test(name) ? ['digit', 'number'] : null;
      const fill = typeof n.states.fill === 'string' ? [n.states.fill] : [];
      // The snapshot says "large" or "small" where the drawing's pieces come in two clear sizes.
      const size = n.states.drawn === 'large' || n.states.drawn === 'small' ? [n.states.drawn] : [];
      return { count: 1, said: glyph ? [...size, ...fill, ...glyph] : [...size, ...name.toLowerCase().split(/\s+/)], glyph: glyph ? name : undefined };
    })
    .filter((p) => SHAPE.test(p.said.at(-1)!) || p.said.at(-1) === 'number');
}

/** The page's one drawn shape, by its name ("triangle") or its number of sides; anything else is a refusal. */
function oneShape(nodes: OutlineNode[], sides: boolean): string {
  const pieces = figurePieces(nodes);
  if (pieces.length !== 1 || pieces[0]!.count !== 1)
    throw new Refusal(`the page draws ${pieces.length === 1 ? 'several' : pieces.length || 'no'} shapes, not one`);
  const shape = pieces[0]!.said.at(-1)!;
  if (!sides) return answerName(shape, nodes);
  const k = SHAPE_SIDES[shape];
  if (k === undefined) throw new Refusal(`a ${shape} has no sides to count`);
  return String(k);
}

/** Roles of the controls a question's answers are given by. */
const ANSWER_ROLES = new Set(['button', 'radio', 'link', 'option']);

/** The shape as the page's answers name it: a square is the "Rectangle" answer where no answer says "square". */
function answerName(shape: string, nodes: OutlineNode[]): string {
  const answers = new Set(nodes.filter((n) => n.id && ANSWER_ROLES.has(n.role)).map((n) => n.name.trim().toLowerCase()));
  if (answers.has(shape)) return shape;
  const also = (SHAPE_ALSO[shape] ?? []).filter((a) => answers.has(a));
  return also.length === 1 ? also[0]! : shape;
}

/** "in all lower case", "in upper case", "reversed": a change the instruction asks of the value it names. */
export type Transform = 'lower' | 'upper' | 'reverse';

export function applyTransform(value: string, t: Transform | undefined): string {
  if (t === 'lower') return value.toLowerCase();
  if (t === 'upper') return value.toUpperCase();
  if (t === 'reverse') return [...value].reverse().join('');
  return value;
}

/**
 * The number the page shows for `subject` ("price" in "Price: $53.24", a table row "VOP | $53.24",
 * a line "Counter 7"): null when the page shows none, or several that differ.
 */
/** The subject with an amount's word in it named otherwise ("invoice total" → "invoice amount due"). */
function otherNames(subject: string): string[] {
  const out: string[] = [];
  for (const [word, names] of Object.entries(AMOUNT_NAMES)) {
    const re = new RegExp(`\\b${word}\\b`, 'i');
    if (re.test(subject)) for (const name of names) out.push(subject.replace(re, name));
  }
  return out;
}

export function numberOf(subject: string, nodes: OutlineNode[], currency = false): { value: number; shown: string } | null {
  const found = new Map<number, string>();
  const num = (s: string): number | null => {
    const ms = s.match(/[-+]?\d[\d,]*(?:\.\d+)?/g);
    if (!ms || ms.length !== 1) return null;
    const v = Number(ms[0].replace(/,/g, ''));
    return Number.isFinite(v) ? v : null;
  };
  const pairs = labelledValues(nodes);
  // The subject's own words first; then, only when they name nothing, each other name of an amount it holds.
  for (const subj of [subject, ...otherNames(subject)]) {
    for (const p of pairs) {
      if (typeof p.value !== 'string' || coverage(subj, p.label) < 0.6) continue;
      const v = num(p.value);
      if (v !== null) found.set(v, `${p.label}: ${p.value}`);
    }
    if (!found.size) {
      // A line that names the subject and shows one number ("The price is $49.20").
      for (const n of nodes) {
        if (n.id || !TEXTY.has(n.role) || coverage(subj, n.name) < 0.6) continue;
        const v = num(n.name);
        if (v !== null) found.set(v, n.name);
      }
    }
    if (found.size) break;
  }
  if (!found.size && currency) {
    // A threshold in money ("under $50") and one amount of money on the page (a ticker's "$53.24"): that amount.
    for (const n of nodes) {
      if (n.id || !TEXTY.has(n.role)) continue;
      // Only an amount shown on its own (a ticker's price), not one a label claims ("Balance: $20").
      const at = n.name.search(/[$€£]\s?\d|\d[\d,]*(?:\.\d+)?\s?(?:[$€£]|dollars?|euros?)/i);
      if (at < 0 || /\p{L}/u.test(n.name.slice(0, at))) continue;
      for (const a of n.name.match(/[$€£]\s?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?\s?(?:[$€£]|dollars?|euros?)/gi) ?? []) {
        const v = Number(a.replace(/[^\d.]/g, ''));
        if (Number.isFinite(v)) found.set(v, a);
      }
    }
  }
  if (found.size !== 1) return null;
  const [[value, shown]] = [...found.entries()];
  return { value, shown };
}

/** An equation in one unknown letter as pages print it: "x + 7 = 12", "3y - 4 = 11", "-2 + x = 5". */
const EQUATION = /(?:[-−]?\s*\(?\s*)?[\da-z][\d\sa-z.()+\-*/×÷−]*=[\d\sa-z.()+\-*/×÷−]*[\da-z)]/gi;

/**
 * The unknown of each linear equation in `text`, as text ("5", "2.5"): the two sides are
 * worked out with the unknown at 0 and at 1, and the line through them must be where both meet.
 */
function equationsIn(text: string): string[] {
  const out: string[] = [];
  for (const e of text.match(EQUATION) ?? []) {
    const sides = e.split('=');
    const letters = new Set((e.match(/[a-z]/gi) ?? []).map((c) => c.toLowerCase()));
    if (sides.length !== 2 || letters.size !== 1) continue;
    const [u] = letters;
    // "3x" is 3 times x.
    const at = (side: string, v: number) => {
      const t = side
        .replace(new RegExp(`(\\d)\\s*${u}`, 'gi'), '$1*' + u)
        .replace(new RegExp(u, 'gi'), String(v))
        .trim();
      // "2 x 3" is a product, not 2, the unknown and 3: numbers side by side are no reading of it.
      if (/\d\s+\d/.test(t)) return null;
      return /^-?\d+(?:\.\d+)?$/.test(t) ? Number(t) : evaluate(t);
    };
    const f = (v: number) => {
      const l = at(sides[0], v);
      const r = at(sides[1], v);
      return l === null || r === null ? null : l - r;
    };
    const f0 = f(0);
    const f1 = f(1);
    if (f0 === null || f1 === null || f1 === f0) continue;
    const x = -f0 / (f1 - f0);
    const check = f(x);
    if (check === null || Math.abs(check) > 1e-9) continue;
    out.push(String(Math.round(x * 1e6) / 1e6));
  }
  return out;
}

/** Arithmetic as pages print it: "3 + 4", "12 x 3 =", "(2 + 3) * 4", "8 ÷ 2". */
const EXPRESSION = /[(\d][\d\s.()+\-*/x×÷−]*[+\-*/x×÷−][\d\s.()+\-*/x×÷−]*[\d)]/g;

/** The value of a small arithmetic expression (+, -, *, /, brackets), or null when it is not one. */
export function evaluate(expr: string): number | null {
  const src = expr.replace(/[x×]/g, '*').replace(/÷/g, '/').replace(/−/g, '-').replace(/\s+/g, '');
  if (!/^[\d.()+\-*/]+$/.test(src) || !/\d[+\-*/(]/.test(src)) return null;
  let i = 0;
  const num = (): number | null => {
    if (src[i] === '(') {
      i++;
      const v = sum();
      if (src[i++] !== ')') return null;
      return v;
    }
    if (src[i] === '-') {
      i++;
      const v = num();
      return v === null ? null : -v;
    }
    const m = /^\d+(?:\.\d+)?/.exec(src.slice(i));
    if (!m) return null;
    i += m[0].length;
    return Number(m[0]);
  };
  const product = (): number | null => {
    let v = num();
    while (v !== null && (src[i] === '*' || src[i] === '/')) {
      const op = src[i++];
      const w = num();
      if (w === null || (op === '/' && w === 0)) return null;
      v = op === '*' ? v * w : v / w;
    }
    return v;
  };
  const sum = (): number | null => {
    let v = product();
    while (v !== null && (src[i] === '+' || src[i] === '-')) {
      const op = src[i++];
      const w = product();
      if (w === null) return null;
      v = op === '+' ? v + w : v - w;
    }
    return v;
  };
  const v = sum();
  if (v === null || i !== src.length || !Number.isFinite(v)) return null;
  return Math.round(v * 1e9) / 1e9;
}

/** A calendar date as people write it (06/14/2024, 2024-06-14, July 3, 2024, 3rd of July 2024), month 0-11; null otherwise. */
export function parseDate(s: string): { y: number; m: number; d: number } | null {
  const iso = isoDate(s.replace(/\bof\s+/i, ''));
  if (!iso) return null;
  const [y, m, d] = iso.split('-').map(Number);
  return { y, m: m - 1, d };
}
