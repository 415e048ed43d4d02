/**
 * The agent with the built-in model: the instruction is planned into single steps
 * (models/local/plan/), each step is grounded on the page as it is when its turn comes and
 * run through the same single-step act as `act`, and the run stops at the first step it
 * cannot ground or that fails, saying what it did and what was beyond it. Before anything
 * runs, every step is grounded on the page as it is: a step that cannot be grounded, with
 * nothing before it that could change the page, ends the run with nothing done, so a form is
 * never half filled and submitted. A step that may be hidden ("switch between the tabs to
 * find ...") reveals collapsed sections and other tabs one at a time until it grounds. The
 * page is read, and each step done, through the engine's StepRunner (step-runner.ts).
 */
import { clip, quote } from '../../../protocol/text';
import { Refusal } from '../act';
import { mentionsNamedDate } from '../values';
import { ITEM_CONTROL_ROLES } from '../items';
import { SAID_ROLES, type OutlineNode } from '../outline';
import { planInstruction, quoteValue, WAIT_MAX_MS, type PlanPage, type PlanStep } from '../plan';
import { numberOf, parseDate } from '../refs';
import { secretSought } from '../secrets';
import { FORM_SENT_SAID } from '../words/controls';
import { HANDED_OVER } from '../words/answers';
import type { StepRunner } from '../step-runner';
import { shownResults, tripFields, tripResult } from '../trips';
import { anyOf } from '../words/grammar';
import { fieldControl, findRecord } from '../records';
import { TEXT_ROLES, CHECKABLE, type View, look, type Clock, ground, withValue, namesOf, describeStep, actOnNode, type Run, pause } from './run';
import { reveals, WHOLE_STEPS, READY_CHECKS } from './steps';
import {
  setField,
  fieldLabel,
  NO_OPTION,
  isPlainOpener,
  chooseFromPlainList,
  plainPicker,
  pickDate,
  plainSlider,
  slideTo,
  spinTo,
  suggestionFor,
  pickSuggestion,
} from './pickers';
import { revealers, reveal, expandSection } from './finding';
import { menuLike, pathEnd, notInMenu, menuFindStep, submenuItem, HOVER_LATE_LOOKS } from './menus';
import { searchFields, resultsOf, nextPageOf, clickRecordField, clickResult } from './search';
import { dragStep } from './drags';
import { openSite, otherPage } from './secrets';
import { interruption, closeDialog } from './dialogs';
import { eachTargets, moreOf, itemToOpen, leavingLinks, named } from './lists';
import { coversFor, eachOrDeck, faceDownCards, spotsOf, turnPick } from './face-down';
import { WATCH_EVERY_MS, holds, conditionUnread, watch } from './watch';

export interface PlannedOutcome {
  success: boolean;
  message: string;
  /** Compute spent planning and grounding steps (the act steps report their own). */
  planningMs: number;
}

/** Whether the page shows a target it did not show before. */
const shows = (nodes: OutlineNode[], before: Set<string>): boolean => nodes.some((n) => n.id && !before.has(`${n.role}|${n.name}`));

/** Only the step's own words, no other phrasings: a control named but hidden is looked for before a synonym stands in. */
const primary = (s: PlanStep): PlanStep => ({ ...s, or: undefined });

function pageFacts(nodes: OutlineNode[]): Required<PlanPage> {
  const fields: string[] = [];
  const names: string[] = [];
  const roles: Record<string, number> = {};
  for (const n of nodes) {
    if (!n.id) continue;
    roles[n.role] = (roles[n.role] ?? 0) + 1;
    if (TEXT_ROLES.has(n.role)) {
      const label = fieldLabel(n);
      if (label) fields.push(label);
      if (typeof n.states.placeholder === 'string') fields.push(n.states.placeholder);
    } else if (n.name) names.push(n.name);
  }
  return { fields, names, roles };
}

/** Methods that set a value a form may hand in. */
const SETS_VALUE = new Set(['fill', 'type', 'selectOption', 'check', 'uncheck', 'dragAndDrop']);
/** Words that say how a form goes in (or that it must not). */
const SENDING_WORDS = anyOf(FORM_SENT_SAID);

export async function runPlanned(run: StepRunner): Promise<PlannedOutcome> {
  const clock: Clock = { ms: 0, facts: mentionsNamedDate(run.instruction) ? { today: await run.today() } : {} };
  const out = await runPlan({ ...run, clock });
  return { ...out, planningMs: Math.round(clock.ms * 1000) / 1000 };
}

/** How long a page that refuses a step at first is given to finish drawing itself before one more look. */
const LATE_PAGE_MS = 600;
/** Keys that select everything in a field or editor, and how long the page is given to take the selection in. */
const SELECT_ALL_KEYS = /^(?:Control|Meta)\+a$/i;
const SELECTION_SETTLE_MS = 300;

async function runPlan(r: Run): Promise<Omit<PlannedOutcome, 'planningMs'>> {
  let view = await look(r, r.instruction);
  // A task that names its page ("You must go to <address> and obtain the password") goes there first when another is open.
  const site = secretSought(r.instruction)?.url;
  let went: string | null = null;
  if (site && otherPage(site, view.url)) {
    const opened = await openSite(r, site, view.url);
    if (typeof opened === 'string') return { success: false, message: `${opened}; nothing was done` };
    view = opened;
    went = `opened ${view.url}`;
  }
  const nothing = went ? `nothing was done but ${went}` : 'nothing was done';
  let first = view;
  r.first = first;
  const effects = r.effects;
  let plan: PlanStep[];
  const t0 = performance.now();
  try {
    plan = planInstruction(r.instruction, pageFacts(view.nodes));
    r.clock.ms += performance.now() - t0;
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    const message = `the built-in model could not plan ${quote(r.instruction)}: ${e.message}; ${nothing} (configure a model for tasks like this)`;
    return { success: false, message };
  }
  if (plan.length > r.maxSteps) {
    return { success: false, message: `the plan has ${plan.length} steps, more than maxSteps (${r.maxSteps}); ${nothing}` };
  }
  // Step texts come from the caller's instruction: bounded, as every echo of caller input is.
  const listing = clip(plan.map((s, i) => `${i + 1}. ${clip(s.say, 160)}`).join('; '), 1200);
  /** A step refused before anything was done. */
  const beyond = (i: number, say: string, why: string) => ({
    success: false,
    message: `${describeStep(i, plan.length, quote(say))} is beyond the built-in model on this page (${why}); ${nothing}. Plan: ${listing}`,
  });
  // A task that names its page ("You must go to <address> and obtain the password") runs only there.
  const sited = plan.findIndex((p) => p.secret?.url ?? p.reveal?.url);
  const away = sited >= 0 ? otherPage((plan[sited]!.secret?.url ?? plan[sited]!.reveal?.url)!, view.url) : null;
  if (away) return beyond(sited, plan[sited]!.say, away);
  // Every step grounded on the page as it is now. A step that does not ground, with only steps
  // before it that cannot change what the page shows (text typed into plain fields), will not
  // ground later either: refuse before anything is done.
  const precheck = (view: View): Omit<PlannedOutcome, 'planningMs'> | null => {
    let mayChange = false;
    for (const [i, planned] of plan.entries()) {
      if (planned.wait !== undefined) continue;
      const check = READY_CHECKS.find(([kind]) => planned[kind] !== undefined);
      if (check) {
        const [, why, after] = check;
        if (after === 'changes' && mayChange) break;
        const t0 = performance.now();
        const problem = why(planned, view.nodes, r.clock);
        r.clock.ms += performance.now() - t0;
        if (problem) return beyond(i, planned.say, problem);
        if (after === 'runs on') break;
        mayChange = true;
        continue;
      }
      if (planned.tripResult) break;
      if (planned.each || planned.openItem !== undefined) {
        if (mayChange) break;
        const t0 = performance.now();
        const set = planned.each ? eachOrDeck(planned.each, view.nodes) : itemToOpen(planned.openItem!, view.nodes);
        r.clock.ms += performance.now() - t0;
        // One item whose control shows only once it is open: opening it is the way there.
        const opens =
          planned.each?.one &&
          typeof set === 'string' &&
          (typeof itemToOpen(planned.each.by!, view.nodes) !== 'string' || moreOf(planned.each, view.nodes) !== null);
        const leaves = Array.isArray(set) ? leavingLinks(set, view.url) : null;
        if ((typeof set === 'string' && !opens) || leaves) return beyond(i, planned.say, String(leaves ?? set));
        mayChange = true;
        continue;
      }
      if (planned.when && !mayChange) {
        const unread = conditionUnread(planned.when, view.nodes);
        if (unread) {
          const depends = `${describeStep(i, plan.length, quote(planned.say))} depends on ${quote(planned.when.text)}, and ${unread}`;
          return { success: false, message: `${depends}; nothing was done. Plan: ${listing}` };
        }
      }
      if (planned.otherwise !== undefined && !mayChange) {
        // Either side may be the one taken: both must be there.
        const other = ground({ say: planned.otherwise }, view.nodes, r.clock);
        if ('why' in other) return beyond(i, planned.otherwise, other.why);
      }
      if (planned.expand || planned.opens) {
        // Opening a section or a menu changes what the page shows: the steps after it are grounded when their turn comes.
        mayChange = true;
        if (planned.expand) continue;
      }
      const valued = withValue(planned, view.nodes, r.instruction, r.clock);
      if ('why' in valued) {
        if (!mayChange) return beyond(i, planned.say, valued.why);
        break;
      }
      const s = valued.step;
      if (s.suggestion !== undefined) {
        if (mayChange) break;
        continue;
      }
      if (s.result !== undefined) {
        // The results of a search the plan has not run yet: known only then.
        if (mayChange) break;
        if (!resultsOf(view.nodes).length) return beyond(i, s.say, 'it shows no list of results');
        continue;
      }
      if (s.record) {
        // The person may be on a later page: known only when the pages are turned.
        if (mayChange) break;
        const found = findRecord(view.nodes, s.record.who);
        if (found && 'why' in found) return beyond(i, s.say, found.why);
        if (found) {
          const c = fieldControl(found.lines, s.record.field);
          if ('why' in c) return beyond(i, s.say, c.why);
        } else if (!nextPageOf(view.nodes)) return beyond(i, s.say, `no record on the page is named ${quote(s.record.who)}`);
        break;
      }
      const g = ground(s, view.nodes, r.clock);
      if ('why' in g) {
        // A drop-down of plain elements shows its options once its opener is clicked: known then.
        if (NO_OPTION.test(g.why) && plainPicker(s.say, view.nodes)) break;
        // A slider drawn without ARIA is moved by its keys (slideTo).
        if (plainSlider(s.say, view.nodes)) {
          mayChange = true;
          continue;
        }
        // An item named that a submenu of the menu shown may hold is looked for when its turn comes.
        if (!mayChange && !s.search && (g.tied || !submenuItem(s.say, view.nodes))) {
          return beyond(i, s.say, g.why);
        }
        // From here on the page may differ: ground the rest when their turn comes.
        break;
      }
      if (reveals(g.pick, s) || planned.opens) mayChange = true;
    }

    return null;
  };
  let refused = precheck(view);
  // A page still drawing itself (an app that renders after it loads, frames that load inside frames) may show what a
  // step needs a moment later: one more look once it settles, before refusing.
  if (refused) {
    await pause(LATE_PAGE_MS, r.signal);
    await r.settle();
    const again = await look(r, r.instruction);
    if (again.text !== view.text) {
      view = first = r.first = again;
      refused = precheck(view);
    }
  }
  if (refused) return refused;

  const done: string[] = went ? [went] : [];
  let lastFill = false;
  // Collapsed sections an "expand the section" step left for the next step to look through.
  let foldedToOpen = 0;
  // Whether the run's last steps set values (typed, chose, checked, dragged) with no click after them.
  let setLast = false;
  /** The element the last step acted on, as a quoted name (a hovered menu item that may need a click). */
  let lastTarget: string | null = null;
  /** What the page showed before a menu item was hovered: whether hovering brought up anything. */
  let beforeOpen: Set<string> | null = null;
  /** The last step hovered a menu item to open it. */
  let lastOpened = false;
  /** Options chosen so far in each multiple-choice list, by its name. */
  const chosen = new Map<string, string[]>();
  /** What the page offered to book before the trip's search ran. */
  let offeredBefore: Set<string> | undefined;
  const stop = (i: number, why: string) => {
    const before = done.length ? `did ${done.length} of ${plan.length} steps (${clip(done.join('; '), 1200)}), then ` : '';
    const after = i + 1 < plan.length ? `The steps after it were not run. ` : '';
    const step = describeStep(i, plan.length, quote(plan[i].say));
    return { success: false, message: `${before}${step} was beyond the built-in model: ${why}. ${after}Plan: ${listing}` };
  };
  for (const [i, planned] of plan.entries()) {
    if (r.signal.aborted) return { success: false, message: `cancelled after ${done.length} of ${plan.length} steps` };
    const foldedLeft = foldedToOpen;
    foldedToOpen = 0;
    if (i > 0) {
      // What the last step started (an animation, a request) has finished before this one reads the page.
      await r.settle();
      view = await look(r, r.instruction);
    }
    if (planned.expand) {
      const out = await expandSection(r, planned, i, plan.length, () => view);
      if (out.why) return stop(i, out.why);
      done.push(out.did!);
      foldedToOpen = out.several ?? 0;
      continue;
    }
    if (planned.wait !== undefined) {
      await pause(Math.min(planned.wait, WAIT_MAX_MS), r.signal);
      done.push(planned.say);
      continue;
    }
    if (planned.searchForm !== undefined) {
      const f = searchFields(planned.searchForm, view.nodes);
      if (typeof f === 'string') return stop(i, f);
      for (const x of f.fill) {
        try {
          const why = await setField(r, x, describeStep(i, plan.length, `${fieldLabel(x.node)}: ${x.value}`), view);
          if (why) return stop(i, why);
        } catch (e) {
          if (r.endsRun(e)) throw e; // stopped or unanswered approval: the run ends refused
          return stop(i, (e as Error).message);
        }
      }
      const submitted = await actOnNode(r, f.submit, 'click', [], `click ${quote(f.submit.name)}`, describeStep(i, plan.length, 'run the search'), view.url);
      if (!submitted) return stop(i, 'the search button went away');
      done.push(`searched with ${f.fill.map((x) => `${fieldLabel(x.node)} ${quote(x.value)}`).join(', ')}`);
      continue;
    }
    if (planned.trip) {
      const f = tripFields(planned.trip, view.nodes);
      if (typeof f === 'string') return stop(i, f);
      offeredBefore = shownResults(view.nodes);
      const step = describeStep(i, plan.length, planned.say);
      try {
        if (f.way && !(await actOnNode(r, f.way, 'click', [], `click ${quote(f.way.name)}`, step, view.url))) return stop(i, 'the trip choice went away');
        for (const x of f.fill) {
          const why = await setField(r, x, step, view);
          if (why) return stop(i, why);
        }
        if (!(await actOnNode(r, f.submit, 'click', [], `click ${quote(f.submit.name)}`, step, view.url))) return stop(i, 'the search button went away');
      } catch (e) {
        if (r.endsRun(e)) throw e;
        return stop(i, (e as Error).message);
      }
      done.push(`searched ${f.fill.map((x) => `${fieldLabel(x.node)} ${quote(x.value)}`).join(', ')}`);
      continue;
    }
    if (planned.tripResult) {
      const res = tripResult(planned.tripResult.order, view.nodes, offeredBefore);
      if (typeof res === 'string') return stop(i, res);
      if (planned.tripResult.look) {
        done.push(`found ${quote(clip(res.text, 160))}`);
        continue;
      }
      try {
        const step = describeStep(i, plan.length, planned.say);
        if ((await actOnNode(r, res.control, 'click', [], `click ${quote(res.control.name)}`, step, view.url)) === null) return stop(i, 'the result went away');
      } catch (e) {
        if (r.endsRun(e)) throw e;
        return stop(i, (e as Error).message);
      }
      done.push(`${quote(res.control.name)} on ${quote(clip(res.text, 160))}`);
      continue;
    }
    if (planned.drag) {
      const out = await dragStep(r, planned, view, describeStep(i, plan.length, planned.say));
      if ('why' in out) return stop(i, out.why);
      done.push(out.did);
      continue;
    }
    // A step carried out whole, with its own looks and moves (a set of drags, a resize, a guess, a game, a sort).
    const whole = WHOLE_STEPS.find(([kind]) => planned[kind] !== undefined);
    if (whole) {
      const out = await whole[1](
        r,
        planned,
        describeStep(i, plan.length, planned.say),
        () => view,
        (v) => (view = v),
      );
      if ('why' in out) return stop(i, out.why);
      done.push(out.did);
      setLast = planned.sort !== undefined;
      continue;
    }
    if (planned.openItem !== undefined) {
      const item = itemToOpen(planned.openItem, view.nodes);
      if (typeof item === 'string') return stop(i, item);
      const opened = await actOnNode(r, item, 'click', [], planned.say, describeStep(i, plan.length, `open ${quote(clip(item.name, 60))}`), view.url);
      if (!opened) return stop(i, 'the item went away');
      done.push(`opened ${quote(clip(item.name || item.role, 60))}`);
      continue;
    }
    if (planned.each?.turn && Array.isArray(faceDownCards(view.nodes))) {
      const out = await turnPick(
        r,
        planned.each,
        describeStep(i, plan.length, planned.say),
        () => view,
        (v) => (view = v),
      );
      if ('why' in out) return stop(i, out.why);
      done.push(out.did);
      continue;
    }
    if (planned.each) {
      const t0 = performance.now();
      let set = eachTargets(planned.each, view.nodes);
      r.clock.ms += performance.now() - t0;
      const more = typeof set === 'string' ? moreOf(planned.each, view.nodes) : null;
      if (more) {
        // "Mute" on a post whose row shows only More: its menu, then the one control of that name it shows.
        const why = describeStep(i, plan.length, `open the item's menu to find its ${quote(planned.each.verb!)} control`);
        if (!(await actOnNode(r, more, 'click', [], `click ${quote(more.name)}`, why, view.url))) return stop(i, 'the menu went away');
        await r.settle();
        view = await look(r, r.instruction);
        const each = planned.each;
        const controls = view.nodes.filter((n) => n.id && (ITEM_CONTROL_ROLES.has(n.role) || n.states.clickable === true) && named(n, each.verb!, each.by));
        set = controls.length === 1 ? controls : `the item's menu shows ${controls.length || 'no'} ${quote(planned.each.verb!)} controls`;
      } else if (typeof set === 'string' && planned.each.one) {
        // "Delete the email from Carol" where the list shows no Delete: open it, then its own control.
        const item = itemToOpen(planned.each.by!, view.nodes);
        if (typeof item === 'string') return stop(i, set);
        const why = describeStep(i, plan.length, `open the item to find its ${quote(planned.each.verb!)} control`);
        if (!(await actOnNode(r, item, 'click', [], `open ${quote(clip(item.name, 60))}`, why, view.url))) return stop(i, 'the item went away');
        await r.settle();
        view = await look(r, r.instruction);
        const controlsNamed = (verb: string) => view.nodes.filter((n) => n.id && ITEM_CONTROL_ROLES.has(n.role) && named(n, verb));
        let controls = controlsNamed(planned.each.verb!);
        // "Mark as important" where the message has no such control: its star, when it has one.
        if (!controls.length && planned.each.standIn) controls = controlsNamed(planned.each.standIn);
        set = controls.length === 1 ? controls : `the open item shows ${controls.length || 'no'} ${quote(planned.each.verb!)} controls`;
      }
      if (typeof set === 'string') return stop(i, set);
      const leaves = leavingLinks(set, view.url);
      if (leaves) return stop(i, leaves);
      const names: string[] = [];
      // Numbers clicked in order may be taken away after the first (a game of memory): where each was is kept.
      const spots = planned.each.order && set.length > 1 ? await spotsOf(r, set) : null;
      const before = view;
      let covers: OutlineNode[] | null = null;
      for (const [k, n] of set.entries()) {
        if (r.signal.aborted) return { success: false, message: `cancelled after ${done.length} of ${plan.length} steps` };
        const reasoning = `${describeStep(i, plan.length, planned.say)}: ${k + 1} of ${set.length}`;
        try {
          const cover = covers?.[k - (set.length - covers.length)];
          const say = cover ? `click the cover where ${quote(n.name)} was` : `click ${quote(n.name || n.role)}`;
          if (!(await actOnNode(r, cover ?? n, 'click', [], say, reasoning, view.url))) {
            const gone = `${quote(n.name || n.role)} went away after ${names.length} of ${set.length}`;
            if (!spots || covers || k === 0) return stop(i, gone);
            view = await look(r, r.instruction);
            const found = await coversFor(r, set.slice(k), spots.slice(k), before, view);
            if (typeof found === 'string') return stop(i, `${gone}: ${found}`);
            covers = found;
            if (!(await actOnNode(r, covers[0], 'click', [], `click the cover where ${quote(n.name)} was`, reasoning, view.url))) return stop(i, gone);
          }
        } catch (e) {
          if (r.endsRun(e)) throw e; // stopped or unanswered approval: the run ends refused
          return stop(i, `${names.length} of ${set.length} done, then ${(e as Error).message}`);
        }
        names.push(covers ? `${quote(n.name)} (from memory)` : quote(n.name || n.role));
        if (k + 1 < set.length) await r.settle();
      }
      done.push(`${planned.say} (${clip(names.join(', '), 300)})`);
      continue;
    }
    let chosenStep = planned;
    if (planned.when?.now) {
      // Read once: this step when it holds, the other one (or nothing) when it does not.
      const t0 = performance.now();
      const seen = numberOf(planned.when.subject, view.nodes, planned.when.currency);
      r.clock.ms += performance.now() - t0;
      if (!seen) return stop(i, `the page shows no single number for ${quote(planned.when.subject)}`);
      const yes = holds(planned.when, seen.value);
      done.push(`read ${quote(seen.shown)}: ${quote(planned.when.text)} is ${yes ? 'true' : 'false'}`);
      if (!yes) {
        if (planned.otherwise === undefined) continue;
        chosenStep = { say: planned.otherwise };
      }
    } else if (planned.when) {
      const waited = await watch(r, planned.when, (v) => (view = v));
      if ('why' in waited) return stop(i, waited.why);
      done.push(waited.did);
    }
    const valued = withValue(chosenStep, view.nodes, r.instruction, r.clock);
    if ('why' in valued) return stop(i, valued.why);
    const s = valued.step;
    if (valued.read) done.push(`read ${valued.read}`);
    if (s.suggestion !== undefined) {
      const picked = await pickSuggestion(r, suggestionFor(s.suggestion, true), true);
      if (!picked) return stop(i, `no suggestion matching ${quote(s.suggestion)} shows`);
      done.push(picked);
      continue;
    }
    if (s.record) {
      const out = await clickRecordField(
        r,
        s,
        (v) => (view = v),
        () => view,
      );
      if (typeof out !== 'string') return stop(i, out.why);
      done.push(out);
      continue;
    }
    if (s.result !== undefined) {
      const out = await clickResult(
        r,
        s,
        (v) => (view = v),
        () => view,
      );
      if (typeof out !== 'string' || out.startsWith('error:')) return stop(i, typeof out === 'string' ? out.slice(6).trim() : out.why);
      done.push(out);
      continue;
    }
    // The step's own words first; a control it names that is hidden (a collapsed section, another
    // tab, a submenu) is revealed before another phrasing ("OK" for "Submit") may stand in.
    let g = ground(primary(s), view.nodes, r.clock);
    // "Expand the section below and click Submit" with several collapsed and Submit already shown: which to open is not said.
    if (foldedLeft > 0 && !('why' in g)) return stop(i, `its target shows already, and which of ${foldedLeft} collapsed sections to expand is not said`);
    // A submenu may open a moment after the hover (jQuery UI waits 300 ms): look again before taking a
    // click on the item as the way in, since a click on a menu item may choose it.
    for (let k = 0; k < HOVER_LATE_LOOKS && 'why' in g && lastOpened && beforeOpen && !shows(view.nodes, beforeOpen); k++) {
      await pause(WATCH_EVERY_MS * 2, r.signal);
      view = await look(r, r.instruction);
      g = ground(primary(s), view.nodes, r.clock);
    }
    if ('why' in g && lastOpened && lastTarget && beforeOpen && !shows(view.nodes, beforeOpen)) {
      // Hovering the menu item before brought up nothing new: it opens on a click. (When it did
      // bring up a menu, the item asked for is not in it: clicking the parent would be a guess.)
      if (!(await r.act(`click ${lastTarget}`, `${quote(lastTarget)} did not open on hover: click it`, view.text, view.url)).startsWith('error:')) {
        await r.settle();
        view = await look(r, r.instruction);
        g = ground(primary(s), view.nodes, r.clock);
      }
    }
    // Only sections and tabs that say they are folded are opened unasked; guessing at "More" or a
    // header that takes clicks is for a step the instruction said to look for.
    if ('why' in g && (s.search || revealers(view.nodes, new Set(), false).length))
      g = await reveal(
        r,
        primary(s),
        () => view,
        (v) => (view = v),
        !!s.search,
      );
    if ('why' in g && s.or?.length) {
      const alt = ground(s, view.nodes, r.clock);
      if (!('why' in alt)) g = alt;
    }
    // "Click on the item labeled Stop" with the menu open and Stop in a submenu of it (Playback ▸): its submenus looked
    // through for the one item of that name. Never for words that fit several shown already (a tie is not hidden).
    const hiddenItem = 'why' in g && !g.tied ? submenuItem(s.say, view.nodes) : null;
    if (hiddenItem) {
      const out = await menuFindStep(
        r,
        { ...s, menuFind: { target: hiddenItem, click: true, exact: true } },
        describeStep(i, plan.length, s.say),
        () => view,
        (v) => (view = v),
      );
      if ('why' in out) return stop(i, out.why);
      done.push(`${s.say} (${out.did})`);
      lastFill = false;
      continue;
    }
    // "Choose Green from the colour drop-down" where the drop-down is plain elements: its opener ("Choose a colour",
    // "Size ▾") clicked, then the one item it shows that the words name. A click the words ground on the opener itself
    // ("choose the size Large" on "Size ▾") is the same choice.
    const opener =
      'why' in g
        ? NO_OPTION.test(g.why)
          ? plainPicker(s.say, view.nodes)
          : null
        : g.pick.method === 'click' && g.pick.node && isPlainOpener(s.say, g.pick.node)
          ? g.pick.node
          : null;
    if (opener) {
      try {
        const out = await chooseFromPlainList(
          r,
          opener,
          s.say,
          `${describeStep(i, plan.length, s.say)}`,
          () => view,
          (v) => (view = v),
        );
        if ('why' in out) return stop(i, out.why);
        done.push(out.did);
        lastFill = false;
        continue;
      } catch (e) {
        if (r.endsRun(e)) throw e;
        return stop(i, (e as Error).message);
      }
    }
    // A slider drawn without ARIA (jQuery UI's handle): moved by its keys until the value it shows is the one said.
    const plain = 'why' in g ? plainSlider(s.say, view.nodes) : null;
    if (plain) {
      const out = await slideTo(r, plain.handle, plain.index, plain.want, describeStep(i, plan.length, s.say));
      if ('why' in out) return stop(i, out.why);
      done.push(out.did);
      lastFill = false;
      continue;
    }
    if ('why' in g) return stop(i, g.why);
    lastTarget = g.pick.node ? quoteValue(g.pick.node.name || g.pick.node.role) : null;
    // "Select 1, 5 and 9" on checkboxes: one already ticked stays ticked (a click would clear it).
    const n = g.pick.node;
    if (n && g.pick.method === 'click' && CHECKABLE.has(n.role) && n.states.checked === true && /^(?:select|choose|pick|check|tick|mark)\b/i.test(g.say)) {
      r.note(g.say, describeStep(i, plan.length, g.say), `${n.role} ${quote(n.name)} is already checked; left as it is`, view.url, null);
      done.push(`${g.say} (already checked)`);
      continue;
    }
    // "Select A and B from the list" on a list that takes several: each choice keeps the ones before it.
    if (n && g.pick.method === 'selectOption' && typeof n.states.value === 'string' && n.states.value.startsWith('[')) {
      const before = chosen.get(n.name) ?? [];
      const want = [...new Set([...before, ...g.pick.args])];
      try {
        if (!(await actOnNode(r, n, 'selectOption', want, g.say, describeStep(i, plan.length, g.say), view.url))) return stop(i, 'the list went away');
      } catch (e) {
        if (r.endsRun(e)) throw e; // stopped or unanswered approval: the run ends refused
        return stop(i, (e as Error).message);
      }
      chosen.set(n.name, want);
      done.push(g.say);
      lastFill = false;
      continue;
    }
    // "Choose File, then Export": a menu item whose next step is not on the page yet opens a
    // submenu: hovered (as menus that open on hover need), clicked only if that shows nothing.
    let opensNow = !!planned.opens;
    const next = plan[i + 1];
    const plainNext =
      !!next &&
      !next.wait &&
      !next.each &&
      !next.drag &&
      !WHOLE_STEPS.some(([kind]) => next[kind] !== undefined) &&
      next.openItem === undefined &&
      next.searchForm === undefined &&
      !next.when &&
      !next.ref &&
      !next.expand;
    if (!opensNow && plainNext && g.pick.method === 'click' && g.pick.node && menuLike(g.pick.node) && 'why' in ground(primary(next!), view.nodes, r.clock)) {
      opensNow = true;
      g = { say: `hover over ${quoteValue(g.pick.node.name || g.pick.node.role)}`, pick: { ...g.pick, method: 'hover' } };
    }
    if (opensNow && g.pick.node && !lastOpened) {
      // Before the first hover of a path: a menu that is already in the page, hidden, must hold
      // the path's next items, or the path is given up before anything is hovered.
      const missing = await notInMenu(r, g.pick.node, plan.slice(i + 1, pathEnd(plan, i) + 1));
      if (missing) return stop(i, missing);
    }
    beforeOpen = opensNow ? namesOf(view.nodes) : null;
    lastOpened = opensNow;
    // A date field that takes no typing is set through its calendar, as a person would.
    const dateField = g.pick.method === 'fill' && g.pick.node?.states.readonly === true && parseDate(g.pick.args[0] ?? '') ? g.pick.node : null;
    if (dateField) {
      const out = await pickDate(r, dateField, parseDate(g.pick.args[0]!)!, view, describeStep(i, plan.length, g.say));
      if (out.why) return stop(i, out.why);
      done.push(`${g.say} (with its calendar)`);
      lastFill = false;
      continue;
    }
    // An ARIA spinner (no input to type into) is set by its own step buttons, as a person would.
    const spin = g.pick.method === 'fill' && g.pick.node?.role === 'spinbutton' && g.pick.node.states.type !== 'number' ? g.pick.node : null;
    if (spin) {
      const out = await spinTo(r, spin, g.pick.args[0] ?? '', view, describeStep(i, plan.length, g.say));
      if (out.why) return stop(i, out.why);
      done.push(g.say);
      lastFill = false;
      continue;
    }
    // A value typed or an item dragged counts when it shows: the field holds a value it did not
    // (or held this one already), the item moved. A click is its own effect.
    const meant = g.pick.method === 'fill' || g.pick.method === 'type' ? 'fill' : g.pick.method === 'dragAndDrop' ? 'drag' : null;
    if (meant) await effects.begin().catch(() => undefined);
    let result = await r.act(g.say, describeStep(i, plan.length, g.say), view.text, view.url);
    // Something covers the control: a dialog that popped up, closed by its close control (never
    // by one that accepts or confirms); or a field's popup (a date picker, suggestions), left by
    // leaving the field as a person would. After each, the step is tried again.
    const clearings: (() => Promise<boolean>)[] = [
      () => closeDialog(r, view),
      async () => {
        if (!lastFill) return false;
        return !(await r.act('press Tab', 'leave the field just filled: its popup covers the next control', view.text, view.url)).startsWith('error:');
      },
    ];
    for (const clear of clearings) {
      if (!(result.startsWith('error:') && /is covered by/.test(result))) break;
      if (!(await clear())) continue;
      await r.settle();
      view = await look(r, r.instruction);
      const again = ground(s, view.nodes, r.clock);
      if (meant) await effects.begin().catch(() => undefined);
      if (!('why' in again)) result = await r.act(again.say, describeStep(i, plan.length, again.say), view.text, view.url);
    }
    // A pop-up that the field's focus brought up and that disabled the form before the value went in ("Your session is
    // about to expire"): dismissed (never accepted), then the value typed again.
    if (meant === 'fill' && !result.startsWith('error:') && g.pick.node?.id) {
      const field = g.pick.node;
      await r.settle();
      const after = await look(r, r.instruction);
      const now = after.nodes.find((n) => n.id === field.id);
      const lost = now?.states.disabled === true && now.states.value !== (g.pick.args[0] ?? '');
      const closer = lost ? interruption(view.nodes, after.nodes) : null;
      if (lost && !closer) return stop(i, 'the field was disabled before the value went in');
      if (closer) {
        const why = describeStep(i, plan.length, `a pop-up disabled the form before the value went in: dismiss it by ${quote(closer.name)}`);
        if (!(await actOnNode(r, closer, 'click', [], `click ${quote(closer.name)}`, why, after.url))) return stop(i, 'the pop-up went away');
        await r.settle();
        view = await look(r, r.instruction);
        done.push(`dismissed a pop-up by ${quote(closer.name)}`);
        await effects.begin().catch(() => undefined);
        result = await r.act(g.say, describeStep(i, plan.length, g.say), view.text, view.url);
      }
    }
    if (result.startsWith('error:')) return stop(i, result.slice(6).trim());
    if (meant) {
      if (meant === 'drag') await r.settle();
      const effect = await effects.end(meant).catch(() => null);
      const held = meant === 'fill' && g.pick.node?.states.value === (g.pick.args[0] ?? '');
      const missed = meant === 'fill' ? 'the field does not hold it' : 'nothing moved';
      if (effect?.shows === false && !held) return stop(i, `${result}, but ${missed}: ${effect.said}`);
    }
    lastFill = g.pick.method === 'fill' || g.pick.method === 'type';
    setLast = SETS_VALUE.has(g.pick.method);
    // A selection made by keys (Control+A) reaches an editor's own record of it a moment later; a toolbar pressed at
    // once styles where the caret was (Quill).
    if (g.pick.method === 'press' && SELECT_ALL_KEYS.test(g.pick.args[0] ?? '')) await pause(SELECTION_SETTLE_MS, r.signal);
    done.push(g.say);
    // A value typed into a field with suggestions goes in by the suggestion that is exactly it,
    // or the one the step describes ("starts with Ger and ends with ny").
    const typed = g.pick.method === 'fill' || g.pick.method === 'type' ? (g.pick.args[0] ?? '') : '';
    if (s.pick?.startsWith || s.pick?.endsWith) {
      const want = s.pick;
      const fits = (name: string) =>
        (!want.startsWith || name.toLowerCase().startsWith(want.startsWith.toLowerCase())) &&
        (!want.endsWith || name.toLowerCase().endsWith(want.endsWith.toLowerCase()));
      const picked = await pickSuggestion(r, fits, true, want.any);
      if (!picked) {
        const starting = want.startsWith ? ` starting with ${quote(want.startsWith)}` : '';
        return stop(i, `no single suggestion${starting}${want.endsWith ? ` and ending with ${quote(want.endsWith)}` : ''} appeared`);
      }
      done.push(picked);
    } else if (typed && (s.pick?.typed || g.pick.node?.role === 'combobox')) {
      const picked = await pickSuggestion(r, suggestionFor(typed, !!s.pick?.typed), !!s.pick?.typed);
      if (picked) done.push(picked);
      else if (s.pick?.typed) return stop(i, `no suggestion matching ${quote(typed)} appeared after typing it`);
    }
  }
  // A form that checks what it is given takes it by its one button: values set last, on a page whose only control
  // left is Submit, are handed in by it, unless the words say how the form is sent.
  if (setLast && !SENDING_WORDS.test(r.instruction)) {
    await r.settle();
    const v = await look(r, r.instruction).catch(() => null);
    const buttons = v?.nodes.filter((n) => n.id && (n.role === 'button' || n.role === 'link') && n.states.disabled !== true) ?? [];
    if (v && buttons.length === 1 && /^submit$/i.test(buttons[0]!.name.trim())) {
      if (await actOnNode(r, buttons[0]!, 'click', [], 'click "Submit"', "hand in what the steps set: Submit is the page's one control", v.url))
        done.push('clicked "Submit", the page\'s one way to hand it in');
    }
  }
  // What the steps brought up (a confirmation, a code, a result) is part of the answer: the caller asked for the steps to see it.
  await r.settle();
  // A page that cannot be read now (closed, navigating) leaves the answer as it is: the steps were done.
  const last = await look(r, r.instruction).catch(() => null);
  const shown = last ? newLines(first, last) : [];
  const now = shown.length ? `. The page now shows: ${clip(shown.map((t) => quote(t)).join(' '), SHOWN_MAX)}` : '';
  return { success: true, message: `done in ${plan.length} step${plan.length === 1 ? '' : 's'}: ${clip(done.join('; '), 1200)}${now}` };
}

/** How much newly shown text a run's message carries, and in how many lines. */
const SHOWN_MAX = 400;
const SHOWN_LINES = 4;

/**
 * Lines of text the page shows now that it did not show when the run began, in page order; when
 * there are more than fit, the ones that hand something over (a password, a code, a success) first.
 */
function newLines(before: View, after: View): string[] {
  const key = (t: string) => t.replace(/\s+/g, ' ').trim().toLowerCase();
  const had = new Set(before.nodes.filter((n) => SAID_ROLES.has(n.role)).map((n) => key(n.name)));
  const fresh: string[] = [];
  for (const n of after.nodes) {
    const t = n.name.replace(/\s+/g, ' ').trim();
    if (SAID_ROLES.has(n.role) && t && !had.has(key(t)) && !fresh.includes(t)) fresh.push(t);
  }
  if (fresh.length <= SHOWN_LINES) return fresh;
  const handed = anyOf(HANDED_OVER);
  const keep = new Set([...fresh.filter((t) => handed.test(t)), ...fresh].slice(0, SHOWN_LINES));
  return fresh.filter((t) => keep.has(t));
}
