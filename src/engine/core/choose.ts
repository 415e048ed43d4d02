/**
 * selectOption on a select built from elements (a combobox or listbox that is not <select>), as
 * a person does it: open it when the option does not show, click the option, and check that
 * the control now shows it. Options that appear elsewhere on the page when it opens (a popover
 * appended to <body>) count only if they were not showing before the click.
 */
import { DeckhandError, ErrorCode } from '../../protocol/errors';
import type { Choices, OpResult } from '../../protocol/content-messages';
import { prepareTarget, type Prepared } from './frames';
import type { Input } from './input';
import type { BrowserPort } from '../ports';
import { throwIfCancelled } from './cancel';

type Option = Choices['options'][number];
type RunOp = (name: string, args?: string[]) => Promise<OpResult & { ok: true }>;

const fold = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
/** How long a list that has opened may take to show the rest of its options. */
const LIST_SETTLE_MS = 750;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The option a person means by `want`: its label exactly (case aside), else its value; several equally good is no answer. */
function match(options: Option[], want: string): Option | 'ambiguous' | null {
  const w = fold(want);
  for (const same of [(o: Option) => fold(o.label) === w, (o: Option) => o.value !== '' && o.value === want]) {
    const hits = options.filter(same);
    const near = hits.filter((o) => o.near);
    const pool = near.length ? near : hits;
    if (pool.length === 1) return pool[0];
    if (pool.length > 1) return 'ambiguous';
  }
  return null;
}

const listed = (options: Option[]) =>
  options
    .map((o) => JSON.stringify(o.label))
    .slice(0, 12)
    .join(', ') || 'none';

export interface ChooseContext {
  port: BrowserPort;
  page: number;
  target: { selector: string; nth?: number; frameId?: number };
  prepared: Prepared;
  input: Input;
  timeoutMs: number;
  signal?: AbortSignal;
}

export async function chooseOption(c: ChooseContext, run: RunOp, want: string): Promise<void> {
  const deadline = Date.now() + c.timeoutMs;
  const read = async () => (await run('choices')).value as Choices;
  const left = () => Math.max(0, deadline - Date.now());
  let now = await read();
  let pick = match(
    now.options.filter((o) => o.near),
    want,
  );
  const opened = !pick;
  const what = `'${c.target.selector}'`;
  const ambiguous = () => new DeckhandError(ErrorCode.ActionFailed, `more than one option of ${what} reads '${want}'; nothing was chosen`);
  if (pick === 'ambiguous') throw ambiguous();
  if (!pick) {
    const before = new Set(now.options.map((o) => o.selector));
    const opener = await prepareTarget(c.port, c.page, c.target, 'click', { timeoutMs: left(), pointer: true, requireEnabled: true, signal: c.signal });
    await c.input.click(opener.x, opener.y);
    // Once the list shows options, a moment for the rest to render; then the answer is in.
    let shownSince = 0;
    for (;;) {
      await sleep(60);
      throwIfCancelled(c.signal);
      now = await read();
      const shown = now.options.filter((o) => o.near || !before.has(o.selector));
      pick = match(shown, want);
      if (shown.length && !shownSince) shownSince = Date.now();
      if (pick || Date.now() >= deadline || (shownSince && Date.now() - shownSince > LIST_SETTLE_MS)) break;
    }
    if (pick === 'ambiguous') throw ambiguous();
    if (!pick) {
      await c.input.press('Escape').catch(() => undefined);
      const shown = now.options.filter((o) => o.near || !before.has(o.selector));
      throw new DeckhandError(ErrorCode.ActionFailed, `${what} shows no option '${want}' when opened (options: ${listed(shown)}); nothing was chosen`);
    }
  }
  if (pick.disabled) throw new DeckhandError(ErrorCode.ElementNotActionable, `option '${pick.label}' of ${what} is disabled`);
  // The option's point in its frame, moved by where that frame sits in the tab.
  let dx = 0;
  let dy = 0;
  if (c.prepared.frameId !== 0) {
    const self = await prepareTarget(c.port, c.page, { selector: now.self, frameId: c.prepared.frameId }, 'hover', {
      timeoutMs: left(),
      pointer: false,
      requireEnabled: false,
      signal: c.signal,
    });
    const top = await prepareTarget(c.port, c.page, c.target, 'hover', { timeoutMs: left(), pointer: false, requireEnabled: false, signal: c.signal });
    dx = top.x - self.x;
    dy = top.y - self.y;
  }
  const opt = await prepareTarget(c.port, c.page, { selector: pick.selector, frameId: c.prepared.frameId }, 'click', {
    timeoutMs: left(),
    pointer: true,
    requireEnabled: true,
    signal: c.signal,
  });
  await c.input.click(opt.x + dx, opt.y + dy);
  // The control shows the choice (its value, name or text), or the option says it is selected.
  const label = fold(pick.label);
  const chosen = pick.selector;
  const until = Math.min(deadline, Date.now() + 2000);
  for (;;) {
    now = await read();
    if (fold(now.shown).includes(label) || now.options.some((o) => o.selector === chosen && o.selected)) {
      // A list this opened is closed before the next step, as a person waits for it: a click
      // while it fades out goes to closing it (Material's menu), not to what is under it.
      if (opened) await closed(read, chosen, Math.min(deadline, Date.now() + LIST_SETTLE_MS * 2), c.signal);
      return;
    }
    if (Date.now() >= until) break;
    await sleep(60);
    throwIfCancelled(c.signal);
  }
  throw new DeckhandError(ErrorCode.ActionFailed, `option '${pick.label}' of ${what} was clicked, but the control does not show it as chosen`);
}

/** Until the chosen option no longer shows, the control does not say it is expanded and its component has stopped animating, or `until`. */
async function closed(read: () => Promise<Choices>, chosen: string, until: number, signal?: AbortSignal): Promise<void> {
  for (;;) {
    const now = await read();
    if (now.expanded !== true && !now.busy && !now.options.some((o) => o.selector === chosen)) return;
    if (Date.now() >= until) return;
    await sleep(60);
    throwIfCancelled(signal);
  }
}
