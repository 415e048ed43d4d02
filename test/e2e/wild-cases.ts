/**
 * A held-out-style corpus of single-step tasks on pages built like real web apps (the family of
 * public single-step web tasks: click a link in a paragraph, close a dialog, focus the 3rd text
 * box, click a widget of a given type, a tab, a shape, a colour), phrased the way those tasks and
 * real users phrase them. The pages live in test/fixtures/pages/wild/ and were written as a web
 * developer would write them, not to suit the snapshot or the model.
 *
 * Judging, as in local-model.test.ts: the page records its own events (WILD_RECORDER, injected
 * after load); a case names the element id that must receive the action (any of several ids
 * where the task accepts any of them) and optionally the value, checked state or text that must
 * follow. Touching any other element (a click, double or right click, input or change) is
 * "wrong"; a `success:false` answer is "refused", which is correct only where the case expects a
 * refusal. This module holds no test of its own, so other suites can import it.
 */
import type { Deckhand, Page } from '../../src/index';

export type WildCategory =
  | 'prose-links'
  | 'div-buttons'
  | 'icon-buttons'
  | 'dialogs'
  | 'tabs'
  | 'widget-types'
  | 'ordinals'
  | 'only-of-kind'
  | 'phrasings'
  | 'ties'
  | 'hidden-duplicates'
  | 'out-of-view'
  | 'svg-shapes'
  | 'colours'
  | 'custom-widgets'
  | 'editable-focusable-draggable'
  | 'paraphrases'
  | 'refusals';

export type WildCheck =
  | {
      /** The id (or any of the ids) that must receive the action. */
      acts: string | string[];
      /** The event that must reach it (default: click; input when a value or text is expected). */
      on?: 'click' | 'focusin';
      value?: string;
      checked?: boolean;
      /** The element's text afterwards (contenteditable). */
      text?: string;
    }
  | { refuse: true };

export interface WildCase {
  cat: WildCategory;
  /** A page under /wild/. */
  page: string;
  say: string;
  expect: WildCheck;
}

export type WildOutcome = 'correct' | 'refused' | 'wrong';

// Pages.
const LL = 'links-lorem.html';
const LB = 'links-blog.html';
const LF = 'links-forum.html';
const ET = 'editor-toolbar.html';
const ML = 'mail-list.html';
const OT = 'orders-table.html';
const IH = 'icons-header.html';
const IF = 'icons-files.html';
const IW = 'icons-widgets.html';
const DN = 'dialog-native.html';
const DJ = 'dialog-jqui.html';
const DJ2 = 'dialog-jqui-2.html';
const DB = 'dialog-bootstrap.html';
const TJ = 'tabs-jqui.html';
const TD = 'tabs-div.html';
const TP = 'tabs-product.html';
const W1 = 'widgets-1.html';
const W2 = 'widgets-2.html';
const W3 = 'widgets-3.html';
const OI = 'ordinal-inputs.html';
const OG = 'ordinal-grid.html';
const OL = 'ordinal-links.html';
const OB = 'ordinal-buttons.html';
const T1 = 'only-textbox-1.html';
const T2 = 'only-textbox-2.html';
const T3 = 'only-textbox-3.html';
const WZ = 'wizard.html';
const XS = 'ties-search.html';
const XD = 'ties-disabled.html';
const XR = 'ties-rows.html';
const XC = 'ties-scroll.html';
const LA = 'long-article.html';
const SB = 'scroll-box.html';
const S1 = 'shapes-1.html';
const SS = 'shapes-seats.html';
const C1 = 'colors-1.html';
const CP = 'colors-product.html';
const CL = 'colors-palette.html';
const TTT = 'tictactoe.html';
const CAL = 'calendar.html';
const DP = 'datepicker.html';
const TR = 'tree.html';
const TR2 = 'tree-2.html';
const SL = 'slider.html';
const LS = 'select-list.html';
const ED = 'editable.html';
const KB = 'kanban.html';
const PL = 'plans.html';

const click = (acts: string | string[]): WildCheck => ({ acts });
const focus = (acts: string): WildCheck => ({ acts, on: 'focusin' });
const REFUSE: WildCheck = { refuse: true };

const table: Record<WildCategory, [page: string, say: string, expect: WildCheck][]> = {
  // Spans acting as links inside prose: jQuery handlers with a pointer cursor, and plain
  // addEventListener spans with no cursor at all. Several link words also occur as plain text.
  'prose-links': [
    [LL, 'Click on the link "quia".', click('l-quia')],
    [LL, 'Click on the link "error".', click('l-error')],
    [LL, 'Click on the link "quisquam".', click('l-quisquam')],
    [LL, 'Click on the link "sed".', click('l-sed')],
    [LL, 'click the link quisquam', click('l-quisquam')],
    [LB, 'Click on the link "watering guide".', click('l-guide')],
    [LB, 'click the university study link', click('l-study')],
    [LB, 'open the notes on wind', click('l-wind')],
    [LB, 'click "Read more"', click('l-more')],
    [LB, "click Reply under Tom's comment", click('c2-reply')],
    [LB, "like Priya's comment", click('c3-like')],
    [LF, 'click on the username nils_k', click('u-nils')],
    [LF, 'Click on the link "this explanation of DFS".', click('l-dfs')],
    [LF, 'click the firmware tag', click('t-firmware')],
    [LF, 'Click on the link "Quote ada_l".', click('l-quote-ada')],
  ],
  // div/span/li/td "buttons" with listeners and no role: with and without a pointer cursor or tabindex.
  'div-buttons': [
    [ET, 'click Undo', click('tb-undo')],
    [ET, 'click the Bold button', click('tb-bold')],
    [ET, 'press Italic', click('tb-italic')],
    [ET, 'click Quote', click('tb-quote')],
    [ET, 'click "Insert link"', click('tb-link')],
    [ET, 'click Publish', click('tb-publish')],
    [ET, 'click the Preview button', click('tb-preview')],
    [ML, 'click Compose', click('compose')],
    [ML, 'open the Sent folder', click('f-sent')],
    [ML, 'go to Drafts', click('f-drafts')],
    [ML, 'open the email from Linus', click('m-linus')],
    [ML, 'click "Mark all as read"', click('t-markread')],
    [OT, 'approve order #1002', click('approve-1002')],
    [OT, 'click Reject for Ada Lovelace', click('reject-1003')],
    [OT, 'click Restock on the Canvas tote card', click('restock-tote')],
    [OT, 'hide the blue mug', click('hide-mug')],
    [CP, 'pick size M', click('sz-m')],
  ],
  // Icon-only controls named by a glyph, title, aria-label, class words or an image file name.
  'icon-buttons': [
    [IH, 'open the menu', click('hamburger')],
    [IH, 'click the hamburger menu', click('hamburger')],
    [IH, 'click the settings icon', click('gear')],
    [IH, 'click the gear', click('gear')],
    [IH, 'open notifications', click('bell')],
    [IH, 'dismiss the maintenance banner', click('banner-close')],
    [IH, 'close the announcement by clicking the ×', click('banner-close')],
    [IH, 'click the JD avatar', click('avatar')],
    [IF, 'delete report.pdf', click('del-report')],
    [IF, 'click the trash icon for budget.xlsx', click('del-budget')],
    [IF, 'delete notes.txt', click('del-notes')],
    [IF, 'rename budget.xlsx', click('edit-budget')],
    [IF, 'click the edit icon next to notes.txt', click('edit-notes')],
    [IW, 'close the coupon notification', click('toast-close')],
    [IW, 'close the chat', click('chat-close')],
    [IW, 'increase the quantity of the trail runners', click('plus')],
    [IW, 'click the minus sign', click('minus')],
  ],
  // Native <dialog> (modal), real jQuery UI dialogs (modal and not), a Bootstrap-style modal.
  dialogs: [
    [DN, 'Close the dialog box by clicking the "x".', click('dlg-x')],
    [DN, 'Click the button in the dialog box labeled "OK".', click('dlg-ok')],
    [DN, 'Click Cancel in the dialog', click('dlg-cancel')],
    [DN, 'close the dialog', click(['dlg-x', 'dlg-cancel'])],
    [DJ, 'Close the dialog box by clicking the "x".', click('dlg-x')],
    [DJ, 'Click the button in the dialog box labeled "OK".', click('dlg-ok')],
    [DJ, 'Click the button in the dialog box labeled "Cancel".', click('dlg-cancel')],
    [DJ, 'close the popup', click(['dlg-x', 'dlg-cancel'])],
    [DJ2, 'click Save changes in the dialog', click('dlg-save')],
    [DJ2, 'Click "Discard" in the popup.', click('dlg-discard')],
    [DJ2, 'close the "Unsaved changes" dialog', click('dlg-x')],
    [DB, 'close the modal by clicking the x', click('m-x')],
    [DB, 'click Send invite', click('m-send')],
    [DB, 'Click the button in the dialog box labeled "Dismiss".', click('m-dismiss')],
  ],
  // jQuery UI tabs, div tabs with handlers and no roles, span tabs switched on mousedown.
  tabs: [
    [TJ, 'Click on Tab #2.', click('tab-2')],
    [TJ, 'Click on Tab #3.', click('tab-3')],
    [TJ, 'open the second tab', click('tab-2')],
    [TJ, 'switch to the last tab', click('tab-3')],
    [TD, 'switch to the Billing tab', click('t-billing')],
    [TD, 'open the second tab', click('t-billing')],
    [TD, 'click the Security tab', click('t-security')],
    [TD, 'go to the notifications tab', click('t-notifications')],
    [TP, 'open the reviews tab', click('tb-reviews')],
    [TP, 'click on Shipping & returns', click('tb-shipping')],
    [TP, 'click the third tab', click('tb-shipping')],
  ],
  // Widgets named by their type (data-type), with nonsense labels as in the public task.
  'widget-types': [
    [W1, 'Click on a "checkbox" widget.', click('w-checkbox')],
    [W1, 'Click on a "text" widget.', click('w-text')],
    [W1, 'Click on a "textarea" widget.', click('w-textarea')],
    [W1, 'click the radio widget', click('w-radio')],
    [W1, 'Click on a "button" widget.', click('w-button')],
    [W2, 'Click on a "text" widget.', click('w2-text')],
    [W2, 'Click on a "textarea" widget.', click('w2-textarea')],
    [W2, 'Click on a "checkbox" widget.', click('w2-checkbox')],
    [W3, 'Click on a "button" widget.', click(['w3-button-1', 'w3-button-2'])],
    [W3, 'Click on a "radio" widget.', click('w3-radio')],
    [W3, 'click on the text input widget', click('w3-text')],
  ],
  // Ordinals over a kind of element with no names.
  ordinals: [
    [OI, 'Focus into the 3rd input textbox.', focus('in-3')],
    [OI, 'focus the second text field', focus('in-2')],
    [OI, 'Focus into the 1st input textbox.', focus('in-1')],
    [OI, 'click the last text box', click('in-5')],
    [OI, 'Focus into the 4th input textbox.', focus('in-4')],
    [OI, 'put the cursor in the fifth input', focus('in-5')],
    [OG, 'focus the third text field', focus('g-3')],
    [OG, 'click the first button', click('b-back')],
    [OG, 'click the last button', click('b-continue')],
    [OL, 'click the last link', click('r-4')],
    [OL, 'open the second result', click('r-2')],
    [OL, 'click the first link', click('r-1')],
    [OB, 'click the third button', click('ob-3')],
    [OB, 'the first button', click('ob-1')],
    [OB, 'press the last button', click('ob-4')],
  ],
  // The only element of its kind, unnamed, among other things.
  'only-of-kind': [
    [T1, 'Focus into the textbox.', focus('tb')],
    [T1, 'focus into the text field', focus('tb')],
    [T1, 'click in the input box', click('tb')],
    [T2, 'Focus into the textbox.', focus('nl-email')],
    [T2, 'click into the text field', click('nl-email')],
    [T2, 'click the checkbox', { acts: 'nl-daily', checked: true }],
    [T2, 'Click the only button.', click('nl-sub')],
    [T3, 'Focus into the text area.', focus('ta')],
    [T3, 'focus the textbox', focus('ta')],
  ],
  // Instructions that do not start with a verb, or name the target by its text.
  phrasings: [
    [WZ, 'the button labeled Submit', click('w-submit')],
    [WZ, 'click the button that says Next', click('w-next')],
    [WZ, 'click the link with the text "more info"', click('more-info')],
    [WZ, 'Submit button, please click it', click('w-submit')],
    [WZ, 'Next button', click('w-next')],
    [WZ, 'The link that reads "Skip this step" — click it.', click('skip')],
    [WZ, 'Please press Save draft.', click('w-draft')],
    [WZ, 'could you click on more info for me?', click('more-info')],
    [WZ, 'go back one step by clicking Back', click('w-back')],
    [WZ, 'Basic plan, please select it', { acts: 'p-basic', checked: true }],
    [DN, 'Close the dialog by clicking the x', click('dlg-x')],
    [DJ, 'the OK button in the dialog', click('dlg-ok')],
  ],
  // Repeated names: a hidden mobile copy, a disabled copy, rows, a copy far below the fold.
  ties: [
    [XS, 'click Go', click('d-go')],
    [XS, 'type "tent" into the search box', { acts: 'd-q', value: 'tent' }],
    [XS, 'click the search button', click('d-go')],
    [XD, 'click Continue', click('c-continue-2')],
    [XD, 'click the Continue button', click('c-continue-2')],
    [XD, 'click Download tickets', click('dl-2')],
    [XR, 'click Delete in the row for dana-laptop', click('del-dana')],
    [XR, 'delete the staging key', click('del-staging')],
    [XR, 'click the Delete button', REFUSE],
    [XR, 'click Delete', REFUSE],
    [XC, 'click Subscribe', click('sub-top')],
    [XC, 'type me@example.com into the email field', { acts: 'hero-email', value: 'me@example.com' }],
  ],
  // A visually hidden copy of the button comes first in the DOM.
  'hidden-duplicates': [
    [`hidden-opacity.html`, 'click Add to cart', click('vis-opacity')],
    [`hidden-opacity.html`, 'add the lamp to the cart', click('vis-opacity')],
    [`hidden-offscreen.html`, 'click Start free trial', click('vis-offscreen')],
    [`hidden-offscreen.html`, 'start the free trial', click('vis-offscreen')],
    [`hidden-visibility.html`, 'click "Book tickets"', click('vis-visibility')],
    [`hidden-clip.html`, 'Click on Apply now.', click('vis-clip')],
    [`hidden-srlabel.html`, 'click Upload photos', click('upload')],
  ],
  // Targets below the fold, or in the hidden part of a scrollable box.
  'out-of-view': [
    [LA, 'click Back to top', click('back-top')],
    [LA, 'click Yes under "Was this article helpful?"', click('helpful-yes')],
    [LA, 'click "Print this page"', click('print')],
    [SB, 'click I agree', click('agree')],
    [SB, 'select Item 37', click('item-37')],
    [SB, 'click on Item 40', click('item-40')],
    [XC, 'click the Subscribe button in the footer', click('sub-bottom')],
  ],
  // SVG shapes, digits and letters that take clicks; seats named only by <title>.
  'svg-shapes': [
    [S1, 'Click on a large yellow circle', click('s-yellow-large-circle')],
    [S1, 'click the red square', click('s-red-square')],
    [S1, 'Click on the digit 7', click('s-digit-7')],
    [S1, 'Click on a small blue triangle', click('s-blue-small-triangle')],
    [S1, 'Click on the letter k', click('s-letter-k')],
    [S1, 'click on a small yellow circle', click('s-yellow-small-circle')],
    [S1, 'Click on a red digit', click('s-digit-3')],
    [S1, 'click the large red circle', click('s-red-large-circle')],
    [S1, 'Click on a green triangle', click('s-green-large-triangle')],
    [S1, 'click on the blue square', click('s-blue-square')],
    [SS, 'select seat 4B', click('seat-4B')],
    [SS, 'click seat 2D', click('seat-2D')],
    [SS, 'choose seat 6A', click('seat-6A')],
  ],
  // Colour swatches: divs, spans and table cells with a background colour and a handler.
  colours: [
    [C1, 'Click on the green colored box.', click('c-green')],
    [C1, 'click the blue swatch', click('c-blue')],
    [C1, 'Click on the purple colored box.', click('c-purple')],
    [C1, 'click the orange one', click('c-orange')],
    [CP, 'choose the pink colour', click('sw-pink')],
    [CP, 'click the navy swatch', click('sw-blue')],
    [CP, 'select black', click('sw-black')],
    [CL, 'pick red', click('p-red')],
    [CL, 'click the yellow one', click('p-yellow')],
    [CL, 'Click on the blue colored box.', click('p-blue')],
  ],
  // Tic-tac-toe, calendars (hand-made and jQuery UI), trees, sliders, a selectable list.
  'custom-widgets': [
    [TTT, 'click the center cell', click('ttt-4')],
    [TTT, 'click the top-left cell', click('ttt-0')],
    [TTT, 'Click the bottom right square.', click('ttt-8')],
    [TTT, 'place an X in the top right corner', click('ttt-2')],
    [CAL, 'click on 15', click('day-15')],
    [CAL, 'choose March 22', click('day-22')],
    [CAL, 'go to the next month', click('next-month')],
    [DP, 'Click on 15', click('dp-15')],
    [DP, 'select February 29', click('dp-29')],
    [TR, 'expand "Documents"', click('c-documents')],
    [TR, 'expand the Pictures folder', click('c-pictures')],
    [TR2, 'expand components', click('tw-components')],
    [TR2, 'expand the tests folder', click('tw-tests')],
    [TR2, 'open index.ts', click('f-index')],
    [SL, 'click the slider handle', click('price-handle')],
    [SL, 'click the distance slider knob', click('dist-knob')],
    [LS, 'select Banana in the list', click('fr-banana')],
    [LS, 'choose Mango', click('fr-mango')],
  ],
  // contenteditable areas, tabindex=0 cards and labels, draggable cards.
  'editable-focusable-draggable': [
    [ED, 'click into the comment box', focus('comment')],
    [ED, 'type "Same here on a 700-card board" in the comment box', { acts: 'comment', text: 'Same here on a 700-card board' }],
    [ED, 'focus the editable title', focus('title')],
    [ED, 'click the bug label', click('lab-bug')],
    [KB, 'click the "Write API docs" card', click('k-docs')],
    [KB, 'click + Add a card in the Doing column', click('add-doing')],
    [KB, 'open the Export to CSV card', click('k-export')],
    [PL, 'choose the Standard plan', click('plan-standard')],
    [PL, 'select the Premium plan', click('plan-premium')],
    [PL, 'click the Basic plan card', click('plan-basic')],
  ],
  // Other wordings of tasks on the same pages, written after the model was tuned on the
  // categories above: purposes, places, dates and kinds said differently.
  paraphrases: [
    [LB, 'reply to Maya', click('c1-reply')],
    [LB, 'like the comment by Tom', click('c2-like')],
    [LB, "click the Reply link below Priya's comment", click('c3-reply')],
    [OT, 'reject order 1003', click('reject-1003')],
    [OT, 'click Approve for Ada Lovelace', click('approve-1003')],
    [OT, 'restock the blue mug', click('restock-mug')],
    [OT, 'reject the order from Nikola Tesla', click('reject-1002')],
    [IF, 'remove notes.txt', click('del-notes')],
    [IF, 'click the trash icon for budget.xlsx', click('del-budget')],
    [IF, 'delete the budget spreadsheet', click('del-budget')],
    [IW, 'decrease the quantity', click('minus')],
    [IW, 'dismiss the coupon banner', click('toast-close')],
    [IW, 'close the chat window', click('chat-close')],
    [TTT, 'click the middle square', click('ttt-4')],
    [TTT, 'click the bottom-left cell', click('ttt-6')],
    [TTT, 'click the square in the bottom left corner', click('ttt-6')],
    [TTT, 'click the top middle cell', click('ttt-1')],
    [CAL, 'pick the 22nd', click('day-22')],
    [CAL, 'click March 5th', click('day-5')],
    [CAL, 'go to the previous month', click('prev-month')],
    [TR2, 'collapse src', click('tw-src')],
    [TR2, 'open the components folder', click('tw-components')],
    [ML, 'open Drafts', click('f-drafts')],
    [ML, 'click on the message from Grace Hopper', click('m-grace')],
    [ML, 'compose a new email', click('compose')],
    [WZ, 'go back', click('w-back')],
    [WZ, 'go to the next step', click('w-next')],
    [DB, 'dismiss the dialog', click('m-x')],
    [CAL, 'choose April 3', REFUSE],
    [KB, 'click Add a card under Done', REFUSE],
  ],
  // Things that are not on the page: the only right answer is a refusal.
  refusals: [
    [LL, 'Click on the link "lorem".', REFUSE],
    [LL, 'Click on the link "voluptatem".', REFUSE],
    [LB, 'click the subscribe button', REFUSE],
    [DN, 'Click the button in the dialog box labeled "Delete".', REFUSE],
    [TD, 'switch to the Integrations tab', REFUSE],
    [TJ, 'Click on Tab #4.', REFUSE],
    [OI, 'Focus into the 7th input textbox.', REFUSE],
    [W3, 'Click on a "checkbox" widget.', REFUSE],
    [W2, 'Click on a "radio" widget.', REFUSE],
    [S1, 'Click on a purple circle', REFUSE],
    [S1, 'Click on the digit 5', REFUSE],
    [C1, 'Click on the pink colored box.', REFUSE],
    [CAL, 'click on 32', REFUSE],
    [T1, 'close the dialog', REFUSE],
    [ED, 'click the Delete issue button', REFUSE],
    [TR, 'expand "Downloads"', REFUSE],
    [SS, 'select seat 9F', REFUSE],
    [IF, 'delete invoice.pdf', REFUSE],
    [T3, 'click the link', REFUSE],
    [OL, 'click the fifth link', REFUSE],
  ],
};

export const WILD_CASES: WildCase[] = Object.entries(table).flatMap(([cat, rows]) =>
  rows.map(([page, say, expect]) => ({ cat: cat as WildCategory, page, say, expect })),
);

export const WILD_CATEGORIES = Object.keys(table) as WildCategory[];

/**
 * Records the page's events (capture phase, so page handlers cannot hide them), keyed by the
 * nearest element with an id. A click on a <label> counts for the control it labels.
 */
export const WILD_RECORDER = (): void => {
  // No named inner functions: bundlers that keep names would wrap them in a helper the page lacks.
  const w = window as unknown as { __events?: string[] };
  if (w.__events) return;
  w.__events = [];
  for (const type of ['click', 'dblclick', 'contextmenu', 'input', 'change', 'focusin', 'keydown']) {
    document.addEventListener(
      type,
      (e) => {
        const t = e.target instanceof Element ? e.target : null;
        const control = t?.closest('label')?.control;
        const id = control?.id || t?.closest('[id]')?.id || 'document';
        w.__events!.push(`${type}:${id}`);
      },
      true,
    );
  }
  // Links stay on the page.
  document.addEventListener(
    'click',
    (e) => {
      if (e.target instanceof Element && e.target.closest('a')) e.preventDefault();
    },
    true,
  );
};

export interface WildVerdict {
  outcome: WildOutcome;
  /** What happened, for the report: the ids touched, the error, the state found. */
  detail: string;
}

/** Opens the case's page, gives the instruction, and judges what the page saw. */
export async function judgeWild(dh: Deckhand, page: Page, origin: string, c: WildCase): Promise<WildVerdict> {
  await page.goto(`${origin}/wild/${c.page}`);
  await page.evaluate(WILD_RECORDER);
  const r = await dh.act(c.say).catch((e: Error) => ({ error: e.message }));
  const events = await page.evaluate(() => (window as unknown as { __events: string[] }).__events);
  const touched = [...new Set(events.filter((x) => /^(click|dblclick|contextmenu|input|change):/.test(x)).map((x) => x.split(':')[1]!))];
  const e = c.expect;
  // An error is a failure to act; it is a wrong action only if something was touched on the way.
  if ('error' in r)
    return touched.length
      ? { outcome: 'wrong', detail: `error after touching ${touched.join(', ')}: ${r.error}` }
      : { outcome: 'refused', detail: `error: ${r.error}` };
  if (!r.data.success) {
    // A refusal after acting on something is still an action.
    if (touched.length) return { outcome: 'wrong', detail: `answered success:false but touched ${touched.join(', ')}` };
    return { outcome: 'refuse' in e ? 'correct' : 'refused', detail: r.data.message };
  }
  if ('refuse' in e) return { outcome: 'wrong', detail: `acted (${r.data.message}); touched ${touched.join(', ') || 'nothing'}` };
  const ids = Array.isArray(e.acts) ? e.acts : [e.acts];
  const others = touched.filter((id) => !ids.includes(id));
  if (others.length) return { outcome: 'wrong', detail: `touched ${others.join(', ')} (${r.data.message})` };
  const on = e.on ?? (e.value !== undefined || e.text !== undefined ? 'input' : e.checked !== undefined ? null : 'click');
  if (on && !ids.some((id) => events.includes(`${on}:${id}`))) {
    return { outcome: 'wrong', detail: `no ${on} reached ${ids.join('|')} though it answered success (${r.data.message})` };
  }
  if (e.value !== undefined || e.checked !== undefined || e.text !== undefined) {
    const state = await page.evaluate((id) => {
      const el = document.getElementById(id) as HTMLInputElement;
      return { value: el.value, checked: el.checked, text: (el.textContent ?? '').trim() };
    }, ids[0]!);
    if (e.value !== undefined && state.value !== e.value) return { outcome: 'wrong', detail: `value is ${JSON.stringify(state.value)}` };
    if (e.checked !== undefined && state.checked !== e.checked) return { outcome: 'wrong', detail: `checked is ${state.checked}` };
    if (e.text !== undefined && state.text !== e.text) return { outcome: 'wrong', detail: `text is ${JSON.stringify(state.text)}` };
  }
  return { outcome: 'correct', detail: r.data.message };
}
