/**
 * A search: a sentence read into a search form's fields, the results it lists (over later pages), and a person's record
 * found by turning a list's pages.
 */
import { quote } from '../../../protocol/text';
import { optionsOf, type OutlineNode } from '../outline';
import type { PlanStep } from '../plan';
import { normalize } from '../text';
import type { StepRunner } from '../step-runner';
import type { FieldValue } from '../trips';
import { PERSON_FIELD_NAMES, PERSON_FIELDS, PERSON_NAME, PERSON_ROLES, SEARCH_BUTTONS, SEARCH_FILLER, SEARCHED_THINGS } from '../words/search';
import { anyOf, either, oneOf } from '../words/grammar';
import { fieldControl, findRecord } from '../records';
import { NEXT_PAGE, PAGER } from '../words/menus';
import { TEXT_ROLES, type View, look, actOnNode, under } from './run';
import { fieldLabel } from './pickers';

/** A word as a list may hold it: "comedies" and "Comedy", "films" and "film" are one. */
const stem = (w: string): string =>
  w
    .toLowerCase()
    .replace(/ies$/, 'y')
    .replace(/(?<=[^s])es$|(?<=[^s])s$/, '');
const stems = (s: string): string => normalize(s).split(' ').filter(Boolean).map(stem).join(' ');

const PERSON = new RegExp(`\\s(${either(PERSON_ROLES)})\\s+(${PERSON_NAME})(?=\\s)`, 'u');
/** The field a person goes into, by how the sentence names them; the first that fits. */
const PERSON_FIELD_RES = PERSON_FIELDS.map(({ said, field }) => [new RegExp(either(said)), anyOf(field)] as const);
const ANY_PERSON_FIELD = anyOf(PERSON_FIELD_NAMES);
/** The names of a search form's button. */
const SEARCH_BUTTON = new RegExp(`^(?:${either(SEARCH_BUTTONS)})\\b`, 'i');

/** Words a search sentence is made of besides its criteria. */
const SEARCH_WORDS = new Set(SEARCH_FILLER);

/**
 * The parts of a search sentence in the fields of the page's form: a year into the year (or
 * published, released) field, the name after "directed by" / "written by" / "by" into the
 * director, author or artist field, a quoted or "titled" title into the title field, and words
 * that are an option of a list into that list. Every word of the sentence must find its field
 * (a part no field takes is a refusal), and the form needs one search button.
 */
export function searchFields(phrase: string, nodes: OutlineNode[]): { fill: FieldValue[]; submit: OutlineNode } | string {
  const fields = nodes.filter((n) => n.id && TEXT_ROLES.has(n.role) && fieldLabel(n) && n.states.disabled !== true && n.states.readonly !== true);
  const fill: FieldValue[] = [];
  let rest = ` ${phrase} `;
  const used = new Set<OutlineNode>();
  const field = (re: RegExp) => fields.find((f) => !used.has(f) && !optionsOf(f).length && re.test(fieldLabel(f)));
  const put = (node: OutlineNode, value: string, method: 'fill' | 'selectOption' = 'fill') => {
    used.add(node);
    fill.push({ node, method, value });
  };
  let m: RegExpExecArray | null;
  // A title, quoted or after "titled".
  if ((m = /\s(?:the\s+)?(?:title\s+|titled\s+|called\s+)?["“]([^"”]+)["”]/i.exec(rest))) {
    const f = field(/\btitle|name\b/i);
    if (!f) return `it names a title (${quote(m[1])}) and the form has no title field`;
    put(f, m[1]);
    rest = rest.replace(m[0], ' ');
  }
  // A year.
  if ((m = /\s(?:(?:released|published|made|from|in|of)\s+(?:in\s+)?)?((?:19|20)\d{2})(?=\s)/i.exec(rest))) {
    const f = field(/\b(?:year|published|released|date)\b/i);
    if (!f) return `it names a year (${m[1]}) and the form has no year field`;
    put(f, m[1]);
    rest = rest.replace(m[0], ' ');
  }
  // A person: "directed by Holt", "by Le Guin", "starring Tom Hanks".
  if ((m = PERSON.exec(rest))) {
    const how = m[1].toLowerCase();
    const re = PERSON_FIELD_RES.find(([said]) => said.test(how))?.[1] ?? ANY_PERSON_FIELD;
    const f = field(re);
    if (!f) return `it names ${quote(m[2])} (${how}) and the form has no field for that`;
    put(f, m[2]);
    rest = rest.replace(m[0], ' ');
  }
  // Words that are an option of one of the form's lists ("adventure", "comedies", "science fiction").
  for (const list of fields.filter((f) => optionsOf(f).length && !used.has(f))) {
    const want = ` ${stems(rest)} `;
    const opts = optionsOf(list).filter((o) => !/^(?:any|all\b|none|select|choose|--)/i.test(o.trim()) && stems(o));
    const hit = opts.filter((o) => want.includes(` ${stems(o)} `)).sort((a, b) => b.length - a.length)[0];
    if (!hit) continue;
    put(list, hit, 'selectOption');
    // Take those words out of what is left.
    const ws = stems(hit).split(' ');
    rest = ` ${normalize(rest)
      .split(' ')
      .filter((w) => !ws.includes(stem(w)))
      .join(' ')} `;
  }
  // A kind typed into a field for it ("adventure movies", with a Genre box that takes text).
  if ((m = new RegExp(`\\s(\\w+)\\s+(?:${either(SEARCHED_THINGS)})\\s`, 'i').exec(rest)) && !SEARCH_WORDS.has(m[1]!.toLowerCase())) {
    const f = field(/\b(?:genre|category|kind|type)\b/i);
    if (f) {
      put(f, m[1]!.toLowerCase());
      rest = rest.replace(m[0], ' ');
    }
  }
  const left = normalize(rest)
    .split(' ')
    .filter((w) => w && !SEARCH_WORDS.has(stem(w)) && !SEARCH_WORDS.has(w.replace(/s$/, '')));
  if (left.length) return `the search names ${quote(left.join(' '))}, which no field of the form takes`;
  if (fill.length < 2) return 'it names fewer than two criteria for the form';
  const submits = nodes.filter((n) => n.id && (n.role === 'button' || n.role === 'clickable') && SEARCH_BUTTON.test(n.name.trim()));
  if (submits.length !== 1) return `the form has ${submits.length || 'no'} search buttons`;
  return { fill, submit: submits[0] };
}

const OUTSIDE_RESULTS = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'menu', 'menubar', 'tablist', 'toolbar']);
const PAGE_CONTROL = oneOf(PAGER);
const TO_NEXT_PAGE = oneOf(NEXT_PAGE);

/**
 * The results a page lists: links after its search box (if it has one), outside navigation,
 * headers, footers and sidebars, not page numbers; one per list item or article.
 */
export function resultsOf(nodes: OutlineNode[]): OutlineNode[] {
  const box = nodes.find((n) => n.id && (n.role === 'searchbox' || n.role === 'textbox' || n.role === 'combobox'));
  const from = box ? box.index : -1;
  const seen = new Set<OutlineNode>();
  const out: OutlineNode[] = [];
  for (const n of nodes) {
    if (!n.id || n.role !== 'link' || n.index <= from || under(n, OUTSIDE_RESULTS) || PAGE_CONTROL.test(n.name.trim())) continue;
    const item = under(n, new Set(['listitem', 'article', 'row']));
    if (item) {
      if (seen.has(item)) continue;
      seen.add(item);
    }
    out.push(n);
  }
  return out;
}

/** The pager's control to the next page, if the page shows one that is not disabled. */
export const nextPageOf = (nodes: OutlineNode[]) =>
  nodes.find((n) => n.id && (n.role === 'link' || n.role === 'button') && TO_NEXT_PAGE.test(n.name.trim()) && n.states.disabled !== true);

/** How many pages of records are turned looking for one person. */
const RECORD_PAGES = 20;

/**
 * Click a field's control in a person's record ("her phone number"), turning the pages of the list until a page shows
 * the record; a page that stays the same after the turn is the last.
 */
export async function clickRecordField(r: StepRunner, s: PlanStep, set: (v: View) => void, current: () => View): Promise<string | { why: string }> {
  const { who, field } = s.record!;
  const seen = new Set<string>();
  for (let pages = 1; pages <= RECORD_PAGES; pages++) {
    const nodes = current().nodes;
    const found = findRecord(nodes, who);
    if (found && 'why' in found) return found;
    if (found) {
      const c = fieldControl(found.lines, field);
      if ('why' in c) return c;
      const clicked = await actOnNode(r, c, 'click', [], s.say, `the ${field} in the record of ${quote(who)}`, current().url);
      return clicked ? `${s.say} (${quote(c.name)})` : { why: `the ${field} went away before it could be clicked` };
    }
    seen.add(current().text);
    const next = nextPageOf(nodes);
    if (!next) return { why: `no record is named ${quote(who)} on the ${pages} page${pages === 1 ? '' : 's'} the list has` };
    if (!(await actOnNode(r, next, 'click', [], `click ${quote(next.name)}`, `no record of ${quote(who)} on this page: the next`, current().url))) break;
    await r.settle();
    set(await look(r, r.instruction));
    if (seen.has(current().text)) return { why: `no record is named ${quote(who)} on the ${pages} pages the list has` };
  }
  return { why: `no record named ${quote(who)} in the first ${RECORD_PAGES} pages` };
}

/** Click the nth result of the page's results, going on to later result pages when the page has fewer. */
export async function clickResult(r: StepRunner, s: PlanStep, set: (v: View) => void, current: () => View): Promise<string | { why: string }> {
  let left = s.result!;
  let counted = 0;
  for (let pages = 0; pages < 6; pages++) {
    const rs = resultsOf(current().nodes);
    if (left === -1 && rs.length) left = rs.length;
    if (left > 0 && left <= rs.length) {
      const target = rs[left - 1];
      const clicked = await actOnNode(r, target, 'click', [], s.say, `result ${counted + left} of the list`, current().url);
      if (!clicked) return { why: 'the result went away before it could be clicked' };
      return `${s.say} (${quote(target.name)})`;
    }
    left -= rs.length;
    counted += rs.length;
    const next = nextPageOf(current().nodes);
    if (!next || !rs.length) break;
    const why = `result ${s.result} is past the ${counted} on this page: the next page`;
    if (!(await actOnNode(r, next, 'click', [], `click ${quote(next.name)}`, why, current().url))) break;
    await r.settle();
    set(await look(r, r.instruction));
  }
  return { why: `the page lists ${counted} result${counted === 1 ? '' : 's'}, fewer than ${s.result}` };
}
