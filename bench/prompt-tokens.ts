/**
 * Prompt size: the tokens (o200k) of Deckhand's page snapshot and of the prompts act,
 * observe and extract send to a model for the benchmark pages, against the same pages'
 * Playwright aria snapshot (`locator('body').ariaSnapshot()`) and Chromium's accessibility
 * tree as CDP returns it (`Accessibility.getFullAXTree`, its nodes as JSON: what a tool
 * sending the raw tree would send), measured in the same run. A callback model records each
 * prompt and answers minimally, so no provider is needed.
 * Writes docs/public/bench/tokens.{json,svg} and the table in docs/benchmarks.md
 * (bench/publish.ts). `npm run bench`.
 */
import { chromium } from 'playwright-core';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { Deckhand, localBrowser } from '../src/index';
import type { ModelRequest } from '../src/protocol/model';
import { ACT_JSON_SCHEMA, OBSERVE_JSON_SCHEMA, systemPrompt } from '../src/engine/core/prompts';
import { findChromium } from '../src/client/paths';
import { startFixtureServers } from '../test/fixtures/server';
import { publish } from './publish';
import { barChart } from './svg-chart';

const PAGES = [
  { name: 'form (30 fields)', path: '/bench-form' },
  { name: 'table 1000 rows', path: '/table?rows=1000' },
  { name: 'table 5000 rows', path: '/table?rows=5000' },
  { name: 'docs (80 sections)', path: '/docs?sections=80' },
];

async function main(): Promise<void> {
  const servers = await startFixtureServers();
  const browser = await localBrowser.launch();
  // Every prompt of the current operation (extract on a big page makes one call per chunk).
  let prompts: ModelRequest[] = [];
  const dh = await Deckhand.create({
    browser,
    model: async (req: ModelRequest) => {
      prompts.push(req);
      const props = (req.schema as { properties?: Record<string, unknown> }).properties ?? {};
      if ('found' in props) {
        return { object: { found: false, elementId: '', method: 'click', arguments: [], description: '', twoStep: false, reason: 'benchmark' } };
      }
      if ('elements' in props) return { object: { elements: [] } };
      return { object: { extraction: '' } };
    },
  });
  const page = await browser.context.activePage();
  const tokensOf = () => {
    const n = prompts.reduce((sum, r) => sum + countTokens(`${r.system}\n${r.prompt}`), 0);
    calls = prompts.length;
    prompts = [];
    return n;
  };
  let calls = 0;
  const ours: Record<string, { snapshot: number; act: number; observe: number; extract: number; extractCalls: number }> = {};
  for (const p of PAGES) {
    await page.goto(servers.origin + p.path);
    const snapshot = countTokens((await page.snapshot()).text);
    prompts = [];
    await dh.act('click the first Edit button');
    const act = tokensOf();
    await dh.observe('buttons that edit a user');
    const observe = tokensOf();
    await dh.extract('the page title');
    const extract = tokensOf();
    ours[p.name] = { snapshot, act, observe, extract, extractCalls: calls };
  }
  await dh.close();
  await browser.close();

  const pw = await chromium.launch({ executablePath: findChromium()!, args: ['--no-sandbox', '--disable-gpu'] });
  const ppage = await pw.newPage();
  const rows: Record<string, string | number>[] = [];
  for (const p of PAGES) {
    await ppage.goto(servers.origin + p.path);
    const aria = countTokens(await ppage.locator('body').ariaSnapshot());
    const cdp = await ppage.context().newCDPSession(ppage);
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const axTree = countTokens(JSON.stringify(nodes));
    await cdp.detach();
    const o = ours[p.name];
    rows.push({
      page: p.name,
      'snapshot tokens': o.snapshot,
      'act tokens': o.act,
      'observe tokens': o.observe,
      'extract tokens': o.extract,
      'extract calls': o.extractCalls,
      'pw aria tokens': aria,
      'CDP AX tree tokens': axTree,
      'snapshot / aria': +(o.snapshot / aria).toFixed(3),
      'snapshot / AX tree': +(o.snapshot / axTree).toFixed(4),
      'act / aria': +(o.act / aria).toFixed(3),
    });
    console.error(JSON.stringify(rows.at(-1)));
  }
  await pw.close();
  await servers.close();
  // The fixed part of every request: each operation's system prompt, and its answer schema as a
  // server that cannot hold the model to it (structuredOutput json_object or text) reads it in the prompt.
  for (const [op, schema] of [
    ['act', ACT_JSON_SCHEMA],
    ['observe', OBSERVE_JSON_SCHEMA],
    ['extract', null],
  ] as const) {
    rows.push({ page: `(${op}: system prompt)`, [`${op} tokens`]: countTokens(systemPrompt(op)) });
    if (schema) rows.push({ page: `(${op}: schema in the prompt)`, [`${op} tokens`]: countTokens(JSON.stringify(schema)) });
  }
  console.table(rows);
  const written = publish('tokens', {
    about:
      "o200k tokens of Deckhand's snapshot and of act/observe/extract prompts, against Playwright's aria snapshot " +
      'and the CDP accessibility tree (JSON), on the same pages in one run',
    parameters: { pages: PAGES, tokenizer: 'o200k_base (gpt-tokenizer)' },
    rows,
    svg: barChart({
      title: 'Snapshot tokens as a share of other page representations',
      categories: PAGES.map((p) => p.name),
      series: [
        { name: "vs Playwright's aria snapshot", values: rows.map((r) => r['snapshot / aria'] as number) },
        { name: 'vs CDP accessibility tree (JSON)', values: rows.map((r) => r['snapshot / AX tree'] as number) },
      ],
      yLabel: 'Deckhand snapshot tokens ÷ theirs',
      rule: { y: 1, label: 'same size' },
      format: (v) => (v < 0.01 ? v.toFixed(4) : v.toFixed(3)),
    }),
  });
  if (written) console.log(`wrote ${written} and its chart`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
