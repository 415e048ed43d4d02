/**
 * Deterministic actions: an Action (selector, method, arguments) performed with
 * trusted input after the element is attached, visible, stable, enabled, in view
 * and not covered. No model is involved.
 */
import { actedOn } from './activity';
import { Input } from './input';
import { parseChord } from './keys';
import { DeckhandError, ErrorCode } from '../../protocol/errors';
import { ACT_METHODS, MAX_TIMEOUT_MS, type ActMethod } from '../../protocol/schemas';
import type { Choices, OpResult, PingResult, PressSeen, ResizeGrips } from '../../protocol/content-messages';
import { chooseOption } from './choose';
import { prepareTarget, type Prepared } from './frames';
import type { Size } from '../../models/local/step-runner';
import type { BrowserPort, CdpSession } from '../ports';
import { cancellableSleep, raceCancel, throwIfCancelled } from './cancel';
import { gateOf } from './gate';
import { callPageTool, toolCallArgs } from './page-tools';
import { RiskFactsSchema, type RiskFacts } from '../../protocol/approval';
import type { DrawnShapes } from '../../protocol/content-messages';

export interface ActTarget {
  selector: string;
  nth?: number;
  frameId?: number;
}

const POINTER: ReadonlySet<string> = new Set(['click', 'doubleClick', 'rightClick', 'hover', 'check', 'uncheck', 'dragAndDrop']);
const SCROLLS: ReadonlySet<string> = new Set(['scrollTo', 'scrollIntoView', 'nextChunk', 'prevChunk']);
/** The axes scrollTo takes as its second argument (vertical when it has none). */
const SCROLL_AXES: readonly string[] = ['vertical', 'horizontal', 'both'];
// focus: like a keyboard user tabbing to it, no pointer involved
/** Methods that always send the page trusted input events (check/uncheck verify their state; hover may move nowhere). */
const SENDS_INPUT: ReadonlySet<string> = new Set(['click', 'doubleClick', 'rightClick', 'press', 'dragAndDrop']);
/** Pauses before a frame that counted no input is asked again (about 0.6 s in all, spent only when the count stays still). */
const RECOUNT_MS = [30, 70, 150, 350];
const NEEDS_ENABLED: ReadonlySet<string> = new Set([
  'click',
  'doubleClick',
  'rightClick',
  'fill',
  'type',
  'selectOption',
  'check',
  'uncheck',
  'press',
  'dragAndDrop',
]);

export function assertMethod(method: string | undefined): ActMethod {
  const m = method ?? 'click';
  if (!(ACT_METHODS as readonly string[]).includes(m)) {
    throw new DeckhandError(ErrorCode.UnsupportedMethod, `unknown method '${m}'; use one of: ${ACT_METHODS.join(', ')}`, { method: m });
  }
  return m as ActMethod;
}

function needArg(method: string, args: string[], what: string): string {
  const v = args[0];
  if (v === undefined) throw new DeckhandError(ErrorCode.InvalidArgument, `${method} needs ${what} as its first argument`);
  return v;
}

/** Check a method and its arguments before anything touches the page. */
export function validateAction(methodName: string | undefined, args: string[]): ActMethod {
  const method = assertMethod(methodName);
  // Validate arguments before touching the page, so bad input changes nothing.
  if (method === 'fill' || method === 'type') needArg(method, args, 'the text');
  if (method === 'press') needArg(method, args, 'a key or chord such as Enter or Control+A');
  if (method === 'dragAndDrop') needArg(method, args, 'the target selector');
  if (method === 'selectText' && !needArg(method, args, 'the text to select').trim())
    throw new DeckhandError(ErrorCode.InvalidArgument, 'selectText needs the text to select, not an empty string');
  if (method === 'callTool') toolCallArgs(args);
  if (method === 'selectOption' && !args.length) needArg(method, args, 'an option label or value');
  if (method === 'scrollTo') {
    const pct = Number(needArg(method, args, 'a percentage such as 50%').trim().replace(/%$/, ''));
    if (!args[0].trim() || !Number.isFinite(pct) || pct < 0 || pct > 100) {
      throw new DeckhandError(ErrorCode.InvalidArgument, `scrollTo needs a percentage from 0 to 100, got '${args[0]}'`);
    }
    if (args[1] !== undefined && !SCROLL_AXES.includes(args[1])) {
      throw new DeckhandError(ErrorCode.InvalidArgument, `scrollTo's second argument is the axis, one of ${SCROLL_AXES.join(', ')}; got '${args[1]}'`);
    }
  }
  if (method === 'press') {
    try {
      parseChord(args[0]);
    } catch (e) {
      throw new DeckhandError(ErrorCode.InvalidArgument, (e as Error).message);
    }
  }
  return method;
}

/** A top-level document committing (Page.frameNavigated of the main frame). */
interface Commit {
  url: string;
  /** Set when the document is Chromium's error page: the address that failed. */
  unreachableUrl?: string;
}

/**
 * Perform one action on the element `target` names. Success means the input went to the
 * document the element was found in: when that document is replaced in between (a navigation
 * commits, or the frame now shows Chromium's error page), the action fails instead of
 * reporting what it cannot know. Cancelling `signal` stops the wait for the element, and any
 * wait for a navigation the action started, at once.
 */
export async function performAction(
  port: BrowserPort,
  page: number,
  target: ActTarget,
  methodName: string | undefined,
  args: string[],
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ element: string; output?: string; navigated?: string }> {
  const method = validateAction(methodName, args);
  throwIfCancelled(signal);
  if (method === 'callTool') {
    // A page's own tool: no element to find, the page's tool does the work (core/page-tools.ts).
    const { name, input } = toolCallArgs(args);
    const r = await callPageTool(port, page, name, input, timeoutMs, signal);
    return { element: `the page's tool '${name}'`, ...r };
  }
  let off = () => {};
  const closed = new Promise<never>((_, reject) => {
    off = port.onPageClosed(page, () => reject(new DeckhandError(ErrorCode.PageClosed, `the page was closed during ${method}`)));
  });
  closed.catch(() => undefined);
  const run = async () => {
    const cdp = await port.cdp(page);
    actedOn(page, cdp);
    // While the element is looked for and the input is under way (see below): top-level
    // documents committing, and whether a navigation was asked for by the page meanwhile (as
    // the input itself may do).
    let requested = false;
    let unasked: Commit | null = null;
    /** Any document committing, an iframe's included (the element may be in one). */
    let committed = false;
    let watching = true;
    const navigating = new Set<string>();
    const offNav = cdp.on('Page.frameRequestedNavigation', (e: { frameId: string }) => {
      if (!watching) return;
      requested = true;
      navigating.add(e.frameId);
    });
    const offCommit = cdp.on('Page.frameNavigated', (e: { frame?: { parentId?: string; url?: string; unreachableUrl?: string } }) => {
      if (watching) committed = true;
      if (watching && !requested && !unasked && e.frame && !e.frame.parentId) unasked = { url: e.frame.url ?? '', unreachableUrl: e.frame.unreachableUrl };
    });
    try {
      const prepare = () =>
        prepareTarget(port, page, target, method, {
          timeoutMs,
          pointer: POINTER.has(method),
          requireEnabled: NEEDS_ENABLED.has(method),
          reveal: !SCROLLS.has(method),
          signal,
        });
      let prepared = await prepare();
      // A call that asked for approval: a risky step waits here, found but not yet acted on. After
      // a wait the element is found again (the page may have moved on while the person looked).
      const gate = gateOf(signal);
      if (gate && gate.gates(method)) {
        const before = gate.heldMs();
        const pageUrl = (await port.pageInfo(page)).url;
        await gate.check({ method, args, pageUrl, facts: await riskFacts(port, page, prepared), element: prepared.description }, signal);
        if (gate.heldMs() > before) {
          const approved = prepared.description;
          prepared = await prepare();
          // What was approved is that element: one that reads differently now (a list re-rendered
          // while the person looked) is not acted on. Classes aside: hovering may change them.
          if (withoutClasses(prepared.description) !== withoutClasses(approved)) {
            const why =
              `'${target.selector}' was ${approved} when the ${method} was approved ` + `and is ${prepared.description} now; the ${method} was not performed`;
            throw new DeckhandError(ErrorCode.ActionFailed, why, { page });
          }
        }
      }
      const deadline = Date.now() + timeoutMs;
      throwIfCancelled(signal);
      // The element's document must be the frame's document when the input goes out. The frame
      // answered with its document token after the watch began, so when no document (of any
      // frame) committed and no navigation was asked for while the element was looked for, that
      // answer is the proof; otherwise (a navigation during the wait) the frame is asked again. From
      // then until the input has been taken, a top-level document committing that nobody in
      // the page asked for (a navigation started before the action, such as a failed goto's
      // error page) means the input may have reached the new document instead. A navigation
      // the input itself starts is asked for by the page first (Page.frameRequestedNavigation),
      // so it is not one.
      let before: { doc: string; inputs?: number } | null = prepared.doc !== undefined ? { doc: prepared.doc, inputs: prepared.inputs } : null;
      const during = requested || committed ? unasked : undefined;
      requested = false;
      unasked = null;
      committed = false;
      navigating.clear();
      if (before && during !== undefined) {
        const now = await port.frameRequest<PingResult>(page, prepared.frameId, { type: 'dh:ping' }, 5000);
        if (now.doc !== before.doc) throw documentChanged(page, target.selector, method, during ?? unasked);
        before = now;
      }
      // Whether the input reached the document (below): asked together with the round trip
      // that lets a navigation the input caused be reported first.
      const checkInput = before?.inputs !== undefined && SENDS_INPUT.has(method);
      let after: PingResult | null = null;
      let afterError: unknown = null;
      try {
        await execute(port, page, target, prepared, method, args, timeoutMs, signal, prepare);
        await Promise.all([
          // One round trip through the renderer: a navigation the input caused is requested by then.
          POINTER.has(method) || method === 'press' ? cdp.send('Runtime.evaluate', { expression: '0' }).catch(() => undefined) : undefined,
          checkInput
            ? port.frameRequest<PingResult>(page, prepared.frameId, { type: 'dh:ping' }, 3000).then(
                (r) => void (after = r),
                (e: unknown) => void (afterError = e),
              )
            : undefined,
        ]);
      } finally {
        watching = false;
      }
      if (unasked) throw documentChanged(page, target.selector, method, unasked);
      // Input the browser dropped never reached the document (it can, when a navigation is about
      // to replace it): the same document, and not one trusted input event more, is no success.
      // A navigation the page asked for means the input was taken, so nothing is concluded then.
      if (checkInput && !requested) {
        // The frame is Chromium's error page now: the input went nowhere useful. Any other
        // silence (a frame the click itself removed, say) proves nothing either way.
        if (afterError instanceof DeckhandError && afterError.code === ErrorCode.PageError) throw afterError;
        let a = after as PingResult | null;
        // Input for an out-of-process frame is routed on by the browser after the top renderer
        // has taken it, so the frame may count it a moment later: asked again before concluding.
        const still = (p: PingResult | null) => !requested && !!p && p.doc === before!.doc && p.inputs === before!.inputs;
        for (const ms of RECOUNT_MS) {
          if (!still(a)) break;
          await cancellableSleep(ms, signal);
          a = await port.frameRequest<PingResult>(page, prepared.frameId, { type: 'dh:ping' }, 3000).catch((e: unknown) => {
            if (e instanceof DeckhandError && e.code === ErrorCode.PageError) throw e;
            return null;
          });
        }
        if (requested) a = null;
        if (still(a)) {
          const why =
            `the ${method} on '${target.selector}' was sent but never reached the page ` +
            '(the browser dropped the input, as it does while a navigation is replacing the document); nothing was done';
          throw new DeckhandError(ErrorCode.ActionFailed, why, { page });
        }
        if (a && a.doc !== before!.doc) throw documentChanged(page, target.selector, method, { url: a.url });
      }
      if (navigating.size) await waitForLoads(port, page, cdp, navigating, Math.max(0, deadline - Date.now()), signal);
      return { element: prepared.description };
    } finally {
      offNav();
      offCommit();
    }
  };
  const running = run();
  running.catch(() => undefined); // the race below reports whichever settles first
  try {
    return await raceCancel(Promise.race([running, closed]), signal);
  } finally {
    off();
  }
}

/** The error for an action whose element's document was replaced before its input went out. */
function documentChanged(page: number, selector: string, method: string, commit: Commit | null): DeckhandError {
  if (commit?.unreachableUrl || commit?.url.startsWith('chrome-error:')) {
    return new DeckhandError(
      ErrorCode.PageError,
      `page ${page} went to Chromium's error page${commit.unreachableUrl ? ` (loading ${commit.unreachableUrl} failed)` : ''} ` +
        `after '${selector}' was found and before the ${method} reached it; the ${method} was not performed on that element`,
      { page, ...(commit.unreachableUrl ? { url: commit.unreachableUrl } : {}) },
    );
  }
  return new DeckhandError(
    ErrorCode.FrameDetached,
    `the document changed (the page navigated${commit?.url ? ` to ${commit.url}` : ''}) ` +
      `after '${selector}' was found and before the ${method} reached it; the ${method} was not performed on that element`,
    { page, ...(commit?.url ? { url: commit.url } : {}) },
  );
}

/**
 * Run trusted input and, when it starts a navigation (a link, a submit, a script), return
 * once the new document has loaded (or at the deadline).
 */
export async function withNavigationWait(port: BrowserPort, page: number, timeoutMs: number, fn: () => Promise<void>): Promise<void> {
  const cdp = await port.cdp(page);
  const deadline = Date.now() + timeoutMs;
  const navigating = new Set<string>();
  const off = cdp.on('Page.frameRequestedNavigation', (e: { frameId: string }) => navigating.add(e.frameId));
  try {
    await fn();
    await cdp.send('Runtime.evaluate', { expression: '0' }).catch(() => undefined);
  } finally {
    off();
  }
  if (navigating.size) await waitForLoads(port, page, cdp, navigating, Math.max(0, deadline - Date.now()));
}

/** Wait until frames that were asked to navigate stop loading; a page still loading at the deadline is left to load. */
async function waitForLoads(port: BrowserPort, page: number, cdp: CdpSession, frames: Set<string>, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  throwIfCancelled(signal);
  await new Promise<void>((resolve) => {
    signal?.addEventListener('abort', done, { once: true });
    const timer = setTimeout(done, timeoutMs);
    const off = cdp.on('Page.frameStoppedLoading', (e: { frameId: string }) => {
      frames.delete(e.frameId);
      if (!frames.size) done();
    });
    // The tabs API as well: when a navigation swaps the document's process, the debugger may
    // not see the new document's events, but the tab's status still says when it has loaded.
    let sawLoading = false;
    let idle = 0;
    const poll = setInterval(() => {
      void port.isLoading(page).then((loading) => {
        if (loading) sawLoading = true;
        idle = loading ? 0 : idle + 1;
        if ((sawLoading && idle >= 1) || idle >= 20) done();
      });
    }, 50);
    function done() {
      clearTimeout(timer);
      clearInterval(poll);
      off();
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
  throwIfCancelled(signal);
}

/** How long a press waits for its target to be under the pointer again after the pointer came to it. */
const HOVER_SETTLE_MS = 600;

/**
 * The pointer comes to the element first; when that hover swaps what is under it (a picture set by `:hover` still
 * loading leaves the element empty for a moment), the press waits for the element to be there again, so it is not lost
 * on the box around it. A point that did not hit the element before the hover (a hit the actionability check allowed
 * on the element's label or host) is left as it was. Whether the point hit the element before the hover (null: unknown).
 */
async function hoverSettled(port: BrowserPort, page: number, p: Prepared, input: Input, signal?: AbortSignal): Promise<boolean | null> {
  const hits = () =>
    op(port, page, p, 'hitsAt', [String(p.local.x), String(p.local.y)]).then(
      // An answer that is no yes or no is the page not saying.
      (r) => (typeof r.value === 'boolean' ? r.value : null),
      () => null,
    );
  // Off it (false), or the page cannot say (null).
  const first = await hits();
  if (first !== true) return first;
  await input.move(p.x, p.y);
  const until = Date.now() + HOVER_SETTLE_MS;
  while ((await hits()) === false && Date.now() < until) await cancellableSleep(40, signal);
  return true;
}

/** What the watched press did; null when the page cannot say (its document went away: it navigated). */
async function pressSeen(port: BrowserPort, page: number, p: Prepared): Promise<PressSeen | null> {
  return op(port, page, p, 'pressSeen').then(
    (r) => r.value as PressSeen,
    () => null,
  );
}

/** The error for a press that did not click the element: never a click reported done. */
function missedPress(p: Prepared, target: ActTarget, seen: PressSeen): DeckhandError {
  const where = `the press at (${Math.round(p.x)}, ${Math.round(p.y)}) did not click '${target.selector ?? p.description}'`;
  return new DeckhandError(
    ErrorCode.ActionFailed,
    seen.pressedIt
      ? `${where}: the page drew it again between the press and the release, so no click followed (a page that acts on the press alone may have taken it)`
      : `${where}${seen.on ? `: it went to ${seen.on}` : ''}; the page redrew what was under the pointer as it pressed`,
  );
}

/**
 * A click, and where its press went. When the point was on the element, a press that did not click it is an error; one
 * that went to a box holding it or to something that is no control (the page moved it as the pointer came) is tried
 * once more where the element is now, found again by `again`. One that reached it with no click following is not: the
 * page may have taken the press.
 */
async function clickWatched(
  port: BrowserPort,
  page: number,
  target: ActTarget,
  p: Prepared,
  input: Input,
  again: (() => Promise<Prepared>) | undefined,
  signal?: AbortSignal,
): Promise<void> {
  for (let at = p, tries = 0; ; tries++) {
    // Where the press went is watched only when the point was on the element itself.
    const onIt = await hoverSettled(port, page, at, input, signal);
    if (onIt === false && tries === 0 && again) {
      // Off the element now: it moved since it was found (a section above it sliding shut), or the check allowed a hit on
      // its label or host. Found again: a new point is where it went; the same point is the label's.
      const fresh = await again();
      if (fresh.x !== at.x || fresh.y !== at.y) {
        at = fresh;
        continue;
      }
    }
    const watched =
      onIt === true &&
      (await op(port, page, at, 'watchPress').then(
        () => true,
        () => false,
      ));
    await input.click(at.x, at.y);
    const seen = watched ? await pressSeen(port, page, at) : null;
    if (!seen?.missed) return;
    if (!seen.inert || tries > 0 || !again) throw missedPress(at, target, seen);
    at = await again();
  }
}

async function op(port: BrowserPort, page: number, p: Prepared, name: string, args: string[] = []): Promise<OpResult & { ok: true }> {
  const r = await port.frameRequest<OpResult>(page, p.frameId, { type: 'dh:op', handle: p.handle, op: name, args }, 5000);
  if (!r.ok) throw new DeckhandError(r.code as ErrorCode, r.message);
  return r;
}

async function execute(
  port: BrowserPort,
  page: number,
  target: ActTarget,
  p: Prepared,
  method: ActMethod,
  args: string[],
  timeoutMs: number,
  signal?: AbortSignal,
  again?: () => Promise<Prepared>,
): Promise<void> {
  const input = new Input(await port.cdp(page));
  switch (method) {
    case 'click':
      return clickWatched(port, page, target, p, input, again, signal);
    case 'doubleClick':
      return input.click(p.x, p.y, { clickCount: 2 });
    case 'rightClick':
      return input.click(p.x, p.y, { button: 'right' });
    case 'hover':
      return input.move(p.x, p.y);
    case 'fill': {
      const r = await op(port, page, p, 'focusSelect', [args[0]]);
      // A value as long as the run of one-character boxes the field starts (a one-time code): a character a box.
      // A text of several lines into a one-line field (which would drop the breaks): its lines run on, a space between.
      // Breaks at the value's ends go; those inside become spaces, so no two words run together.
      const value = r.oneLine ? args[0].replace(/^[\r\n]+|[\r\n]+$/g, '').replace(/[^\S\r\n]*[\r\n]+\s*/g, ' ') : args[0];
      const chars = [...value];
      if (r.mode === 'insertText' && chars.length > 1 && r.value === chars.length) {
        for (const [i, c] of chars.entries()) {
          throwIfCancelled(signal);
          await op(port, page, p, 'focusRunBox', [String(i)]);
          await input.insertText(c);
        }
        return;
      }
      if (r.mode === 'insertText') {
        if (value === '') await input.press('Delete');
        else await input.insertText(value);
      }
      return;
    }
    case 'type':
      await op(port, page, p, 'focusEnd');
      return input.type(args[0]);
    case 'press':
      await op(port, page, p, 'focus');
      return input.press(args[0]);
    case 'selectOption': {
      const choices = (await op(port, page, p, 'choices')).value as Choices;
      if (choices.native) await op(port, page, p, 'selectOption', args);
      else if (args.length > 1) throw new DeckhandError(ErrorCode.InvalidArgument, 'a select built from elements takes one option at a time');
      else await chooseOption({ port, page, target, prepared: p, input, timeoutMs, signal }, (name, a) => op(port, page, p, name, a), args[0]);
      return;
    }
    case 'check':
    case 'uncheck': {
      const want = method === 'check';
      const before = (await op(port, page, p, 'state')).state;
      if (before?.checked === undefined) {
        throw new DeckhandError(ErrorCode.ActionFailed, `${method} needs a checkbox, radio or an element with aria-checked; got <${before?.tag}>`);
      }
      if (before.checked === want) return;
      if (!want && before.type === 'radio') {
        throw new DeckhandError(ErrorCode.ActionFailed, 'a radio button cannot be unchecked by clicking it; check another option instead');
      }
      await input.click(p.x, p.y);
      // A component may show its new state a frame or two later (Ionic's toggle): wait briefly for it.
      let after = (await op(port, page, p, 'state')).state;
      for (let i = 0; i < 10 && after?.checked !== want; i++) {
        await new Promise((r) => setTimeout(r, 50));
        throwIfCancelled(signal);
        after = (await op(port, page, p, 'state')).state;
      }
      if (after?.checked !== want) throw new DeckhandError(ErrorCode.ActionFailed, `clicking did not ${method} the element (the page may prevent it)`);
      return;
    }
    case 'scrollTo':
      await op(port, page, p, 'scrollTo', [needArg(method, args, 'a percentage such as 50%'), ...args.slice(1, 2)]);
      return;
    case 'scrollIntoView':
      await op(port, page, p, 'scrollIntoView');
      return;
    case 'focus':
      await op(port, page, p, 'focus');
      return;
    case 'selectText':
      await op(port, page, p, 'selectText', [args[0]]);
      return;
    case 'nextChunk':
    case 'prevChunk':
      await op(port, page, p, 'scrollChunk', [method === 'nextChunk' ? 'down' : 'up']);
      return;
    case 'dragAndDrop': {
      const to = await prepareTarget(port, page, { selector: args[0] }, 'hover', { timeoutMs, pointer: false, requireEnabled: false, signal });
      return input.drag({ x: p.x, y: p.y }, { x: to.x, y: to.y });
    }
  }
}

/** How far past the viewport's edge a drag may not go: the pointer stays this many pixels inside. */
const EDGE = 2;

/**
 * A real pointer drag of an element by an offset (press on it, move in steps, release), the
 * end kept inside the viewport: what "drag the circle left" or "drag item 3 to the top" needs.
 * `to` instead of an offset: the point to release at.
 */
export async function dragBy(
  port: BrowserPort,
  page: number,
  target: ActTarget,
  move: { dx: number; dy: number } | { to: { x: number; y: number } },
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ element: string; from: { x: number; y: number }; to: { x: number; y: number } }> {
  const p = await prepareTarget(port, page, target, 'dragAndDrop', { timeoutMs, pointer: true, requireEnabled: false, signal });
  // A drag the engine makes itself asks the call's gate as performAction's drags do.
  await askGate(port, page, 'dragAndDrop', await riskFacts(port, page, p), p.description, signal);
  throwIfCancelled(signal);
  const cdp = await port.cdp(page);
  actedOn(page, cdp);
  const m = await cdp.send<{ cssLayoutViewport: { clientWidth: number; clientHeight: number } }>('Page.getLayoutMetrics');
  const w = m.cssLayoutViewport.clientWidth;
  const h = m.cssLayoutViewport.clientHeight;
  const want = 'to' in move ? move.to : { x: p.x + move.dx, y: p.y + move.dy };
  const to = { x: Math.min(w - EDGE, Math.max(EDGE, want.x)), y: Math.min(h - EDGE, Math.max(EDGE, want.y)) };
  await raceCancel(new Input(cdp).drag({ x: p.x, y: p.y }, to), signal);
  return { element: p.description, from: { x: p.x, y: p.y }, to };
}

/** How far inside its bottom-right corner an element's resize grip is grabbed. */
const GRIP = 4;
/**
 * Resize an element as a person does: a pointer drag of its grip by an offset. Only an element the page lets be resized
 * (a text area, a box styled `resize`: its corner grip; a box with grips a script drew on its edges); its size before
 * and after.
 */
export async function resizeBy(
  port: BrowserPort,
  page: number,
  target: ActTarget,
  dx: number,
  dy: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ element: string; before: Size; after: Size }> {
  const p = await prepareTarget(port, page, target, 'dragAndDrop', { timeoutMs, pointer: true, requireEnabled: false, signal });
  const box = async () => (await op(port, page, p, 'box')).value as Size & { resize: string; grips?: ResizeGrips };
  const before = await box();
  // A grip a script drew: the corner when both sides change, else the edge that moves (the corner does as well).
  const g = before.grips;
  const drawn = dx && dy ? g?.corner : dy ? (g?.bottom ?? g?.corner) : (g?.right ?? g?.corner);
  if (before.resize === 'none' && !drawn) throw new DeckhandError('ACTION_FAILED', `${p.description} cannot be resized: the page gives it no resize grip`);
  await askGate(port, page, 'dragAndDrop', await riskFacts(port, page, p), p.description, signal);
  throwIfCancelled(signal);
  const cdp = await port.cdp(page);
  actedOn(page, cdp);
  const m = await cdp.send<{ cssLayoutViewport: { clientWidth: number; clientHeight: number } }>('Page.getLayoutMetrics');
  // A grip is read in its frame's viewport: the frame's offset is what lies between the two readings of the element's point.
  const from = drawn ? { x: p.x - p.local.x + drawn.x, y: p.y - p.local.y + drawn.y } : { x: p.x + before.width / 2 - GRIP, y: p.y + before.height / 2 - GRIP };
  const to = {
    x: Math.min(m.cssLayoutViewport.clientWidth - EDGE, Math.max(EDGE, from.x + dx)),
    y: Math.min(m.cssLayoutViewport.clientHeight - EDGE, Math.max(EDGE, from.y + dy)),
  };
  await raceCancel(new Input(cdp).drag(from, to), signal);
  const after = await box();
  return { element: p.description, before: { width: before.width, height: before.height }, after: { width: after.width, height: after.height } };
}

/** The shapes an element draws (an SVG the page takes clicks on), or the small marks inside it, read where they are now. */
export async function shapesIn(
  port: BrowserPort,
  page: number,
  target: ActTarget,
  timeoutMs: number,
  signal?: AbortSignal,
  marks = false,
): Promise<{ element: string } & DrawnShapes> {
  const p = await prepareTarget(port, page, target, 'hover', { timeoutMs, pointer: false, requireEnabled: false, signal });
  const v = (await op(port, page, p, 'shapes', marks ? ['marks'] : [])).value as DrawnShapes;
  return { element: p.description, ...v };
}

/**
 * An element made ready for the pointer at points inside it (offsets from its top-left corner): each point checked to be
 * inside it, then the call's gate asked. A point names no element to read first, so under an approval policy it waits
 * for every kind the policy names, as the agent's clicks at a point do. A point outside fails, doing nothing.
 */
async function pointsInside(
  port: BrowserPort,
  page: number,
  target: ActTarget,
  method: 'click' | 'dragAndDrop',
  points: { x: number; y: number }[],
  what: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ p: Prepared; corner: { x: number; y: number }; input: Input }> {
  const p = await prepareTarget(port, page, target, method, { timeoutMs, pointer: true, requireEnabled: false, signal });
  const box = (await op(port, page, p, 'box')).value as Size;
  for (const at of points) {
    if (!(at.x >= 0 && at.y >= 0 && at.x <= box.width && at.y <= box.height)) {
      throw new DeckhandError('ACTION_FAILED', `the point (${at.x}, ${at.y}) is outside ${p.description} (${box.width} × ${box.height}); nothing was done`);
    }
  }
  await askGate(port, page, method, null, `${what} inside ${p.description}`, signal);
  throwIfCancelled(signal);
  const cdp = await port.cdp(page);
  actedOn(page, cdp);
  return { p, corner: { x: p.x - box.width / 2, y: p.y - box.height / 2 }, input: new Input(cdp) };
}

/** The call's gate asked about a pointer action the engine makes itself (not through performAction). */
async function askGate(port: BrowserPort, page: number, method: string, facts: RiskFacts | null, element: string, signal?: AbortSignal): Promise<void> {
  const gate = gateOf(signal);
  if (!gate || !gate.gates(method)) return;
  const pageUrl = (await port.pageInfo(page)).url;
  await gate.check({ method, args: [], pageUrl, facts, element }, signal);
}

/** Click a point inside an element (an offset from its top-left corner), as a person's pointer would: for a drawing that takes clicks where they land. */
export async function clickInside(
  port: BrowserPort,
  page: number,
  target: ActTarget,
  at: { x: number; y: number },
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ element: string; point: { x: number; y: number } }> {
  const { p, corner, input } = await pointsInside(port, page, target, 'click', [at], `the point (${at.x}, ${at.y})`, timeoutMs, signal);
  const point = { x: corner.x + at.x, y: corner.y + at.y };
  await raceCancel(input.click(point.x, point.y), signal);
  return { element: p.description, point };
}

/** A stroke of the pointer through points inside an element (offsets from its top-left corner), as a person draws on a drawing that takes strokes. */
export async function strokeInside(
  port: BrowserPort,
  page: number,
  target: ActTarget,
  points: { x: number; y: number }[],
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ element: string }> {
  if (points.length < 2) throw new DeckhandError('INVALID_ARGUMENT', 'a stroke needs at least two points');
  const [a, b] = [points[0]!, points.at(-1)!];
  const what = `a stroke of ${points.length} points from (${a.x}, ${a.y}) to (${b.x}, ${b.y})`;
  const { p, corner, input } = await pointsInside(port, page, target, 'dragAndDrop', points, what, timeoutMs, signal);
  await raceCancel(input.stroke(points.map((q) => ({ x: corner.x + q.x, y: corner.y + q.y }))), signal);
  return { element: p.description };
}

/**
 * Press and hold an element, as a person holds a button down for a time ("hold the button for 3 seconds"): asked of the
 * call's gate as a click on it is; the button is released after `ms`, or at once when the call is cancelled.
 */
export async function holdOn(
  port: BrowserPort,
  page: number,
  target: ActTarget,
  ms: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ element: string; heldMs: number }> {
  if (!(ms > 0 && ms <= MAX_TIMEOUT_MS)) throw new DeckhandError('INVALID_ARGUMENT', `a hold lasts more than 0 and at most ${MAX_TIMEOUT_MS} ms; got ${ms}`);
  const p = await prepareTarget(port, page, target, 'click', { timeoutMs, pointer: true, requireEnabled: true, signal });
  await askGate(port, page, 'click', await riskFacts(port, page, p), p.description, signal);
  throwIfCancelled(signal);
  const cdp = await port.cdp(page);
  actedOn(page, cdp);
  const started = Date.now();
  await new Input(cdp).hold(p.x, p.y, ms, signal);
  throwIfCancelled(signal);
  return { element: p.description, heldMs: Date.now() - started };
}

/** Where an element that moves by design is on the screen at this moment (its centre), without waiting for it to keep still. */
export async function pointNow(port: BrowserPort, page: number, target: ActTarget, timeoutMs: number, signal?: AbortSignal): Promise<{ x: number; y: number }> {
  const p = await prepareTarget(port, page, target, 'hover', { timeoutMs, pointer: false, requireEnabled: false, reveal: false, moving: true, signal });
  return { x: p.x, y: p.y };
}

/**
 * Click an element that moves by design (a moving target) where it is at that moment: asked of the call's gate as a click
 * on it is, then found again and clicked at once, so the point is as fresh as the page can give it.
 */
export async function clickMoving(
  port: BrowserPort,
  page: number,
  target: ActTarget,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ element: string; point: { x: number; y: number } }> {
  const opts = { timeoutMs, pointer: true, requireEnabled: true, reveal: false, moving: true, signal };
  const first = await prepareTarget(port, page, target, 'click', opts);
  await askGate(port, page, 'click', await riskFacts(port, page, first), first.description, signal);
  throwIfCancelled(signal);
  const cdp = await port.cdp(page);
  actedOn(page, cdp);
  const p = await prepareTarget(port, page, target, 'click', opts);
  await raceCancel(new Input(cdp).click(p.x, p.y), signal);
  return { element: p.description, point: { x: p.x, y: p.y } };
}

/** Where an element is on the screen now (its centre), scrolled into view. */
export async function pointOf(port: BrowserPort, page: number, target: ActTarget, timeoutMs: number, signal?: AbortSignal): Promise<{ x: number; y: number }> {
  const p = await prepareTarget(port, page, target, 'hover', { timeoutMs, pointer: false, requireEnabled: false, signal });
  return { x: p.x, y: p.y };
}

/** Where an element's point is in the viewport and how big its box is, once it can be pointed at. */
export async function boxOf(
  port: BrowserPort,
  page: number,
  target: ActTarget,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ x: number; y: number } & Size> {
  const p = await prepareTarget(port, page, target, 'hover', { timeoutMs, pointer: false, requireEnabled: false, signal });
  const { width, height } = (await op(port, page, p, 'box')).value as Size;
  return { x: p.x, y: p.y, width, height };
}

/** What acting on the prepared element may set off (for approval); null when the page cannot say. */
async function riskFacts(port: BrowserPort, page: number, prepared: Prepared): Promise<RiskFacts | null> {
  const r = await port.frameRequest<OpResult>(page, prepared.frameId, { type: 'dh:op', handle: prepared.handle, op: 'risk', args: [] }, 3000).catch(() => null);
  const facts = r?.ok ? RiskFactsSchema.safeParse(r.value) : null;
  return facts?.success ? facts.data : null;
}

/** An element's description (describeElement) without its classes, which hover and focus may change. */
const withoutClasses = (d: string) => d.replace(/^<([^\s>]*?)((?:#[^.>\s]*)?)(?:\.[^>\s]*)?>/, '<$1$2>');
