/**
 * Approval's cost: a click that needs approval (a "Buy now" div button, kind pay) against the
 * same click with no approval asked (the peer, in the same run on the same page). With the
 * caller's own handler approving at once, the difference is what the gate adds: reading what
 * the element does and one round trip to the caller. With the side panel open, also how long
 * from the step being held to its prompt showing in the panel's DOM (a MutationObserver).
 * Wall-clock ms on one machine. `npm run bench`.
 */
import { Deckhand, localBrowser } from '../src/index';
import { startFixtureServers } from '../test/fixtures/server';
import { PanelPage } from '../test/fixtures/panel-page';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const now = () => performance.timeOrigin + performance.now();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

async function main(): Promise<void> {
  const servers = await startFixtureServers();
  const browser = await localBrowser.launch({ viewport: { width: 1000, height: 700 } });
  const dh = await Deckhand.create({ browser });
  const page = await browser.context.activePage();
  await page.goto(`${servers.origin}/approval-kinds.html`);
  const buy = { selector: '#buy', method: 'click', description: 'Buy now' };
  const time = async (f: () => Promise<unknown>) => {
    const t0 = now();
    await f();
    return now() - t0;
  };
  const plain: number[] = [];
  const handled: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    plain.push(await time(() => dh.act(buy)));
    handled.push(await time(() => dh.act(buy, { approval: { when: ['pay'] }, onApproval: () => 'approve' })));
  }

  // The side panel: from the step being held (the request's deadline minus its timeout) to its prompt in the panel.
  const panel = await PanelPage.open(browser, page.id);
  await page.bringToFront();
  await panel.eval(`(() => {
    window.__prompts = [];
    new MutationObserver((records) => {
      const t = performance.timeOrigin + performance.now();
      for (const r of records) for (const n of r.addedNodes) {
        if (!(n instanceof Element)) continue;
        for (const a of n.matches('[data-testid=approval]') ? [n] : n.querySelectorAll('[data-testid=approval]'))
          window.__prompts.push({ id: a.dataset.approvalId, shown: t });
      }
    }).observe(document.body, { childList: true, subtree: true });
  })()`);
  const toPanel: number[] = [];
  const TIMEOUT = 60_000;
  for (let i = 0; i < Math.min(RUNS, 10); i++) {
    let held = 0;
    // The handler sees the request as it is put to everyone; it leaves the decision to the panel.
    const run = dh.act(buy, { approval: { when: ['pay'], timeout: TIMEOUT }, onApproval: (req) => ((held = req.deadline - TIMEOUT), null) });
    const shown = await panel.waitFor<{ id: string; shown: number }>('window.__prompts.at(-1) || null', 'the prompt in the side panel', 15_000);
    for (const end = Date.now() + 5000; !held && Date.now() < end;) await new Promise((r) => setTimeout(r, 5));
    await panel.click(`[data-testid=approval][data-approval-id="${shown.id}"] [data-testid=approval-approve]`);
    await run;
    toPanel.push(shown.shown - held);
    await panel.eval('window.__prompts = []');
  }
  await dh.close();
  await browser.close();
  await servers.close();

  const row = (name: string, xs: number[]) => `${name.padEnd(44)} median ${median(xs).toFixed(1)} ms  p95 ${p95(xs).toFixed(1)} ms`;
  console.log(`approval (${RUNS} clicks each, same page, same run)`);
  console.log(row('click, no approval asked (peer)', plain));
  console.log(row('click, approved by the caller at once', handled));
  console.log(`  ratio (median): ${(median(handled) / median(plain)).toFixed(2)}`);
  console.log(row('held step → prompt shown in the side panel', toPanel));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
