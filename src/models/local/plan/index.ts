/**
 * The built-in model's planner: a compound instruction ("Enter the username "ada" and the
 * password "x" into the text fields and press login") as single steps, each of which the
 * single-step reading in act.ts can ground on the page as it is when that step runs. It reads
 * sequence words and sentences, lists one verb spreads over ("Select 1, 5 and 9"), entry lists
 * in the forms people write them ("first name Ada, last name Lovelace", "Ada as the name",
 * "set the timeout to 60"), "into both fields", "confirm it", logins, menu paths, suggestions,
 * "the 3rd search result" and directions to look ("switch between the tabs to find ...").
 * The page's own field names tell a label from its value; nothing here acts, and what it
 * cannot read stays one step for act to ground or refuse.
 */
import { Refusal } from '../act';
import type { Transform } from '../refs';
import { isReference } from '../text';
import { namedDate } from '../values';
import { anyOf, either, oneOf } from '../words/grammar';
import { BOOK_VERBS, ONE_WAY, TRIP_NOUNS } from '../words/trips';
import type { Trip } from '../trips';
import { SORT_STEP, sortFirst, type SortSpec } from '../sorting';
import { GAME_STEP, gameFirst } from '../boards';
import { hanoiSaid, mazeSaid, riverSaid } from '../puzzles';
import { drawOf } from '../draws';
import { guessOf } from '../guessing';
import { mirrorTask, scrollOnly, secretSought } from '../secrets';
import { describeFile, fileToRemove } from '../shell';
import { GENERIC_FIELDS } from '../words/references';
import { CLAUSE_OPENERS, OPENING_COURTESY, REQUEST_OPENERS } from '../words/verbs';
import { WHEN_DONE } from '../words/conditions';
import { AFTER_UNITS, ordinalOf, ordinalWord, PAUSE_COUNT, PAUSE_UNITS, REPEATS } from '../words/numbers';
import type { PlanPage, PlanStep } from './types';
import {
  bare,
  CLICK_VERB,
  CLOSING,
  CLOSING_AS_VALUE,
  COMBO_STEPS,
  CONTEXT_MENU,
  DASH_ASIDE,
  HASTE_AFTER,
  norm,
  protect,
  PURPOSED,
  quoteValue,
  restore,
  splitAll,
  STARTS_WITH_VERB,
  unraw,
} from './clauses';
import { bothSteps, buttonAlternatives, entrySteps, FROM_SUGGESTIONS, goalBySteps, labelValue, listSteps, loginSteps, QUOTED, STARTS_WITH } from './entries';
import {
  ANSWER_MATH,
  answerButton,
  CODE_GIVEN,
  COUNT_QUESTION,
  COUNT_THEN_ENTER,
  EACH_LABEL,
  eachLabelled,
  ENTER_ANSWER,
  ENTER_WHAT,
  FOUND_THEN_TYPED,
  PART_OF_TEXT,
  SHOWN_ON_PAGE,
  SOLVE_MATH,
  STATED_AMOUNT,
  transformStep,
  typedValue,
} from './values';
import { CONDITION, conditionOf, holdStep, pauseStep } from './conditions';
import { itemFirst, itemSteps } from './mail';
import {
  EXPAND_DIRECTION,
  FIND_AND_CLICK,
  FROM_LIST_CHOOSE,
  MENU_CHOICE,
  MENU_FIND,
  MENU_FIND_CLICK,
  MENU_KIND,
  MENU_OPEN,
  oneDate,
  RECORD_STEP,
  recordFirst,
  SCROLL_UNTIL,
  SEARCH_DIRECTION,
  SHOWN_RESULT,
  SLIDE_FIND,
  TRIP,
  WHERE_HIDDEN,
} from './search';
import { goalValues } from './goals';
import { DRAG_ALL, DRAG_REST, DRAG_SO_INSIDE, dragOf, dragSizedOf, resizeOf } from './drags';
import { CARD_PICK, eachOf, MARK_PARITY, orderSaid, WHOLE_GOAL } from './sets';
import {
  COLOUR_NAMED,
  COLOUR_SET,
  colourByName,
  FIELD_BY_WIDGET,
  PICKER_FIRST,
  PICKER_MEANS,
  RATING,
  styleFirst,
  VALUE_BY_WIDGET,
  WIDGET_VALUES,
} from './controls';
import { BISECT, CIRCLE, consentOf, COORDINATE, DISMISS, DISMISS_ALL, FRAMED, LINE, MOVING, PIXEL, RIGHT_ANYWHERE, SPOT } from './challenges';

// The planner's types, and the constants and helpers the agent uses, from the modules that hold them.
export type { Condition, Each, PlanPage, PlanStep } from './types';
export { quoteValue } from './clauses';
export { WAIT_MAX_MS } from './conditions';
export { DRAG_STEP } from './drags';

const MAX_INSTRUCTION = 2000;

/**
 * Split `instruction` into single steps. Throws Refusal when the instruction has conditions or
 * repetition the planner cannot follow.
 */
export function planInstruction(instruction: string, page: PlanPage): PlanStep[] {
  // Tasks people write are short; a longer text is read by no pattern here in bounded time.
  if (instruction.length > MAX_INSTRUCTION)
    throw new Refusal(`it is ${instruction.length} characters long, more than the built-in planner reads (${MAX_INSTRUCTION})`);
  const { text, quotes } = protect(instruction.trim().replace(/[.!]+$/, ''));
  // "Could you please forward ...?": a request, its question mark no part of what is typed.
  const asked = new RegExp(`^(?:${either(REQUEST_OPENERS)})\\b`, 'i').test(text) ? text.replace(/\s*\?+$/, '') : text;
  let s = asked;
  const courtesy = new RegExp(`^(?:${either(OPENING_COURTESY)})(?:[,\\s]+|$)`, 'i');
  while (courtesy.test(s)) s = s.replace(courtesy, '').trim();
  // "Reply to Jaimie with "Fusce in.", please": the courtesy closes the instruction, it is not typed.
  const closes = !CLOSING_AS_VALUE.test(s);
  while (closes && CLOSING.test(s))
    s = s
      .replace(CLOSING, '')
      .replace(/[,.;!]+$/, '')
      .trim();
  // "Pay 12,000 (twelve thousand): enter the amount and press Pay": the amount the head states is what the clause enters.
  const stated = STATED_AMOUNT.exec(s);
  // Where the clause says where it goes ("type the amount into the box"), that is the field.
  if (stated) s = /^ (?:into|in|to) /i.test(stated[3]) ? `enter ${stated[1]}${stated[3]}` : `enter ${stated[1]} into the ${stated[2]} field${stated[3]}`;
  // "Scroll down to find the password", "Your task is: X. ... obtain and report the password": the task, then the secret.
  const sought = secretSought(s);
  if (sought) {
    const at = sought.url ? { url: sought.url } : {};
    const task = mirrorTask(bare(sought.task, quotes)) ?? bare(sought.task, quotes);
    const way = scrollOnly(task);
    if (way) return [{ say: `scroll ${way === 'both' ? 'down and right' : way} until the page shows the password`, reveal: { way, ...at } }];
    // Consent given for what the page shows next goes on past the box it ticks.
    const steps = (task ? planInstruction(task, page) : []).map((p) =>
      p.consent
        ? { ...p, consent: { ...p.consent, press: true } }
        : p.moving && !p.moving.times
          ? { ...p, moving: { ...p.moving, untilShown: true } }
          : p.menuFind
            ? { ...p, menuFind: { ...p.menuFind, click: true } }
            : p,
    );
    // Text typed last, with no step that sends it: the page's one send control, when the secret does not show without it.
    const last = steps[steps.length - 1];
    const send = !!last && !last.implied && /^(?:enter|type|fill|input|write|put)\b/i.test(last.say) ? { send: true } : {};
    return [...steps, { say: 'read the password the page now shows', secret: { ...at, ...send } }];
  }
  // "How many red items are there?", "click the button that best describes the figure": the answer's button.
  const answer = answerButton(s);
  if (answer) return [answer];
  // "Playing as 'X', win this game of tic-tac-toe": the whole instruction is the game.
  const game = gameFirst(bare(s, quotes));
  if (game) return [{ say: game, game: { mark: GAME_STEP.exec(game)![1] as 'X' | 'O' | 'either' } }];
  // "Guess the number between 0-9 and press Submit. Use the feedback below to find the right number": one step of many guesses.
  const guess = guessOf(s, (t) => bare(t, quotes));
  if (guess) return [{ say: `guess the number from ${guess.lo} to ${guess.hi}`, guess }];
  // "Generate a number less than 7, then press submit": draws until one fits, then the steps after it.
  const drawn = drawOf(bare(s, quotes));
  if (drawn) {
    const { button, verb, text } = drawn.draw;
    const say = `${button ? `click ${quoteValue(button)}` : verb} until the number is ${text}`;
    return [{ say, draw: drawn.draw }, ...(drawn.rest ? planInstruction(drawn.rest, page) : [])];
  }
  // "Close the welcome message" where the page shows a dialog: its close control or Escape, done only when it is gone.
  const dismiss = (page.roles?.dialog ?? 0) + (page.roles?.alertdialog ?? 0) ? DISMISS.exec(bare(s, quotes)) : null;
  if (dismiss) {
    const words = dismiss[2]!.trim();
    return [{ say: `close the ${words ? `${words} ` : ''}dialog`, dismiss: { words, ...(dismiss[1] ? { key: 'Escape' as const } : {}) } }];
  }
  // "Acknowledge the content warning", "prove you're human": the consent box, then the control that goes on.
  const consent = consentOf(bare(s, quotes));
  if (consent) return [consent];
  // "Close the annoying popup windows": each pop-up's close control in turn, done only when none is left.
  if (DISMISS_ALL.test(bare(s, quotes))) return [{ say: 'close every pop-up the page shows', dismissAll: true }];
  // "Scroll down the feed until you find X and click it": the target, looked for again after each scroll.
  const scrolled = SCROLL_UNTIL.exec(s);
  if (scrolled) {
    const target = bare((scrolled[2] ?? scrolled[3])!, quotes).replace(/^["“']|["”']$/g, '');
    const within = scrolled[1] && !/^(?:page|screen|window|list)$/i.test(scrolled[1]) ? bare(scrolled[1], quotes) : undefined;
    return [{ say: `scroll until ${quoteValue(target)} shows, then click it`, scrollFind: { target, ...(within ? { within } : {}) } }];
  }
  // "Go through the carousel to find X and click it": the carousel's Next until X shows.
  const slide = SLIDE_FIND.map((re) => re.exec(s)).find(Boolean);
  if (slide) {
    const target = bare(slide[1]!, quotes).replace(/^["“']|["”']$/g, '');
    return [{ say: `go through the carousel until ${quoteValue(target)} shows, then click it`, slideFind: { target } }];
  }
  // "Use the terminal below to delete a file ending with the extension .gif": commands typed, their output read.
  const file = fileToRemove(bare(s, quotes));
  if (file) return [{ say: `delete ${describeFile(file)} through the terminal`, removeFile: file }];
  // "Enter the value that corresponds with each label into the form": each field by its label, its value read off the page.
  if (EACH_LABEL.test(s)) {
    const each = eachLabelled(page.fields);
    if (each) s = s.replace(EACH_LABEL, each);
  }
  // "How many blocks are there? Enter the number": the count the question asks for is what is entered.
  s = s.replace(COUNT_QUESTION, (_m, what: string, verb: string) => `${verb} the number of ${what}`);
  s = s.replace(COUNT_THEN_ENTER, (_m, what: string, verb: string) => `${verb} the number of ${what}`);
  // "Find Lynne in the contact book and click on her phone number": one step, on whichever page shows her.
  s = recordFirst(s, quotes) ?? s;
  // "Find the email by Lyn and click the trash icon to delete it": one goal on one item.
  s = itemFirst(s) ?? s;
  // "Give the text "X" the style bold": select it, then the style's button.
  s = styleFirst(s) ?? s;
  // "Sort the numbers in increasing order, starting with the lowest at the top": one step, whatever moves the items.
  // A page with a sort control of its own ("Sort by", "Sort ascending") sorts by it: the words are left to name it.
  if (!page.names.some((n) => /\bsort/i.test(n))) s = sortFirst(s) ?? s;

  // "Turn over the cards and choose the one with the smallest number": one step, the cards turned as it goes.
  s = s.replace(CARD_PICK, (m, _a, _b, thing: string, which: string) =>
    thing.toLowerCase() === 'one' && !/\b(?:cards?|tiles?)\b/i.test(m)
      ? m
      : `pick the ${/^tile/i.test(thing) ? 'tile' : 'card'} with the ${which.toLowerCase()} number`,
  );
  // "Register the guest Linus by entering his name and clicking Submit": the steps it is done by.
  // "Create an account for Hedy Lamarr (hedy@example.com) ...", "Order 2 in size S, colour White": the form's fields.
  s = goalValues(s, page, quotes) ?? s;
  s = goalBySteps(s) ?? s;
  // "Find the 4th word in the paragraph, type that into the textbox": the value, typed where the second clause says.
  s = s.replace(FOUND_THEN_TYPED, (_m, what: string, verb: string, rest: string) => `${verb} ${what} ${rest}`);
  s = s.replace(DASH_ASIDE, '');
  s = s.replace(SHOWN_ON_PAGE, '$1');
  s = s.replace(CODE_GIVEN, (m, _verb: string, what: string, code: string, named?: string) => {
    if (code !== code.toUpperCase()) return m;
    // Entered whole, whatever the verb: a code replaces what its field held.
    const verb = 'enter';
    if (named) return `${verb} "${code}" into the `;
    // "the 6-digit code", "the one-time password": the code's boxes; "the new PIN" keeps the word that tells its boxes apart.
    const into = what.replace(/\b(?:\d+[- ](?:digit|character)|one[- ]time)\s*/gi, '').trim();
    return `${verb} "${code}" into the ${!into || /^password$/i.test(into) ? 'code' : into}`;
  });
  s = s.replace(COLOUR_SET, (_m, hex: string) => `set the color to ${hex}`);
  s = s.replace(DRAG_SO_INSIDE, (_m, verb: string, what: string, where: string) => `${verb} the ${what} into the ${where}`);
  s = s.replace(CONTEXT_MENU, 'right-click ').replace(PURPOSED, '$1');
  for (const re of COMBO_STEPS) s = s.replace(re, (_m, keys: string) => `press ${keys}`);
  // "Press Submit when done" is the order of the steps, not a condition.
  s = s.replace(new RegExp(`,?\\s+(?:${either(WHEN_DONE)})(?=\\s*(?:[.;]|$))`, 'gi'), '');
  // "Buy VOP when the price is less than $50.00": the action, held until the page's number passes.
  const cond = conditionOf(s, quotes);
  if (cond) s = cond.action;
  if (CONDITION.test(s)) throw new Refusal('it has conditions or repetition the built-in model does not follow');
  // A goal of several steps in one phrase ("book the cheapest flight from A to B", "click the
  // numbers in ascending order", "like all posts that mention cats"): one click never stands for
  // it. Unless the page has a control of that name ("Latest news", "Sort: lowest price first").
  const wholeGoal = (text: string): void => {
    const whole = WHOLE_GOAL.exec(text.replace(/\u0000\d+\u0000/g, ' '));
    if (whole && !page.names.some((n) => norm(n).includes(norm(whole[0])))) {
      throw new Refusal(`it asks for a goal of several steps (${JSON.stringify(bare(whole[0], quotes))}) the built-in planner does not break down`);
    }
  };
  // "Book the cheapest one-way flight from Boston to Denver on 12/03 (and book it)": the search form, then the result.
  const trip = TRIP.exec(s);
  // A place is a name of a few words: "B and a hotel" is two goals, not a destination.
  // "Fort Myers, FL" is one place (a region's code after the comma); "B, and a hotel" is not.
  const onePlace = (p: string) => !/\band\b/i.test(p) && !/,(?!\s*[A-Z]{2}$)/.test(p) && p.trim().split(/\s+/).length <= 4;
  // Two orders ("the cheapest ... and choose the fastest one") are a contradiction, not a trip.
  if (trip && onePlace(trip[4]) && onePlace(trip[5]) && oneDate(trip[6]) && !(trip[2] && trip[8])) {
    const [, verb, firstOrder, way, from, to, date, bookIt, lastOrder] = trip;
    const order = firstOrder ?? lastOrder;
    const books = !!bookIt || oneOf(BOOK_VERBS).test(verb);
    const t: Trip = { from: bare(from, quotes), to: bare(to, quotes), ...(date ? { date: bare(date, quotes) } : {}) };
    if (way) t.way = oneOf(ONE_WAY).test(way) ? 'one' : 'round';
    const steps: PlanStep[] = [{ say: `search for a trip from ${quoteValue(t.from)} to ${quoteValue(t.to)}${t.date ? ` on ${t.date}` : ''}`, trip: t }];
    if (books) steps.push({ say: `book the ${order ? order.toLowerCase() : 'one'} result`, tripResult: { order } });
    else if (order) steps.push({ say: `find the ${order.toLowerCase()} result`, tripResult: { order, look: true } });
    return steps;
  }
  // "Buy the ticket with the cheapest cost": a result the page shows already, booked by its own control.
  const shown = SHOWN_RESULT.exec(bare(s, quotes));
  if (shown) {
    const order = (shown[1] ?? shown[2])!.toLowerCase();
    return [{ say: `book the ${order} result`, tripResult: { order } }];
  }
  // Any other trip ("book ... from A to B") is one goal whatever the sentence does with it.
  if (new RegExp(`^(?:${either([...BOOK_VERBS, 'schedule', 'find'])})\\b.*\\bfrom\\s+\\S+.*\\bto\\s+\\S+`, 'i').test(s) && anyOf(TRIP_NOUNS).test(s)) {
    throw new Refusal('it asks for a trip to be found and booked, a goal of several steps the built-in planner does not break down');
  }
  let search = false;
  const found = () => {
    search = true;
    return '';
  };
  // "Navigate through the menus to find X and click it", "find X in the menus and click it": the menus opened in turn.
  let menuClick = false;
  s = s.replace(MENU_FIND_CLICK, (_m, what: string) => {
    menuClick = true;
    return `find ${what} in the menus`;
  });
  // "Find the link X in the sections below and click it": a search for X, then the click.
  s = s.replace(FIND_AND_CLICK, (m, what: string, verb: string) => {
    // Hidden in the menus (not a target that is called "Menu settings"): looked for through them.
    if (/\s(?:in|among|inside|under|within|behind)\s+(?:the\s+|one of the\s+)?menus?\b/i.test(m)) {
      menuClick = true;
      return `find ${what} in the menus`;
    }
    search = true;
    return `${verb} ${what}`;
  });
  // "..., to find and click on the link X", "then find and click the 2nd result".
  s = s.replace(/,?\s*(?:in order\s+)?to\s+(?:find|locate|reveal|look for)(?:\s+and\s+|\s*,\s*)/i, () => {
    search = true;
    return ' then ';
  });
  s = s.replace(/\b(?:find|locate|look for)\s+and\s+(?=(?:click|right[- ]?click|double[- ]?click|open|select|press|tap|choose)\b)/gi, found);
  // "From the country drop-down choose Japan": the choice first, then where it is made.
  s = s.replace(FROM_LIST_CHOOSE, '$2 $3 from the $1');
  // "In the Shop menu, choose Men, then Shoes": a menu path, hovered through like "Shop > Men > Shoes".
  const menu = MENU_CHOICE.exec(s);
  // "Open the pie menu, then click x" names a kind of menu, not a menu's name.
  if (menu && !/^(?:the|a|an|this|that)$/i.test(menu[1]) && !MENU_KIND.test(menu[1])) {
    const rest = menu[2]
      .split(/\s*(?:,\s*(?:and\s+)?(?:then\s+)?|\s+(?:and\s+)?then\s+|>)\s*(?:choose|select|click(?:\s+on)?|pick|go\s+to|open)?\s*/i)
      .filter(Boolean);
    if (rest.length && rest.every((x) => x.split(/\s+/).length <= 4 && !STARTS_WITH_VERB.test(x))) s = `select ${[menu[1], ...rest].join(' > ')}`;
  }
  const steps: PlanStep[] = [];
  let lastVerb = '';
  let lastValue: string | null = null;
  /** What "copy X" or "solve the expression" left for a later "paste it" or "enter the answer". */
  let copied: string | null = null;
  const push = (x: PlanStep) => {
    const typed = typedValue(x.say);
    // A value the instruction did not quote that describes something on the page is read there, never typed.
    if (typed !== null && !x.ref && !quotes.includes(typed) && isReference(typed)) x = { ...x, ref: typed };
    steps.push(search && !x.search ? { ...x, search } : x);
    lastValue = typed ?? lastValue;
  };
  let previous = '';
  for (const raw of splitAll(s)) {
    let clause = raw.replace(new RegExp(`^(?:${either(CLAUSE_OPENERS)})\\s+`, 'i'), '').trim();
    const prior = previous;
    previous = clause;
    if (EXPAND_DIRECTION.test(clause)) {
      // "Expand the section below": a step of its own (open the collapsed section); the steps
      // after it may need to look in others too.
      search = true;
      push({ say: clause, expand: true });
      continue;
    }
    const menu = MENU_OPEN.exec(clause);
    if (menu) {
      // "Expand the pie menu below": the page's one control that opens its menu; the steps after it look in what opened.
      push({ say: clause, openMenu: { ...(menu[1] ? { kind: menu[1].toLowerCase() } : {}) } });
      continue;
    }
    if (SEARCH_DIRECTION.test(clause)) {
      search = true;
      continue;
    }
    // "... in all lower case", "reversed": the value typed is changed so.
    let transform: Transform | undefined;
    // Right after the value ("Type "stressed" reversed into the box") or at the end of the clause.
    const CASE = '(?:in\\s+)?(?:all\\s+)?(?:(lower|upper)[\\s-]?case(?:\\s+letters)?|(capital|small|block)\\s+letters|(capitals))';
    const caseOf = (c1?: string, c2?: string, c3?: string): Transform | undefined => {
      const w = (c1 ?? c2 ?? c3 ?? '').toLowerCase();
      return w === 'lower' || w === 'small' ? 'lower' : w ? 'upper' : undefined;
    };
    clause = clause.replace(
      new RegExp(`(\\u0000\\d+\\u0000)\\s+(?:${CASE}|reversed|backwards)\\b`, 'i'),
      (_m, q: string, c1?: string, c2?: string, c3?: string) => {
        transform = caseOf(c1, c2, c3) ?? 'reverse';
        return q;
      },
    );
    clause = clause.replace(
      new RegExp(
        `,?\\s+(?:(?:written|typed|entered|spelled)\\s+)?${CASE}$|,?\\s+(?:in\\s+reverse(?:\\s+order)?|reversed|backwards|spelled\\s+backwards)$`,
        'i',
      ),
      (_m, c1?: string, c2?: string, c3?: string) => {
        transform = caseOf(c1, c2, c3) ?? 'reverse';
        return '';
      },
    );
    // One clause into steps (returns early once a reading has taken it).
    const planClause = (): void => {
      // "press Continue twice": the same step again.
      let times = 1;
      let fromSuggestions = false;
      clause = clause.replace(HASTE_AFTER, '').replace(/\s+(twice|thrice|(?:two|three|four|five) times|([2-9]|10) times)$/i, (_m, n: string, d?: string) => {
        times = d ? Number(d) : (REPEATS[n.toLowerCase()] ?? 1);
        return '';
      });
      // "Click three times": a click with no target named is the page's one button's.
      if (times > 1 && /^(?:click|tap|press)$/i.test(clause.trim())) clause = 'click the button';
      // "Select red with the color picker": the colour field set to red's hex value, else the words as said (a swatch named Red).
      clause = clause.replace(PICKER_FIRST, (_m, picker: string, verb: string, colour: string) => `${verb} ${colour} with the ${picker}`);
      const named = COLOUR_NAMED.exec(bare(clause, quotes));
      // Said as a choice from the picker ("pick Navy from the colour picker"): how a swatch named so is found. A value
      // typed into a field called Color ("enter the value of Color into the Color field") is no choice of a colour.
      if (named && (colourByName(named[1]!) || !/^(?:enter|input|set)\b/i.test(clause))) {
        clause = clause.replace(PICKER_MEANS, ' from the $1');
        const hex = colourByName(named[1]!);
        if (hex) {
          push({ say: `set the color to ${hex}`, or: [bare(clause, quotes)] });
          return;
        }
      }
      const menuFound = MENU_FIND.exec(bare(clause, quotes));
      if (menuFound) {
        const [verb, sought] = menuFound[1] ? [menuFound[1], menuFound[2]!] : [menuFound[3]!, menuFound[4]!];
        const click = / and /i.test(verb) || menuClick;
        push({ say: `find ${sought.trim()} in the menus${click ? ' and click it' : ''}`, menuFind: { target: sought.trim(), ...(click ? { click } : {}) } });
        return;
      }
      const framed = FRAMED.exec(bare(clause, quotes));
      if (framed) {
        push({ say: `click the ${framed[1]!.toLowerCase()}` });
        return;
      }
      if (RIGHT_ANYWHERE.test(bare(clause, quotes))) {
        push({ say: 'right-click the place the page names for a right-click', rightClickHere: { said: restore(clause, quotes) } });
        return;
      }
      const order = orderSaid(restore(clause, quotes));
      if (order) {
        const what = order.items ? `one each of ${order.items.join(', ')}` : `${order.count} items that are ${order.kind}`;
        push({ say: `order ${what}, then send the order`, order });
        return;
      }
      const river = riverSaid(restore(clause, quotes));
      if (river) {
        push({ say: `take the ${river.items.join(', ')} across the river, never leaving one with what eats it`, river });
        return;
      }
      const coord = COORDINATE.exec(restore(clause, quotes).trim());
      if (coord) {
        push({ say: restore(clause, quotes).trim(), coord: { x: Number(coord[1]), y: Number(coord[2]) } });
        return;
      }
      if (mazeSaid(bare(clause, quotes))) {
        push({ say: 'go through the doors, back from dead ends, until the way out shows', maze: true });
        return;
      }
      const hanoi = hanoiSaid(bare(clause, quotes));
      if (hanoi) {
        push({ say: `move the ${hanoi.disks ?? ''} disks one at a time to the rightmost peg, never a larger on a smaller`.replace('  ', ' '), hanoi });
        return;
      }
      // "Click the moving target three times": where it is at each moment, as often as said.
      const moving = MOVING.exec(bare(clause, quotes));
      if (moving) {
        const noun = moving[1]!.toLowerCase();
        push({ say: `click the moving ${noun}${times > 1 ? ` ${times} times` : ''}`, moving: { noun, ...(times > 1 ? { times } : {}) } });
        return;
      }
      // "Hold the button for exactly 3 seconds": a press held that long.
      const held = holdStep(bare(clause, quotes));
      if (held) {
        push(held);
        return;
      }
      // "Rate it 4 stars": the star control of that number, by its name or its place in the page's one row of stars.
      // "Find and click on the midpoint between the two points": a point of the drawing, worked out from its shapes.
      const spot = SPOT.exec(bare(clause, quotes));
      const line = LINE.exec(bare(clause, quotes));
      if (line) {
        const dir = line[1]!.toLowerCase() as 'horizontal' | 'vertical';
        push({ say: `draw a ${dir} line through the dot`, spot: { at: 'line', dir } });
        return;
      }
      if (BISECT.test(bare(clause, quotes))) {
        push({ say: 'draw a line that bisects the angle', spot: { at: 'bisect' } });
        return;
      }
      if (CIRCLE.test(bare(clause, quotes))) {
        push({ say: 'draw a circle around the dot', spot: { at: 'circle' } });
        return;
      }
      if (PIXEL.test(bare(clause, quotes))) {
        push({ say: 'click the small square the page draws', spot: { at: 'mark' } });
        return;
      }
      if (spot) {
        push(
          spot[1]
            ? { say: 'click the midpoint of the two points', spot: { at: 'midpoint' } }
            : { say: 'click the centre of the circle', spot: { at: 'centre' } },
        );
        return;
      }
      const rating = RATING.exec(bare(clause, quotes));
      if (rating) {
        const stars = Number(rating[1]);
        const of = rating[2] ? Number(rating[2]) : undefined;
        if (stars < 1 || stars > 10 || (of !== undefined && stars > of)) throw new Refusal(`it asks for ${stars} stars${of ? ` out of ${of}` : ''}`);
        push({ say: `rate ${stars} star${stars === 1 ? '' : 's'}`, rate: { stars, ...(of ? { of } : {}) } });
        return;
      }
      // "Reply to the email from Alice with 'Thanks!'", "delete the email from Carol", "share the post by @jane".
      const mail = itemSteps(clause, quotes);
      if (mail) {
        mail.forEach(push);
        return;
      }
      // "Mark the numbers below as odd or even": each row's own control, chosen when the step runs.
      if (MARK_PARITY.test(clause)) {
        push({ say: clause, each: { classify: 'parity' } });
        return;
      }
      // "Set the sliders to the combination [5,2,7]": the first slider to 5, the second to 2, ...
      const combo = WIDGET_VALUES.exec(unraw(clause, quotes));
      if (combo) {
        const kind = combo[1].toLowerCase().replace(/s$/, '');
        const widget = kind === 'spinner' ? 'spinner' : 'slider';
        const values = combo[2].split(',');
        // A value for each of them, or the combination is not the one asked for.
        const shown = page.roles?.[widget === 'spinner' ? 'spinbutton' : 'slider'];
        if (shown !== undefined && shown !== values.length) {
          throw new Refusal(`it gives ${values.length} values, and the page shows ${shown} ${widget}${shown === 1 ? '' : 's'}`);
        }
        values.forEach((v, i) => push({ say: `enter ${quoteValue(v.trim())} into the ${ordinalWord(i + 1)} ${widget}` }));
        return;
      }
      // "Pick July 3, 2024 in the calendar": the date, into the date field (its calendar when it takes no typing).
      const cal = /^(?:pick|select|choose|click|set)\s+(?:the\s+)?(?:date\s+)?(.+?)\s+(?:in|on|from|with)\s+(?:the\s+)?(?:calendar|date ?picker|picker)$/i.exec(
        clause,
      );
      if (cal) {
        const raw = bare(cal[1], quotes);
        // "pick tomorrow in the calendar": the words stay unquoted, so the step writes the day rather than them.
        const v = !QUOTED.test(cal[1].trim()) && namedDate(raw) ? raw : quoteValue(raw);
        push({ say: `enter ${v} into the date field`, or: [`enter ${v} into the text field`] });
        return;
      }
      // A search by several criteria ("comedies by Nolan released in 2004"): the form's fields, when the page has them.
      const sf = /^(?:find|search(?:\s+for)?|look\s+(?:for|up)|show(?:\s+me)?|browse|list)\s+(.+)$/i.exec(clause);
      if (
        sf &&
        /\b(?:by|directed by|written by|starring|released|published|from|titled|(?:19|20)\d{2})\b/i.test(bare(sf[1], quotes)) &&
        page.fields.length >= 2 &&
        !page.fields.some((f) => /\bsearch\b/i.test(f))
      ) {
        push({ say: restore(clause, quotes), searchForm: restore(sf[1], quotes) });
        return;
      }
      const rec = RECORD_STEP.exec(restore(clause, quotes));
      if (rec) {
        push({ say: restore(clause, quotes), record: { field: rec[1]!, who: rec[2]!.slice(1, -1) } });
        return;
      }
      const sorted = SORT_STEP.exec(clause);
      if (sorted) {
        push({ say: clause, sort: { by: sorted[1] as SortSpec['by'], order: sorted[2] as SortSpec['order'] } });
        return;
      }
      const all = DRAG_ALL.exec(bare(clause, quotes).replace(/[.!]+$/, ''));
      if (all) {
        // "..., and everything else into the right box": the pieces not taken go to a second target.
        const rest = DRAG_REST.exec(all[2]!);
        push({ say: restore(clause, quotes), dragEach: rest ? { what: all[1]!, to: rest[1]!, rest: rest[2]! } : { what: all[1]!, to: all[2]! } });
        return;
      }
      const sized = dragSizedOf(bare(clause, quotes));
      if (sized) {
        push({ say: restore(clause, quotes), dragSized: sized });
        return;
      }
      const resize = resizeOf(clause, quotes);
      if (resize) {
        push({ say: restore(clause, quotes), resize });
        return;
      }
      const drag = dragOf(clause, quotes);
      if (drag) {
        push({ say: restore(clause, quotes), drag });
        return;
      }
      // Sets of targets and targets picked by a property, chosen on the page when the step runs.
      const each = eachOf(clause, quotes);
      if (each) {
        push({ say: restore(clause, quotes), each });
        return;
      }
      wholeGoal(clause);
      // "Upload any file", "attach your CV", "choose a photo to upload": the built-in agent has no
      // file to give, and clicking the upload control or a heading that names it uploads nothing.
      if (/^(?:upload|re-?upload|attach)\b|\b(?:to|and)\s+(?:upload|attach)\b/i.test(bare(clause, quotes))) {
        throw new Refusal('it asks for a file to be uploaded, and the built-in agent has no file to give');
      }
      // "stop the timer after about one second", "after a second click TWO": the pause, then the step.
      const A = `(${PAUSE_COUNT})\\s+(${either(AFTER_UNITS)})`;
      const late = new RegExp(`^(.+?)\\s+after\\s+(?:(?:about|roughly|around)\\s+)?${A}$`, 'i').exec(clause);
      const early = late ? null : new RegExp(`^after\\s+(?:about\\s+)?${A},?\\s+(.+)$`, 'i').exec(clause);
      if (late || early) {
        const [count, unit, rest] = late ? [late[2], late[3], late[1]] : [early![1], early![2], early![3]];
        push(pauseStep(count, unit));
        clause = rest.trim();
      }
      // "..., it is in the hidden section": a direction to look, not a step.
      if (WHERE_HIDDEN.test(clause)) {
        search = true;
        for (const x of steps) x.search = true;
        return;
      }
      clause = clause.replace(/\s+(?:in|inside|under)\s+(?:a|the)\s+(?:hidden|collapsed|closed|folded)\s+(?:section|panel|part|area|menu|tab)$/i, () => {
        search = true;
        return '';
      });
      // "Answer the math question", "enter the answer": the expression's answer into the answer field.
      const enterAnswer = ENTER_ANSWER.exec(clause);
      // "Solve the expression and enter the answer (in the Answer box)": entered once, where the second clause says if it does.
      if (enterAnswer && copied === null && steps[steps.length - 1]?.ref === 'the answer' && ANSWER_MATH.test(prior)) {
        if (enterAnswer[1]) {
          const where = bare(enterAnswer[1], quotes);
          const said = `enter "the answer" into the ${where}`;
          // "the textbox" names a kind, not a field: the answer field first, where the page has one among several boxes.
          const generic = oneOf(GENERIC_FIELDS).test(where);
          steps.pop();
          push({ say: generic ? 'enter "the answer" into the answer field' : said, ...(generic ? { or: [said] } : {}), ref: 'the answer' });
        }
        return;
      }
      if (ANSWER_MATH.test(clause) || (copied === 'the answer' && enterAnswer && !enterAnswer[1])) {
        copied = null;
        push({
          say: 'enter "the answer" into the answer field',
          or: ['enter "the answer" into the captcha field', 'enter "the answer" into the result field', 'enter "the answer" into the text field'],
          ref: 'the answer',
        });
        return;
      }
      // "wait 1 second", "wait for 2 seconds": a pause between steps.
      let w = new RegExp(`^wait(?:\\s+for)?\\s+(?:about\\s+)?(${PAUSE_COUNT})\\s*(${either(PAUSE_UNITS)})$`, 'i').exec(clause);
      if (w) {
        push(pauseStep(w[1], w[2]));
        return;
      }
      // "Solve the expression", "work out the sum": what the next step enters as "the answer".
      if (SOLVE_MATH.test(clause)) {
        copied = 'the answer';
        return;
      }
      // "Copy the text from the paragraph": what "paste it" enters later.
      // "Copy the order number from the message into the Order number box": read there, entered here.
      const cp = /^copy\s+(.+?)\s+(into|in|to|onto|inside)\s+(?:the\s+)?((?:(?!\s(?:into|in|to|onto)\s).)+?)$/i.exec(clause);
      // "Copy the text in the textarea below, paste it into the textbox": "in" says where the text is, when a paste follows.
      const from = cp !== null && /^in(?:side)?$/i.test(cp[2]) && /\bpaste\s+(?:it|that|them)\b/i.test(s);
      if (cp && !from && !/^(?:the\s+)?clipboard$/i.test(cp[3])) {
        const [, what, , into] = cp;
        const literal = /^\u0000\d+\u0000$/.test(what.trim());
        push(
          literal
            ? { say: `enter ${restore(what.trim(), quotes)} into the ${bare(into, quotes)}` }
            : { say: `enter ${quoteValue(bare(what, quotes))} into the ${bare(into, quotes)}`, ref: bare(what, quotes) },
        );
        return;
      }
      w = /^copy\s+(.+?)(?:\s+(?:to|onto)\s+(?:the\s+)?clipboard)?$/i.exec(clause);
      if (w) {
        copied = /^\u0000\d+\u0000$/.test(w[1].trim()) ? restore(w[1].trim(), quotes) : bare(w[1], quotes);
        return;
      }
      // "Paste the quote into the box" with nothing copied: what it names is read off the page.
      w = /^paste\s+((?!it\b|that\b|them\b)(?!\u0000).+?)\s+(?:into|in|inside|to|on)\s+(?:the\s+)?(.+)$/i.exec(clause);
      if (w && copied === null) {
        const ref = bare(w[1], quotes);
        push({ say: `enter ${quoteValue(ref)} into the ${bare(w[2], quotes)}`, ref });
        return;
      }
      w = /^(?:paste|enter|type|put)\s+(?:it|that|them|the copied text|the answer|the result|the solution)\s+(?:into|in|inside|to|on)\s+(?:the\s+)?(.+)$/i.exec(
        clause,
      );
      if (w && copied !== null) {
        const into = bare(w[1], quotes);
        if (/^".*"$|^“.*”$/.test(copied)) push({ say: `enter ${copied} into the ${into}` });
        else push({ say: `enter ${quoteValue(copied)} into the ${into}`, ref: copied });
        copied = null;
        return;
      }
      // "Type the text below into the text field", "Enter the value of Year of Birth": a value
      // described, not given; read off the page when the step runs.
      const said = ENTER_WHAT.exec(clause);
      let r: [string, string, string | undefined] | null = said ? [said[0], said[1], said[2]] : null;
      // "Enter the 4th word in the text area": a part of a text names its source with "in"; the text goes into the
      // page's text field, not back into the text it was read from.
      if (r?.[2] && PART_OF_TEXT.test(bare(r[1], quotes)) && !/\s(?:into|in to)\s/i.test(clause)) {
        r = [r[0], `${r[1]} in the ${r[2]}`, undefined];
      }
      // ("Enter the zip code 02139": a field of the page, then its value, is no description.)
      const asEntry = r ? labelValue(r[1], page, quotes) : null;
      const fieldValue = !!asEntry && !isReference(asEntry.value) && page.fields.some((f) => norm(f).includes(asEntry.label));
      if (
        r &&
        !fieldValue &&
        !/\u0000\d+\u0000|,/.test(r[1]) &&
        r[1].split(/\s+/).length <= 10 &&
        isReference(bare(r[1], quotes)) &&
        !(r[2] && isReference(`the ${bare(r[2], quotes)}`) && !/\b(?:field|box|input|area|bar)$/i.test(r[2]))
      ) {
        const ref = bare(r[1], quotes);
        const into = r[2] ? bare(r[2], quotes) : 'text field';
        push({ say: `enter ${quoteValue(ref)} into the ${into}`, ref });
        return;
      }
      const login = loginSteps(clause, quotes);
      if (login) {
        login.forEach(push);
        return;
      }
      clause = clause
        // "from the scroll list", "the drop-down list": a list, whatever its look.
        .replace(/\b(?:scroll(?:ing|able)?|drop-?\s?down|select(?:ion)?)\s+(?:list|box|menu)\b/gi, 'list')
        // "Use the textbox to enter X", "start typing X", "enter the text X".
        .replace(/^use\s+(?:the\s+)?(.+?)\s+to\s+(enter|type|write|input)\s+(.+)$/i, '$2 $3 into the $1')
        .replace(/^(?:start|begin)\s+typing\s+/i, 'type ')
        .replace(/^(enter|type|input|write)\s+(?:the\s+)?(?:text|value|word|number|string|phrase)\s+(?=\u0000)/i, '$1 ')
        // "Enter Berlin into the city field, choosing it from the suggestions": typing, then that suggestion.
        .replace(
          /,?\s*(?:and\s+)?(?:choos|pick|select)(?:e|ing)?\s+(?:it|them)\s+from\s+the\s+(?:suggestions|suggestion list|autocomplete|dropdown|list|options)$/i,
          () => {
            fromSuggestions = true;
            return '';
          },
        )
        // "keep me signed in", "remember me": the checkbox that says so.
        .replace(
          /^(?:keep me (?:signed|logged) in|stay (?:signed|logged) in|remember me)$/i,
          (w) => `check ${quoteValue(w.replace(/^\w/, (c) => c.toUpperCase()))}`,
        )
        // "keep Standard delivery": make sure it is the one selected.
        .replace(/^(?:keep|leave)\s+(.+?)(?:\s+(?:selected|checked|on|as it is))?$/i, 'select $1')
        .replace(/^(?:submit|send)(?:\s+(?:it|the form|this form|the details|your answer|the answer|the application|the order))?$/i, 'click submit')
        .replace(/^place\s+the\s+order$/i, 'click place order')
        .replace(/^(?:continue|proceed)$/i, 'click continue')
        // "click button ONE": the button named ONE (not the first button).
        .replace(
          /^(click|press|tap|hit)(?:\s+on)?\s+(?:the\s+)?button\s+(\S+)$/i,
          (_m, v: string, name: string) => `${v} the ${/^\u0000/.test(name) ? name : quoteValue(name)} button`,
        );
      // "Search the docs for X": type it into the search box and press Enter.
      let m = /^search(?:\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?)?\s+for\s+(.+)$/i.exec(clause);
      if (m) {
        const v = quoteValue(bare(m[1], quotes));
        push({ say: `enter ${v} into the search box`, or: [`enter ${v} into the search field`, `enter ${v} into the text field`] });
        push({ say: 'press Enter' });
        return;
      }
      // "confirm it", "repeat it": the value just typed, into the field that confirms it.
      if (/^(?:confirm|repeat|re-?enter|retype|re-?type|type)\s+(?:it|that|the password)(?:\s+again)?$/i.test(clause) && lastValue !== null) {
        const v = quoteValue(lastValue);
        push({ say: `enter ${v} into the confirm field`, or: [`enter ${v} into the confirm password field`, `enter ${v} into the second password field`] });
        return;
      }
      // "Enter an item that starts with "Ger" and ends with "ny"": type the start, pick the suggestion.
      m = STARTS_WITH.exec(clause);
      if (m) {
        const start = bare(m[1], quotes);
        push({
          say: `enter ${quoteValue(start)} into the text field`,
          or: [`enter ${quoteValue(start)} into the combobox`],
          // "an item that starts with ...": any that fits will do.
          pick: { startsWith: start, ...(m[2] ? { endsWith: bare(m[2], quotes) } : {}), ...(/^\S+\s+an?\s/i.test(clause) ? { any: true } : {}) },
        });
        return;
      }
      // "pick Porto from the suggestions": the suggestion; "from the city suggestions": type it there first.
      m = FROM_SUGGESTIONS.exec(clause);
      if (m) {
        const v = quoteValue(bare(m[1], quotes));
        if (m[2]) push({ say: `enter ${v} into the ${bare(m[2], quotes)} field`, pick: { typed: true } });
        else push({ say: `pick ${v} from the suggestions`, suggestion: bare(m[1], quotes) });
        return;
      }
      // "click the 3rd search result", "open the first result".
      m = /^(?:click|open|select|choose|follow|visit|pick)(?:\s+on)?\s+(?:the\s+)?(\w+)\s+(?:search\s+)?(?:result|hit|match)$/i.exec(clause);
      const place = m && ordinalOf(m[1], true);
      if (place) {
        push({ say: restore(clause, quotes), result: place === 'last' ? -1 : place });
        return;
      }
      // A value with nowhere to go ("Enter ada@example.com", "Type "Ger""): the page's text field.
      m = /^(?:enter|type|input|write|key in)\s+(\u0000\d+\u0000|\S+)$/i.exec(clause);
      if (m && !STARTS_WITH_VERB.test(bare(m[1], quotes))) {
        const v = quoteValue(bare(m[1], quotes));
        push({ say: `enter ${v} into the text field`, or: [`enter ${v} into the search box`, `enter ${v} into the combobox`] });
        return;
      }
      // "Press Play, then Next track": a clause with no verb takes the click verb before it.
      if (!STARTS_WITH_VERB.test(clause) && lastVerb && !/^[^:]{1,40}:/.test(clause)) clause = `${lastVerb} ${clause}`;
      const cv = CLICK_VERB.exec(clause);
      lastVerb = cv ? cv[1] : '';
      const expanded = bothSteps(clause, quotes) ?? entrySteps(clause, page, quotes) ?? listSteps(clause, page, quotes);
      if (expanded) {
        expanded.forEach(push);
        return;
      }
      // "Select File > Export > PDF": each item of the menu path in turn.
      m = /^(?:select|click|choose|open|go to|navigate to)(?:\s+on)?\s+(?:the\s+)?([^>]+(?:\s*>\s*[^>]+)+)$/i.exec(clause);
      if (m) {
        // Each item but the last opens the next: hovered, as menus that open on hover need (and
        // clicked only if hovering brings up nothing); the last is clicked.
        const items = m[1]
          .replace(/\s+(?:from|in|on)\s+(?:the\s+)?(?:[\w-]+\s+)?(?:menu|menu ?bar|navigation)$/i, '')
          .split(/\s*>\s*/)
          .map((item) => (/^\u0000\d+\u0000$/.test(item.trim()) ? restore(item.trim(), quotes) : quoteValue(bare(item, quotes))));
        items.forEach((item, k) => push(k < items.length - 1 ? { say: `hover over ${item}`, opens: true } : { say: `click ${item}` }));
        return;
      }
      // "Select 12/31/2016 as the date", "choose 10:30 AM as the time": an option, or a value typed in.
      m = /^(?:select|choose|pick)\s+(\u0000\d+\u0000|[^,]+?)\s+as\s+(?:the\s+|your\s+)?(.+)$/i.exec(clause);
      if (m) {
        push({ say: restore(clause, quotes), or: [`enter ${quoteValue(bare(m[1], quotes))} into the ${bare(m[2], quotes)} field`] });
        return;
      }
      // "subscribe with the address grace@navy.mil", "sign up with a@b.co": the field, then the
      // button named by the verb (after anything else the instruction asks for).
      m = /^([a-z]+(?:\s+(?:up|in|on))?)\s+(?:with|using)\s+(.+)$/i.exec(clause);
      const emailOnly = m && /^\S+@\S+\.\w+$/.test(bare(m[2], quotes)) ? { label: 'email', value: bare(m[2], quotes) } : null;
      const lv =
        m && !/^(?:enter|type|fill|input|write|log in|sign in|login|select|choose|pick|click|press)$/i.test(m[1])
          ? (labelValue(m[2], page, quotes) ?? emailOnly)
          : null;
      if (m && lv) {
        const verb = m[1].toLowerCase();
        push({ say: `enter ${quoteValue(lv.value)} into the ${lv.label} field` });
        push({ say: `click ${verb}`, or: [`click the ${verb} button`], implied: true });
        return;
      }
      // "Select 5 with the spinner", "set 30 on the slider": the value into that control.
      m = VALUE_BY_WIDGET.exec(clause);
      if (m) {
        push({ say: `enter ${quoteValue(bare(m[1], quotes))} into the ${m[2]}` });
        return;
      }
      // "Set the number of speakers to 7 with the spinner": the field named so, by that widget.
      m = FIELD_BY_WIDGET.exec(clause);
      if (m) {
        const v = quoteValue(bare(m[2], quotes));
        const what = bare(m[1], quotes).replace(/^(?:number|amount|count)\s+of\s+/i, '');
        push({ say: `enter ${v} into the ${what} ${m[3]}`, or: [`enter ${v} into the ${m[3]}`] });
        return;
      }
      // "Select nothing": nothing to select.
      if (/^(?:select|check|tick|choose|pick)\s+(?:nothing|none|no\s+(?:options?|boxes|items|checkboxes))$/i.test(clause)) return;
      if (fromSuggestions && expanded === null && /^(?:enter|type|input|write|fill)\b/i.test(clause)) {
        push({ say: restore(clause, quotes), pick: { typed: true } });
        return;
      }
      const say = restore(clause, quotes);
      const or = buttonAlternatives(say);
      for (let k = 0; k < times; k++) push({ say, ...(or ? { or } : {}) });
    };
    const before = steps.length;
    planClause();
    if (transform) for (const x of steps.slice(before)) transformStep(x, transform);
  }
  // Every clause is a step: what was copied or worked out and never entered is a dropped step.
  if (copied !== null) throw new Refusal(`it reads ${JSON.stringify(copied)} and never says where it goes`);
  if (cond && steps.length) {
    const first = steps[0];
    // A condition holds a plain step (a click, a value typed); sets, drags, searches and pauses are not held.
    if (first.each || first.drag || first.searchForm !== undefined || first.openItem !== undefined || first.expand || first.wait !== undefined) {
      throw new Refusal('its condition holds a step of a kind the built-in agent does not wait for');
    }
    if (cond.otherwise !== undefined) {
      // One step each way: "press Yes ... otherwise No" (a bare name takes the first branch's verb).
      if (steps.length !== 1) throw new Refusal('each side of its condition must be one step');
      const verb = /^(click|press|tap|hit|select|choose|check)\b/i.exec(steps[0].say)?.[1] ?? 'click';
      let other = bare(cond.otherwise, quotes).replace(/^(?:just\s+)?/i, '');
      if (!STARTS_WITH_VERB.test(other)) other = `${verb} ${other}`;
      steps[0] = { ...steps[0], when: cond.when, otherwise: other };
    } else steps[0] = { ...steps[0], when: cond.when };
  }
  // A log-in click the phrasing implied goes after everything else asked for ("sign in as X
  // using password Y and tick Remember me"), or away when a click of its own comes later.
  const implied = steps.findIndex((x) => x.implied);
  if (implied >= 0 && implied < steps.length - 1) {
    const [click] = steps.splice(implied, 1);
    // A later click of its own (on the log-in, submit or that very button) takes its place.
    const own = click.say
      .replace(/^click\s+(?:the\s+)?/i, '')
      .replace(/\s+button$/i, '')
      .toLowerCase();
    const same = (say: string) =>
      /^(?:click|press|hit|tap)\b/i.test(say) && (/\b(?:log ?in|sign ?in|submit|continue)\b/i.test(say) || say.toLowerCase().includes(own));
    if (!steps.slice(implied).some((x) => same(x.say))) steps.push(click);
  }
  if (!steps.length) throw new Refusal('it names no step to take');
  if (steps.length > 30) throw new Refusal(`it has ${steps.length} steps, more than the built-in model plans (30)`);
  return steps;
}
