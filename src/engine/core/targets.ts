/**
 * What an action records of its element when it is chosen (act, observe): its role and accessible
 * name as the snapshot showed them, its surroundings (its row's other text, its group's label or
 * the heading above it) and how many elements shared its role and name. A replay checks these
 * before it acts (memory/targets.ts).
 */
import type { ActionTarget } from '../../protocol/schemas';
import type { BrowserPort } from '../ports';
import { selectorsForIds, surroundingsOf } from './snapshot';

export interface SnapElement {
  id: string;
  role: string;
  name: string;
}

/** The elements of a printed snapshot: `[e12] button "Place order" …`. */
export function elementsOf(snapshotText: string): SnapElement[] {
  const out: SnapElement[] = [];
  for (const line of snapshotText.split('\n')) {
    const m = /^\s*\[((?:f\d+)?e\d+)\] ([a-z]+)(?: ("(?:[^"\\]|\\.)*"))?/.exec(line);
    if (!m) continue;
    let name = '';
    try {
      name = m[3] ? (JSON.parse(m[3]) as string) : '';
    } catch {
      name = m[3]?.slice(1, -1) ?? '';
    }
    out.push({ id: m[1], role: m[2], name });
  }
  return out;
}

const fold = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** Names equal, whitespace and case aside; a name the snapshot clipped ("Long name…") matches by its start. */
export function sameName(a: string, b: string): boolean {
  const x = fold(a);
  const y = fold(b);
  if (x === y) return true;
  const clipped = (s: string) => s.endsWith('…') && s.length > 8;
  if (clipped(x)) return y.startsWith(x.slice(0, -1));
  if (clipped(y)) return x.startsWith(y.slice(0, -1));
  return false;
}

const words = (s: string) =>
  fold(s)
    .split(/[^\p{L}\p{N}@.#$€£%-]+/u)
    .filter(Boolean);

/** Every word of the stored surroundings is still there (more may have been added: a badge, a new column). */
export function sameSurroundings(stored: string, now: string): boolean {
  if (!stored) return true;
  const have = new Set(words(now));
  return words(stored).every((w) => have.has(w));
}

/**
 * Selectors for snapshot element ids, each with its target as the snapshot `text` showed it
 * (no target for an id the text does not print); ids no longer on the page are left out.
 */
export async function targetsOf(
  port: BrowserPort,
  page: number,
  text: string,
  ids: string[],
): Promise<Map<string, { selector: string; target?: ActionTarget }>> {
  const els = elementsOf(text);
  const byId = new Map(els.map((e) => [e.id, e]));
  const wanted = ids.map((id) => id.trim());
  const alikeOf = (me: SnapElement) => els.filter((e) => e.role === me.role && sameName(e.name, me.name));
  // The ids are described; where several share a role and name, only the others' surroundings are asked for.
  const peers = new Set<string>();
  for (const id of wanted) {
    const me = byId.get(id);
    const alike = me ? alikeOf(me) : [];
    if (alike.length > 1) for (const p of alike) if (!wanted.includes(p.id)) peers.add(p.id);
  }
  const [described, around] = await Promise.all([
    selectorsForIds(port, page, wanted, true).then((ds) => new Map(ds.flatMap((d) => (d ? [[d.id, d] as const] : [])))),
    peers.size ? surroundingsOf(port, page, [...peers]) : new Map<string, string>(),
  ]);
  const contextOf = (id: string): string | undefined => described.get(id)?.context ?? around.get(id);
  const out = new Map<string, { selector: string; target?: ActionTarget }>();
  for (const id of wanted) {
    const d = described.get(id);
    if (!d) continue;
    const me = byId.get(id);
    if (!me) {
      out.set(id, { selector: d.selector });
      continue;
    }
    const same = alikeOf(me);
    const context = (d.context ?? '').slice(0, 500);
    // Several alike: how many of them its surroundings do not tell apart (a replay may then go by place only).
    const alike =
      same.length > 1
        ? same.filter((e) => {
            const o = contextOf(e.id);
            return o !== undefined && sameSurroundings(context, o);
          }).length
        : 1;
    out.set(id, { selector: d.selector, target: { role: me.role, name: me.name.slice(0, 500), context, count: same.length, alike: Math.max(1, alike) } });
  }
  return out;
}
