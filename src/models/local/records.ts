/**
 * A person's record in a list of records (a contact book, a directory): the line that is their
 * name, the lines after it up to the next record's name (or the row that holds it), and in them
 * the one control its field's label names ("Phone:" beside "(412) 555-0193"). Found only when
 * unmistakable: the name shown once, one control for the field.
 */
import { EMAIL_SHAPE } from './input-values';
import type { OutlineNode } from './outline';
import { normalize } from './text';
import { anyOf } from './words/grammar';
import { RECORD_FIELDS } from './words/search';

/** Lines a record's name may be: text, a heading, a table cell. */
const NAME_ROLES = new Set(['text', 'heading', 'paragraph', 'cell', 'gridcell', 'rowheader', 'term', 'strong']);
const CONTROL_ROLES = new Set(['link', 'button', 'clickable']);
const LABEL_HOLDERS = new Set(['listitem', 'group', 'cell', 'gridcell', 'term', 'definition']);
/** How a field's value looks, where its label is not beside it (a table's cells). */
const SHAPES: Readonly<Record<string, RegExp>> = {
  // Seven digits or more with a phone's separators; not a date ("2024-01-31", "31/01/2024").
  phone: /^(?!\d{4}-\d{1,2}-\d{1,2}$|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}$)\+?(?:[\s().-]*\d){7,}[\s().-]*$/,
  email: EMAIL_SHAPE,
};
/** A label is short ("Phone:", "Email address"); a longer line is content, not a label. */
const LABEL_MAX = 24;

const words = (s: string) => normalize(s).split(' ').filter(Boolean);

/** The name is the line's whole text, or its first words ("Lynne" for "Lynne Ortiz"), never part of a word. */
function isName(n: OutlineNode, who: string): boolean {
  return NAME_ROLES.has(n.role) && namesWho(n.name, who);
}

function namesWho(text: string, who: string): boolean {
  const have = words(text);
  const want = words(who);
  return want.length > 0 && have.length >= want.length && have.length <= want.length + 2 && want.every((w, i) => have[i] === w);
}

function descendants(n: OutlineNode): OutlineNode[] {
  return n.children.flatMap((c) => [c, ...descendants(c)]);
}

/** The lines of the record whose name this is: its row, else its line and those after it up to the next line like it. */
function recordLines(name: OutlineNode): OutlineNode[] {
  for (let p = name.parent; p; p = p.parent) if (p.role === 'row') return [p, ...descendants(p)];
  const kin = name.parent?.children ?? [];
  const at = kin.indexOf(name);
  // The next record starts at the next line of the same kind: text, or a heading of the same level.
  const like = (n: OutlineNode) => n.role === name.role && !!n.id === !!name.id && n.states.level === name.states.level && !!n.name.trim();
  let end = at + 1;
  while (end < kin.length && !like(kin[end]!)) end++;
  return kin.slice(at, end).flatMap((c) => [c, ...descendants(c)]);
}

export type RecordFind = { lines: OutlineNode[] } | { why: string } | null;

/** The record of `who` on the page: null when no line is their name, a reason when two are. */
export function findRecord(nodes: OutlineNode[], who: string): RecordFind {
  const names = nodes.filter((n) => isName(n, who) && !(n.parent && isName(n.parent, who)));
  // A table's row is named by its cells ("Chen Wei | Sales | ..."): one of them is the name.
  const rows = nodes.filter((n) => n.role === 'row' && !names.some((x) => x.parent === n) && n.name.split(' | ').some((c) => namesWho(c, who)));
  const found = [...names.map(recordLines), ...rows.map((row) => [row, ...descendants(row)])];
  if (!found.length) return null;
  if (found.length > 1) return { why: `${found.length} records on this page are named ${JSON.stringify(who)}` };
  return { lines: found[0]! };
}

/** The one control of the record its field's label (or, in a table, its value's shape) names. */
export function fieldControl(lines: OutlineNode[], field: string): OutlineNode | { why: string } {
  const spec = RECORD_FIELDS[field];
  if (!spec) return { why: `a record has no field called ${JSON.stringify(field)}` };
  const label = anyOf(spec.label);
  const labels = (s: string) => s.trim().length <= LABEL_MAX && label.test(s);
  const controls = lines.filter((n) => n.id && CONTROL_ROLES.has(n.role) && n.states.disabled !== true);
  const labelled = controls.filter((n) => {
    if (labels(n.name)) return true;
    const p = n.parent;
    // The item or cell that holds it, named by the label ("listitem "Phone:"").
    if (p && LABEL_HOLDERS.has(p.role) && labels(p.name)) return true;
    // A label on the line before it ("Phone:" then the link), or before the holder it alone fills (a list's term).
    const before = (x: OutlineNode) => {
      const kin = x.parent?.children ?? [];
      return kin[kin.indexOf(x) - 1];
    };
    const b = before(n) ?? (p && p.children.length === 1 ? before(p) : undefined);
    return !!b && (!b.id || b.role === 'term') && labels(b.name);
  });
  const shape = SHAPES[field];
  const found = labelled.length ? labelled : shape ? controls.filter((n) => shape.test(n.name.trim())) : [];
  if (found.length === 1) return found[0]!;
  if (!found.length) return { why: `the record shows no ${field} to click` };
  return { why: `the record shows ${found.length} controls for its ${field}` };
}
