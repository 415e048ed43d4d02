/**
 * Menus, sections and pages: where a target may be folded away ("in one of the tabs"), the
 * names of the controls that open more ("Show more", "Next"), that page through results, step a
 * calendar, or close a dialog.
 */
import { type Phrases } from './grammar';

/** Moving among the places a target may be folded away in ("switch between the tabs"). */
export const LOOK_THROUGH_VERBS: Phrases = ['switch', 'navigate', 'go', 'move', 'click', 'look', 'browse', 'flip', 'cycle'];
export const LOOK_THROUGH_WAYS: Phrases = ['between', 'through', 'across', 'among', 'around'];
/** Places that fold content away ("the tabs", "the file tree", "the menus"). */
export const FOLDS: Phrases = ['tabs?', 'sections?', 'panels?', 'pages?', 'tree', 'folders?', 'menus?'];
/** Where a target may be hidden ("in the sections below", "inside one of the accordions"). */
export const HIDDEN_IN: Phrases = ['tabs?', 'sections?', 'panels?', 'accordions?', 'pages?', 'headings?', 'tree', 'folders?', 'menus?'];
/** Parts of a page that open to show more ("expand the collapsed panel"). */
export const FOLDED_PARTS: Phrases = ['sections?', 'panels?', 'accordions?', 'parts?', 'area', 'details', 'contents?'];

/** Names a section's own control may have alone ("More", "Show more"). */
export const SECTION_WORDS: Phrases = ['show', 'more', 'details', 'advanced', 'options', 'more options', 'show more', 'expand'];
/** Names of controls that lead to more of a form or a page: what follows them may not show yet. */
export const ONWARD_WORDS: Phrases = [
  ...['next', 'continue', 'proceed', 'more', 'show', 'expand', 'open', 'search', 'go', 'load', 'menu', 'options', 'step', 'start'],
  ...['begin', 'filter', 'add', 'new', 'edit', 'details', 'advanced', 'view'],
];

/** A calendar's controls to the next and the previous month. */
export const NEXT_MONTH: Phrases = ['next(?: month)?', '›', '»', '>', '→', '▶', '⟩'];
export const PREVIOUS_MONTH: Phrases = ['prev(?:ious)?(?: month)?', '‹', '«', '<', '←', '◀', '⟨'];

/** A results pager's controls, and those of them that go to the next page. */
export const PAGER: Phrases = [
  '\\d{1,3}',
  'next',
  'next page',
  'next(?: page)? *[›»>→]+',
  '[‹«<←]+ *prev(?:ious)?(?: page)?',
  'previous',
  'prev',
  'previous page',
  'more results',
  'older',
  'newer',
  'first',
  'last',
  '[›»>‹«<]+',
];
export const NEXT_PAGE: Phrases = ['next', 'next page', 'more results', 'older', '[›»>]+', 'next(?: page)? *[›»>→]+'];

/** A dialog's close control by its whole name, and the answers that decline what it asks. */
export const CLOSE_NAMES: Phrases = ['close', '×', '✕', '✖', 'x', 'dismiss'];
export const DECLINE_NAMES: Phrases = ['no,? thanks', 'not now', 'maybe later', 'skip', 'cancel', 'no'];

/** Lists that suggest what was typed ("pick Porto from the suggestions"), and what a suggestion is called. */
export const SUGGESTION_LISTS: Phrases = ['suggestions', 'suggestion list', 'autocomplete(?: list)?', 'search results'];
export const SUGGESTED: Phrases = ['item', 'value', 'entry', 'option', 'word', 'country', 'city', 'name', 'one'];

/** Names of an item's control that opens its menu of further actions ("More", "⋯"). */
export const MORE_NAMES: readonly string[] = ['more', 'more options', 'more actions', 'options', 'actions', 'menu'];

/** "Open the context menu of report.pdf": a right-click on it. */
export const CONTEXT_MENU_OPENERS: Phrases = ['(?:open|bring up|show|display|pull up) (?:the )?(?:context|right[- ]click|shortcut) menu (?:of|for|on)'];
/**
 * A right-click asked for with no place named but by how it looks ("right-click a large, obvious area", "use your context
 * menu skills"): the page's one element whose own name says it is the place to right-click.
 */
export const RIGHT_CLICK_ANYWHERE: Phrases = [
  'right[- ]?click(?: on)?(?: (?:a|an|the|some|this))?(?: (?:large|big|small|tiny|obvious|specific|hidden|certain|right|correct|special|secret)[, ]*)*' +
    '(?: (?:area|spot|place|region|zone|box|target|element|part of the page))?(?: (?:among|between) (?:the )?decoys)?',
  'right[- ]?click (?:here|somewhere|anywhere)',
  'use (?:your|the) (?:context|right[- ]click) menu(?: skills)?',
];
/** What an element is named when it is the place to right-click ("Right-click here", "Right click me", "Open the context menu"). */
export const RIGHT_CLICK_NAMES: Phrases = ['right[- ]?click', 'context menu'];
/** "Double-click report.pdf to open it": what a click is for, said after its target (the click is the step). */
export const CLICK_PURPOSES: Phrases = ['to (?:open|edit|view|see|launch|start|expand|rename|select) (?:it|them|this|that|the file|the item)'];
/** The verbs a purpose may follow. */
export const PURPOSED_CLICKS: Phrases = ['double[- ]?click', 'right[- ]?click', 'click', 'tap'];
/** What a dialog is called in an instruction ("close the welcome message", "dismiss the popup"). */
export const DIALOG_NOUNS: Phrases = [
  'dialog(?: box)?',
  'pop-?up(?: window)?',
  'modal(?: window)?',
  'message',
  'notice',
  'alert',
  'overlay',
  'prompt',
  'announcement',
  'window',
];
export const DISMISS_VERBS: Phrases = ['close', 'dismiss', 'hide', 'exit', 'get rid of', 'shut'];
/** Pop-ups named as many ("close the annoying popup windows", "dismiss all the pop-ups"): each closed in turn. */
/** One pop-up, said of each ("close every popup"). */
export const POPUP: Phrases = ['pop-?up', 'pop-?up window', 'dialog', 'modal', 'overlay', 'window', 'ad'];
export const POPUPS: Phrases = ['pop-?ups', 'pop-?up windows', 'popup boxes', 'dialogs', 'dialog boxes', 'modals', 'overlays', 'windows', 'ads', 'adverts'];
/** The keys that close a dialog when it shows no control that does. */
export const DISMISS_KEYS: Phrases = ['esc', 'escape'];
/** "Scroll down the feed until you find X and click it": how the target is said to come up, and what is done to it. */
export const SCROLL_VERBS: Phrases = ['scroll', 'keep scrolling', 'scroll down', 'scroll through', 'scroll down through'];
export const UNTIL_FOUND: Phrases = ['you (?:find|see|reach|get to|come to|spot)', 'you can see'];
export const UNTIL_SHOWN: Phrases = ['appears', 'shows up', 'is (?:visible|shown|loaded)', 'comes into view', 'loads'];
export const FOUND_ACTS: Phrases = ['click', 'open', 'select', 'press', 'tap'];
/** "Go through the carousel to find X and click it": what a carousel is called, and its control to the next slide. */
export const CAROUSELS: Phrases = ['carousel', 'slideshow', 'slide ?show', 'slides', 'image gallery', 'gallery'];
export const NEXT_SLIDE_NAMES: Phrases = ['next', 'next slide', 'next image', '›', '»', '>', '→', '▶', '❯', '⟩', 'forward'];
export const SEARCH_THROUGH_VERBS: Phrases = ['go', 'look', 'browse', 'flip', 'cycle', 'click', 'page', 'scroll', 'navigate'];

/** "Expand the pie menu below": kinds of menu a page opens from one control of its own (not a menu named "File"). */
export const MENU_KINDS: Phrases = [
  'pie',
  'radial',
  'wheel',
  'circular',
  'round',
  'hamburger',
  'main',
  'navigation',
  'nav',
  'floating',
  'action',
  'drop-?down',
  'pop-?up',
  'side',
];
export const MENU_OPEN_VERBS: Phrases = ['expand', 'open', 'show', 'unfold', 'bring up', 'reveal', 'spread', 'display', 'pull up'];
/** The names of a control that opens the page's menu. */
export const MENU_OPENER_NAMES: Phrases = [
  '(?:open |show |toggle |main )?menu',
  'toggle navigation',
  'navigation',
  '\\+',
  '☰',
  '≡',
  '⋮',
  '⋯',
  '…',
  'more',
  'more options',
];
/** An item looked for through a page's menus ("navigate through a menu bar to find the secret option"): (1) the verb, (2) the item. */
export const MENU_SEARCHES: Phrases = [
  '(?:navigate|go|look|search|browse|dig) (?:through |in )?(?:the |a |its )?(?:(?:simplified|complex|deeply|nested|top|main)[, ]+)*' +
    '(?:menu ?bar|menus?)(?: and (?:its )?submenus)? to (find(?: and (?:click|select|choose))?) (.+?)',
  '((?:find|locate|look for|search for)(?: and (?:click|select|choose))?) (.+?) (?:in|through|somewhere in|inside) (?:the |a |its )?(?:nested )?' +
    '(?:menu ?bar|menus)',
];
/**
 * Names of an application's menus ("File", "Edit", "View", "Help"): a row of plain buttons holding two or more of them is a
 * menu bar, whose buttons open menus even when nothing marks them.
 */
export const APP_MENU_NAMES: Phrases = [
  'file',
  'edit',
  'view',
  'help',
  'tools',
  'window',
  'insert',
  'format',
  'options',
  'settings',
  'selection',
  'history',
  'bookmarks',
  'terminal',
  'run',
  'go',
];
/** Words of a sought item that stand for the secret it shows ("the secret option", "the hidden option"). */
export const SECRET_ITEM_WORDS: Phrases = ['secret', 'hidden'];
