/**
 * The result cache on living pages (test/fixtures/living.ts): every markup × every kind of
 * unrelated change × act, observe and extract, the change landing between two identical
 * calls; the second call should be a hit that does the right thing. Then the changes that do
 * touch a call's target: a hit there must never act on the wrong element or serve stale data.
 * A scripted OpenAI-format model answers (a capable model's answers, so what is measured is
 * the cache). Peer: the same pairs keyed the way the cache keyed before (the page's structure
 * in the key), computed from the same run's outcomes. `node --import tsx bench/cache-living.ts`.
 */
import { Deckhand, localBrowser } from '../src/index';
import { startModelServer } from '../test/fixtures/model-server';
import { CHANGES, MARKUPS, MEANING, runLiving, runMeaning, startLivingServer, type LivingOutcome } from '../test/fixtures/living';

const ms = await startModelServer();
const living = await startLivingServer();
const browser = await localBrowser.launch();
const page = await browser.context.activePage();
const ops = ['act', 'observe', 'extract'] as const;
const outcomes: LivingOutcome[] = [];
/** Pairs the earlier keying would have served: the page's URL and structure unchanged between the calls. */
let before = 0;

/**
 * The key the cache used before, measured on the page: its URL without fragment, query sorted,
 * and the roles and names of its controls and headings (what fingerprint() hashed).
 */
const STRUCTURAL = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'checkbox',
  'radio',
  'combobox',
  'listbox',
  'tab',
  'menuitem',
  'switch',
  'slider',
  'spinbutton',
  'heading',
  'form',
  'navigation',
  'main',
  'dialog',
  'iframe',
]);
async function structureKey(p: typeof page): Promise<string> {
  const snap = await p.snapshot({ budget: 50_000 });
  const items = new Set<string>();
  for (const line of snap.text.split('\n')) {
    const m = /^\s*\[(?:f\d+)?e\d+\] ([a-z]+)(?: ("(?:[^"\\]|\\.)*"))?/.exec(line);
    if (m && STRUCTURAL.has(m[1])) items.add(`${m[1]} ${m[2] ?? ''}`);
  }
  const u = new URL(snap.url);
  u.hash = '';
  u.searchParams.sort();
  return `${u.href}\n${[...items].sort().join('\n')}`;
}
const t0 = performance.now();
try {
  for (const op of ops) {
    for (const m of MARKUPS) {
      for (const change of CHANGES) {
        // A fresh store per pair: each pair measures its own second call.
        const dh = await Deckhand.create({
          browser,
          model: { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-bench', baseURL: ms.url },
          cache: { store: 'memory' },
        });
        try {
          const keys: string[] = [];
          const o = await runLiving(dh, page, ms, living.origin, m, change, op, async () => void keys.push(await structureKey(page)));
          outcomes.push(o);
          if (keys[0] === keys[1]) before++;
        } catch (e) {
          outcomes.push({ markup: m.name, change: change.kind, op, status: 'ERROR', missReason: (e as Error).message.slice(0, 120), correct: false });
        } finally {
          await dh.close();
        }
      }
    }
  }
  const meaning = [];
  for (const c of MEANING) {
    const dh = await Deckhand.create({ browser, model: { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-bench', baseURL: ms.url }, cache: { store: 'memory' } });
    try {
      meaning.push(await runMeaning(dh, page, ms, living.origin, c));
    } finally {
      await dh.close();
    }
  }

  console.log(
    `\nCache on living pages: ${MARKUPS.length} markups × ${CHANGES.length} kinds of unrelated change, ${((performance.now() - t0) / 1000).toFixed(0)} s\n`,
  );
  console.log('| op | pairs | hits that did the right thing | hit rate | misses (reason) |');
  console.log('|---|---|---|---|---|');
  for (const op of ops) {
    const mine = outcomes.filter((o) => o.op === op);
    const good = mine.filter((o) => o.status === 'HIT' && o.correct).length;
    const reasons = mine
      .filter((o) => o.status !== 'HIT' || !o.correct)
      .map((o) => `${o.markup}/${o.change}: ${o.status}${o.missReason ? ` ${o.missReason}` : ''}${o.status === 'HIT' ? ' (wrong result)' : ''}`);
    console.log(`| ${op} | ${mine.length} | ${good} | ${((100 * good) / mine.length).toFixed(1)}% | ${reasons.join('; ') || '—'} |`);
  }
  const byKind = CHANGES.map((c) => {
    const mine = outcomes.filter((o) => o.change === c.kind);
    return `${c.kind} ${mine.filter((o) => o.status === 'HIT' && o.correct).length}/${mine.length}`;
  });
  console.log(`\nBy kind: ${byKind.join(', ')}`);
  const now = outcomes.filter((o) => o.status === 'HIT' && o.correct).length;
  console.log(
    `Keyed by URL and page structure, as before (peer, same run): ${before}/${outcomes.length} pairs would hit ` +
      `(${((100 * before) / outcomes.length).toFixed(1)}%); now ${now}/${outcomes.length} (${((100 * now) / outcomes.length).toFixed(1)}%)`,
  );

  console.log('\n| change to the target | op | second call | wrong |');
  console.log('|---|---|---|---|');
  for (const o of meaning)
    console.log(`| ${o.name} | ${o.op} | ${o.status}${o.missReason ? ` (${o.missReason})` : ''} | ${o.wrong ? `WRONG: ${o.detail}` : 'no'} |`);
  console.log(`\nWrong replays: ${meaning.filter((o) => o.wrong).length} of ${meaning.length}`);
} finally {
  await browser.close();
  await living.close();
  await ms.close();
}
