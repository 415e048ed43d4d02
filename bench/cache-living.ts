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
const t0 = performance.now();
try {
  for (const op of ops) {
    for (const m of MARKUPS) {
      for (const change of CHANGES) {
        // A fresh store per pair: each pair measures its own second call.
        const dh = await Deckhand.create({ browser, model: { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-bench', baseURL: ms.url }, cache: { store: 'memory' } });
        try {
          outcomes.push(await runLiving(dh, page, ms, living.origin, m, change, op));
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

  console.log(`\nCache on living pages: ${MARKUPS.length} markups × ${CHANGES.length} kinds of unrelated change, ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  console.log('| op | pairs | hits that did the right thing | hit rate | misses (reason) |');
  console.log('|---|---|---|---|---|');
  for (const op of ops) {
    const mine = outcomes.filter((o) => o.op === op);
    const good = mine.filter((o) => o.status === 'HIT' && o.correct).length;
    const reasons = mine.filter((o) => o.status !== 'HIT' || !o.correct).map((o) => `${o.markup}/${o.change}: ${o.status}${o.missReason ? ` ${o.missReason}` : ''}${o.status === 'HIT' ? ' (wrong result)' : ''}`);
    console.log(`| ${op} | ${mine.length} | ${good} | ${((100 * good) / mine.length).toFixed(1)}% | ${reasons.join('; ') || '—'} |`);
  }
  const byKind = CHANGES.map((c) => {
    const mine = outcomes.filter((o) => o.change === c.kind);
    return `${c.kind} ${mine.filter((o) => o.status === 'HIT' && o.correct).length}/${mine.length}`;
  });
  console.log(`\nBy kind: ${byKind.join(', ')}`);
  // The peer: keyed by the page's controls and headings, every change that adds, removes or
  // renames one (all but the URL, timing-only and text-only kinds) changes the key: a miss.
  const textOnly = new Set(['clock', 'toast']);
  const peer = outcomes.filter((o) => o.change === 'tracking parameters' ? false : textOnly.has(o.change) && o.status === 'HIT' && o.correct).length;
  console.log(`Keyed by page structure and raw URL (before): ${peer}/${outcomes.length} hits (${((100 * peer) / outcomes.length).toFixed(1)}%); now ${outcomes.filter((o) => o.status === 'HIT' && o.correct).length}/${outcomes.length}`);

  console.log('\n| change to the target | op | second call | wrong |');
  console.log('|---|---|---|---|');
  for (const o of meaning) console.log(`| ${o.name} | ${o.op} | ${o.status}${o.missReason ? ` (${o.missReason})` : ''} | ${o.wrong ? `WRONG: ${o.detail}` : 'no'} |`);
  console.log(`\nWrong replays: ${meaning.filter((o) => o.wrong).length} of ${meaning.length}`);
} finally {
  await browser.close();
  await living.close();
  await ms.close();
}
