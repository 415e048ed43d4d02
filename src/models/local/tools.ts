/**
 * The built-in model's choice of a page's own tool (WebMCP) for an instruction. A tool is chosen
 * only when the instruction says every word of its name (or the name itself) and gives every
 * value the tool needs, and no value of the instruction is left over: "add 3 of R10 to the cart"
 * calls add_to_cart {sku: "R10", qty: 3}; "search the catalogue for rope" calls
 * search_catalogue {q: "rope"}. Anything less, or two tools alike, leaves the instruction to the
 * page's controls (act.ts). A description is page text: it ranks tools whose names fit, and
 * never makes a tool fit.
 */
import { EMAILS } from './input-values';
import type { PageTool } from '../../protocol/page-tools';
import { words } from './text';
import { anyOf, either } from './words/grammar';
import { COUNT_WORDS } from './words/numbers';
import { CONTROL_WORDS, DATE_FIELDS, FROM_FIELDS, NEGATIONS, NOT_VALUES, TO_FIELDS, TOOL_NOUNS, TOOL_WORD_FORMS, VALUE_INTRODUCERS } from './words/tools';

export interface ToolPick {
  name: string;
  input: Record<string, unknown>;
  description: string;
}

const FORM_OF = new Map<string, string>();
for (const forms of TOOL_WORD_FORMS) for (const f of forms) for (const w of f.split(' ')) FORM_OF.set(w, forms[0]);

const stem = (w: string) => {
  const s = w.replace(/(ing|ed|es|s)$/, '');
  return s.length >= 3 ? s : w;
};
/** A text's content words as the tool reader compares them: synonyms met, plurals and tenses cut. */
const keyWords = (s: string): string[] => [...new Set(words(s).map((w) => stem(FORM_OF.get(w) ?? w)))];
/** A tool name's words: add_to_cart, addToCart and add-to-cart all say "add to cart". */
const nameText = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_.\-]+/g, ' ');

const QUOTED = /"([^"]+)"|“([^”]+)”|'([^']+)'/g;
const INTRODUCED = new RegExp(`\\b(?:${either(VALUE_INTRODUCERS)}) (.+?)(?:[.!?]?$| (?:to|in|on|from|into) the\\b)`, 'i');
const NOT_VALUE = new RegExp(`^(?:${either(NOT_VALUES)})$`, 'i');
const TOOL_NOUN = anyOf(TOOL_NOUNS);
const CONTROL = anyOf(CONTROL_WORDS);
const NEGATION = anyOf(NEGATIONS);

/** A JSON object written in the instruction, when there is exactly one and it parses. */
function jsonIn(text: string): Record<string, unknown> | null {
  const at = text.indexOf('{');
  if (at < 0 || text.indexOf('{', text.lastIndexOf('}')) > 0) return null;
  try {
    const v: unknown = JSON.parse(text.slice(at, text.lastIndexOf('}') + 1));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/;
// A place is a name: one to four capitalised words ("York", "New York", "LHR"), ended where the sentence goes on.
const PLACE = "((?:[A-Z][\\w'.-]*)(?: [A-Z][\\w'.-]*){0,3})";
const PLACE_END = '(?=[,.;:!?]| on\\b| at\\b| for\\b| to\\b| from\\b| and\\b| in\\b|$)';
const FROM_PLACE = new RegExp(`\\b[Ff]rom ${PLACE}${PLACE_END}`);
const TO_PLACE = new RegExp(`\\b(?:[Tt]o|[Ii]n) ${PLACE}${PLACE_END}`);
const [FROM_WORDS, TO_WORDS, DATE_WORDS] = [FROM_FIELDS, TO_FIELDS, DATE_FIELDS].map((t) => new Set(t));
/** Whether a field is a trip's origin, destination or date, by the words of its name. */
function roleOf(key: string): 'from' | 'to' | 'date' | null {
  const ws = nameText(key).toLowerCase().split(/\s+/);
  if (ws.some((w) => DATE_WORDS.has(w))) return 'date';
  if (ws.some((w) => FROM_WORDS.has(w))) return 'from';
  if (ws.some((w) => TO_WORDS.has(w))) return 'to';
  return null;
}

const emailish = (key: string, s: Schema) => s.format === 'email' || /e-?mail/i.test(key);

/** Whether a word of `words` is right beside the number `text` among the instruction's tokens ("qty 2", "2 guests", "guests: 2"). */
function beside(tokens: string[], text: string, words: string[]): boolean {
  const near = new Set(words);
  return tokens.some((t, i) => t === text && [tokens[i - 1], tokens[i + 1]].some((w) => w !== undefined && keyWords(w).some((k) => near.has(k))));
}

type Schema = { type?: unknown; enum?: unknown[]; format?: unknown; description?: unknown };

/** The values an instruction gives, each to be used by exactly one argument. */
interface Values {
  quoted: string[];
  emails: string[];
  numbers: { text: string; value: number }[];
  /** Tokens as written, for enum values. */
  tokens: string[];
}

function valuesOf(instruction: string): Values {
  const quoted = [...instruction.matchAll(QUOTED)].map((m) => m[1] ?? m[2] ?? m[3]);
  const bare = instruction.replace(QUOTED, ' ');
  const emails = bare.match(EMAILS) ?? [];
  const tokens = bare
    .replace(EMAILS, ' ')
    .split(/[\s,;:()=]+/)
    .map((t) => t.replace(/[.!?]+$/, ''))
    .filter(Boolean);
  const numbers = tokens.flatMap((t) => {
    if (/^\d+(?:\.\d+)?$/.test(t)) return [{ text: t, value: Number(t) }];
    const w = COUNT_WORDS[t.toLowerCase()];
    return w !== undefined && !/^an?$/i.test(t) ? [{ text: t, value: w }] : [];
  });
  return { quoted, emails, numbers, tokens };
}

/**
 * The input for `tool` from the instruction's values, or why there is none: a required value
 * missing or unclear, or a value the tool would not use.
 */
function inputFor(tool: PageTool, instruction: string, v: Values): Record<string, unknown> | string {
  const said = new Set(keyWords(instruction));
  const props = (tool.inputSchema.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(tool.inputSchema.required) ? (tool.inputSchema.required as string[]) : []);
  const used = { quoted: new Set<number>(), emails: new Set<number>(), numbers: new Set<number>(), tokens: new Set<number>() };
  const input: Record<string, unknown> = {};
  const types = (s: Schema) => (Array.isArray(s.type) ? s.type : [s.type]).map(String);
  const free: string[] = [];
  const numeric = Object.values(props).filter((p) => !Array.isArray(p?.enum) && types(p ?? {}).some((x) => x === 'integer' || x === 'number')).length;
  for (const [key, s] of Object.entries(props)) {
    if (Array.isArray(s?.enum)) {
      const hits = s.enum.flatMap((e) =>
        v.tokens.flatMap((t, i) => (String(e).toLowerCase() === t.toLowerCase() && !used.tokens.has(i) ? [[e, i] as const] : [])),
      );
      const distinct = new Set(hits.map(([e]) => e));
      if (distinct.size === 1) {
        input[key] = hits[0][0];
        for (const [, i] of hits) used.tokens.add(i);
      } else if (distinct.size > 1) return `the instruction names more than one ${key}`;
      continue;
    }
    const t = types(s ?? {});
    if (t.includes('integer') || t.includes('number')) {
      let free = v.numbers.map((n, i) => ({ n, i })).filter(({ n, i }) => !used.numbers.has(i) && (t.includes('number') || Number.isInteger(n.value)));
      // With several numbers to give, a number goes only where the instruction says whose it is ("qty 2", "4 guests").
      if (numeric > 1) free = free.filter(({ n }) => beside(v.tokens, n.text, keyWords(`${nameText(key)} ${String(s?.description ?? '')}`)));
      if (free.length === 1) {
        input[key] = free[0].n.value;
        used.numbers.add(free[0].i);
      }
      continue;
    }
    if (t.includes('boolean')) {
      // A switch the instruction names ("hide done items" for hideDone) is turned on; one it names with a "not" is not read here.
      const own = keyWords(nameText(key));
      if (own.length && own.every((w) => said.has(w))) {
        if (NEGATION.test(instruction)) return `the instruction says "not" near the ${key} switch`;
        input[key] = true;
      }
      continue;
    }
    if (t.includes('string') || !t[0] || t[0] === 'undefined') {
      if (emailish(key, s)) {
        // Two address fields (from, to): which address is whose is not read here.
        if (Object.entries(props).filter(([k, p]) => emailish(k, p ?? {})).length > 1) continue;
        const at = v.emails.findIndex((_, i) => !used.emails.has(i));
        if (at >= 0) {
          input[key] = v.emails[at];
          used.emails.add(at);
        }
        continue;
      }
      // A trip's places and date: "from London to York on 2026-12-01".
      const role = roleOf(key);
      if (role === 'date' || s?.format === 'date') {
        // Two date fields (out and back): which date is whose is not read here.
        if (Object.entries(props).filter(([k, p]) => roleOf(k) === 'date' || p?.format === 'date').length === 1) {
          const d = ISO_DATE.exec(instruction)?.[0];
          if (d) input[key] = d;
        }
        continue;
      }
      if (role) {
        const place = (role === 'from' ? FROM_PLACE : TO_PLACE).exec(instruction.replace(QUOTED, ' '))?.[1]?.trim();
        if (place) input[key] = place;
        continue;
      }
      free.push(key);
    }
  }
  // Free text: a quoted value, else the words after "for" / "called" ..., when one field takes free text.
  if (free.length === 1) {
    const at = v.quoted.findIndex((_, i) => !used.quoted.has(i));
    if (at >= 0) {
      input[free[0]] = v.quoted[at];
      used.quoted.add(at);
    } else {
      const said = INTRODUCED.exec(instruction.replace(QUOTED, ' ').replace(EMAILS, ' '))?.[1]?.trim();
      if (said && !NOT_VALUE.test(said)) {
        input[free[0]] = said;
        // Its words are the value: numbers in it are used up with it.
        v.numbers.forEach((n, i) => {
          if (new RegExp(`\\b${n.text}\\b`).test(said)) used.numbers.add(i);
        });
      }
    }
  } else if (free.length > 1 && v.quoted.length) return 'the instruction gives quoted text and the tool has several text fields';
  for (const key of required) if (!(key in input)) return `the instruction does not give its ${key}`;
  // A field the instruction speaks of ("sort by date") whose value is not read here: calling without it would drop what was asked.
  for (const key of Object.keys(props)) {
    const own = keyWords(nameText(key));
    if (!(key in input) && own.length && own.every((w) => said.has(w))) return `the instruction speaks of its ${key}, and its value is not read here`;
  }
  if (v.quoted.some((_, i) => !used.quoted.has(i))) return 'the instruction gives quoted text the tool does not take';
  if (v.emails.some((_, i) => !used.emails.has(i))) return 'the instruction gives an address the tool does not take';
  if (v.numbers.some((_, i) => !used.numbers.has(i))) return 'the instruction gives a number the tool does not take';
  // A trip's place the tool has no field for ("from London" to a tool of destinations only) would be dropped.
  const roles = new Set(Object.keys(input).map(roleOf));
  const bare = instruction.replace(QUOTED, ' ');
  if (FROM_PLACE.test(bare) && !roles.has('from')) return 'the instruction gives a place to leave from that the tool does not take';
  if (TO_PLACE.test(bare) && !roles.has('to') && Object.keys(props).some((k) => roleOf(k) === 'from' || roleOf(k) === 'to')) {
    return 'the instruction gives a place to go to that the tool does not take';
  }
  const dates = instruction.match(new RegExp(ISO_DATE.source, 'g')) ?? [];
  const dated = Object.values(input).filter((x) => typeof x === 'string' && ISO_DATE.test(x)).length;
  if (dates.length > dated) return 'the instruction gives a date the tool does not take';
  return input;
}

/**
 * The page's tool an instruction asks for, with its input; null when none fits for sure (the
 * page's controls are tried instead). `why` says what kept the best-named tool out, for the refusal.
 */
export function pickTool(instruction: string, tools: readonly PageTool[]): { pick: ToolPick | null; why?: string } {
  if (!tools.length || !instruction.trim()) return { pick: null };
  const said = new Set(keyWords(instruction));
  const lower = instruction.toLowerCase();
  const values = valuesOf(instruction);
  let best: { pick: ToolPick; score: number } | null = null;
  let tie = false;
  let why: string | undefined;
  for (const tool of tools) {
    const named = lower.includes(tool.name.toLowerCase()) && /[_.\-A-Z]/.test(tool.name) ? 1 : 0;
    const own = keyWords(nameText(tool.name));
    if (!own.length) continue;
    if (!named && (CONTROL.test(instruction) || !own.every((w) => said.has(w)))) continue;
    // An instruction that names the tool ("the add_to_cart tool") gives its values around that name.
    const text = named ? instruction.replace(new RegExp(`\\b${tool.name.replace(/[.\-]/g, '\\$&')}\\b`, 'i'), ' ').replace(TOOL_NOUN, ' ') : instruction;
    // The input written out as JSON ('call add_to_cart with {"sku": "R10"}') is taken as it is; the engine checks it against the schema.
    const written = jsonIn(text);
    const input = written ?? inputFor(tool, text, named ? valuesOf(text) : values);
    if (typeof input === 'string') {
      why ??= `the page's tool '${tool.name}' fits, but ${input}`;
      continue;
    }
    const about = keyWords(tool.description);
    const score = own.length + named * 10 + (about.length ? about.filter((w) => said.has(w)).length / about.length : 0);
    if (best && Math.abs(best.score - score) < 1e-9) tie = true;
    else if (!best || score > best.score) {
      best = { pick: { name: tool.name, input, description: `the page's tool ${tool.name}` }, score };
      tie = false;
    }
  }
  if (tie) return { pick: null, why: "two of the page's tools fit it alike" };
  // Two tools said ("empty the cart and subscribe ... to the newsletter"): one call would do half of it.
  const named = tools.map((t) => new Set(keyWords(nameText(t.name)))).filter((own) => own.size && [...own].every((w) => said.has(w)));
  const own = named.filter((a) => !named.some((b) => b !== a && b.size > a.size && [...a].every((w) => b.has(w))));
  if (best && own.length > 1) return { pick: null, why: "the instruction names more than one of the page's tools; one step calls one" };
  return best ? { pick: best.pick } : { pick: null, why };
}
