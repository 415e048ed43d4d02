/** What the planner gives and reads: a step (PlanStep) with the sets and conditions it may carry, and what it knows of the page. */
import type { Transform } from '../refs';
import type { Comparison } from '../text';
import type { Trip } from '../trips';
import type { SortSpec } from '../sorting';
import type { Draw } from '../draws';
import type { Guess } from '../guessing';
import type { ScrollWay } from '../secrets';
import type { SpotKind } from '../geometry';
import type { FileSpec } from '../shell';

export interface PlanStep {
  /** One instruction for the single-step engine. */
  say: string;
  /** Other phrasings, tried in order when `say` grounds nowhere (the page may call Login "Sign in"). */
  or?: string[];
  /** The target may be hidden in a collapsed section or another tab: reveal them to look for it. */
  search?: boolean;
  /**
   * After typing, click the suggestion that fits: the one that is (or alone begins with) what
   * was typed (`typed`), or the one the instruction describes ("starts with Ger and ends with ny").
   */
  pick?: { startsWith?: string; endsWith?: string; typed?: boolean; any?: boolean };
  /** "click the 3rd search result": the nth result of the page's results list (1-based; -1 the last), on later result pages if need be. */
  result?: number;
  /** "pick Porto from the suggestions": the shown suggestion that is (or alone begins with) this. */
  suggestion?: string;
  /** A log-in or submit click the instruction implied rather than placed: it goes after the other steps. */
  implied?: boolean;
  /**
   * The value typed is a description of something on the page ("the value of Year of Birth",
   * "the text below"): read it off the page when the step runs (its quoted form in `say` is
   * replaced by what was read), or refuse. Never typed as written.
   */
  ref?: string;
  /** "in all lower case", "reversed": applied to the value read for `ref`. */
  transform?: Transform;
  /** "expand the section below": open the one collapsed section (or look through several for the steps after it). */
  expand?: boolean;
  /** A menu item hovered to open its submenu: if the next item does not show, it is clicked instead. */
  opens?: boolean;
  /** "buy when the price is less than $50": watch the page until the number it names passes the threshold, then act. */
  when?: Condition;
  /** "wait 1 second": a pause of this many milliseconds, nothing else. */
  wait?: number;
  /** With a condition read once: the step taken when it does not hold ("otherwise press No"). */
  otherwise?: string;
  /** A set of targets chosen on the page when the step runs, each clicked in turn (or one picked by a property). */
  each?: Each;
  /** "the email from Alice": open the item (message, post, row) by or about this, by clicking it. */
  openItem?: string;
  /** "Find adventure movies directed by Holt from 1991": the parts of a search, into the form's fields, then its search button. */
  searchForm?: string;
  /**
   * A pointer drag of `target` (words for the single-step reading to ground): by a direction
   * ("left", "all the way to the right"), or to the first or last place among its like siblings
   * ("to the top of the list", "to the 1st position").
   */
  /** A drag by an offset, or to a place in its list: the first, the last, or the nth (1-based). */
  /**
   * `shift`: so many places that way along the item's list or grid ("down by one position", "left by one"); `cell`: a
   * place of a grid by its row and column ("to the top left", "to the center"). Both worked out from where things are then.
   */
  drag?: {
    target: string;
    dx?: number;
    dy?: number;
    to?: 'first' | 'last' | number;
    shift?: { way: 'up' | 'down' | 'left' | 'right'; by: number };
    cell?: { row: 'top' | 'middle' | 'bottom'; col: 'left' | 'middle' | 'right' };
  };
  /** "from Boston to Denver on 12/03": the booking page's search form filled and run. */
  trip?: Trip;
  /** "Find Lynne in the contact book and click her phone number": a field's control in a person's record, on later pages if need be. */
  record?: { who: string; field: string };
  /** The trip result a superlative picks ("the cheapest"), booked with its own control, or only named when `look`. */
  tripResult?: { order?: string; look?: boolean };
  /** "Sort the numbers in increasing order": the page's one movable list, each item moved to its place in turn. */
  sort?: SortSpec;
  /** "Playing as X, win this game of tic-tac-toe": moves on the page's one board until a line of the mark shows. */
  game?: { mark: 'X' | 'O' | 'either' };
  /** "Guess the number between 0-9 and press Submit": guesses typed and sent, halving the range by the page's answers. */
  guess?: Guess;
  /** "Generate a number less than 7": the page's button clicked until the number it shows fits. */
  draw?: Draw;
  /** "Use the terminal below to delete the .gif file": the page's command line lists the files, removes the one, lists again. */
  removeFile?: FileSpec;
  /** "Close the welcome message": the page's dialog (named by `words` when it has several) closed by its control or `key`, then gone. */
  dismiss?: { words: string; key?: 'Escape' };
  /**
   * "Acknowledge the content warning", "prove you're human by agreeing to our terms": the page's one consent box ticked,
   * then its one control that goes on clicked (after a tick only when `press`: the task's end is what the page shows next).
   */
  consent?: { kind: 'warning' | 'terms' | 'human'; press?: boolean; series?: boolean };
  /**
   * "Click on the midpoint between the two points", "the center of the circle", "bisect the angle": that point of the page's
   * drawing, clicked; "draw a line through the dot", "a circle around the point": that stroke drawn.
   */
  spot?: { at: SpotKind; dir?: 'horizontal' | 'vertical' };
  /** "Hold the button for exactly 3 seconds": the control the words name pressed, held this long, then released. */
  hold?: { target: string; ms: number };
  /**
   * "Click the moving target three times": the page's one element that moves, clicked where it is at each moment, `times`
   * times; with no number and a secret to read after it (`untilShown`), until the page shows one (at most 10 clicks).
   */
  moving?: { noun: string; times?: number; untilShown?: boolean };
  /**
   * "Right-click a large, obvious area": the page's one element whose name says it is the place to right-click; with none,
   * the words as said (`said`: "right-click the box" on a page with one box).
   */
  rightClickHere?: { said: string };
  /**
   * "Navigate through the menu bar to find the secret option": the page's menus opened in turn until the item shows; then
   * clicked when the words say so, or the page's secret is what the task ends with. `exact`: only an item of that very
   * name (a plain click by name), not one whose name holds the words.
   */
  menuFind?: { target: string; click?: boolean; exact?: boolean };
  /** "Close the popup windows": every pop-up closed by its own close control, one at a time, until none is left. */
  dismissAll?: boolean;
  /** "Expand the pie menu below": the page's one control that opens a menu (of that kind), clicked; the next steps look in it. */
  openMenu?: { kind?: string };
  /** "Scroll down the feed until you find X and click it": the page (or the scroll area named `within`) scrolled until X shows. */
  scrollFind?: { target: string; within?: string };
  /** "Go through the carousel to find X and click it": the carousel's Next control until X shows. */
  slideFind?: { target: string };
  /** "Rate it 4 stars": the control named for that many stars, or that star of the page's one row of stars. */
  rate?: { stars: number; of?: number };
  /** "Make the text area wider": the box's resize grip dragged by this much (the box as words for the single-step reading to ground). */
  resize?: { target: string; dx: number; dy: number };
  /** "Drag all circles into the black box": every piece of that kind dragged onto the target, each move checked. */
  dragEach?: { what: string; to: string; rest?: string };
  /** "Drag the smaller box into the larger box": the thing said by its size dragged wholly inside the other. */
  dragSized?: { what: string; which: 'small' | 'large'; onto: string; ontoWhich: 'small' | 'large' };
  /**
   * "Order one of each item: A, B", "order 3 items that are vegan": each item's add control ("+") clicked that many times
   * (items of a kind: the first ones of it, one each), then the page's one control that sends the order.
   */
  order?: { items?: string[]; kind?: string; count?: number };
  /** "Transport a wolf, goat, and cabbage across the river safely": crossings worked out from the page's rules, then made. */
  river?: { items: string[] };
  /** "Navigate a maze to find the exit": the page's doors tried in turn, going back from dead ends, until a secret shows. */
  maze?: boolean;
  /** "Stack 3 disks on the rightmost peg": the Towers of Hanoi solved with the page's three peg pickers, one move at a time. */
  hanoi?: { disks?: number };
  /** "Click on the grid coordinate (-2,1)": the cell named so, else the point of a lattice with numbered axes there. */
  coord?: { x: number; y: number };
  /** "... and obtain the password": the secret the steps before it revealed, read off the page (on the page `url` names). */
  secret?: { url?: string; send?: boolean };
  /** "Scroll down to find the password": the page (and its scroll areas) scrolled that way until a secret shows, then read. */
  reveal?: { way: ScrollWay; url?: string };
}

/**
 * "Click the numbers in ascending order", "open all the links that mention cats", "like all posts
 * by Kim", "click the greatest number", "click the odd number".
 */
export interface Each {
  /** Targets named by a number, clicked in this order. */
  order?: 'asc' | 'desc';
  /** Of the targets named by a number, only the one that is: the greatest, the least, the only odd or even one. */
  pick?: 'max' | 'min' | 'odd' | 'even';
  /** The targets may lie face down (cards, tiles): each is turned up by a click to read its number, then the one picked. */
  turn?: boolean;
  /** Targets of these roles whose name mentions this. */
  mention?: string;
  roles?: string[];
  /** Inside each item (post, message, row) by or about this, the control named `verb`. */
  by?: string;
  verb?: string;
  /** Exactly one item is meant ("delete the email from Carol"); when it shows no such control, it is opened first. */
  one?: boolean;
  /** The control used instead of `verb` when the opened item shows none of that name ("star" for "mark as important"). */
  standIn?: string;
  /** This many of the items, the first ones the page shows ("like 2 posts by @ruth"). */
  count?: number;
  /** In each item that shows one number, the control named for what the number is ("mark the numbers as odd or even"). */
  classify?: 'parity';
  /** The tiles whose colour is a shade of this hue ("select all the shades of blue"). */
  shade?: string;
  /** Every control of these roles, once each ("click everything on the page", "click all the buttons"); boxes ticked stay. */
  all?: string[];
}

/** A condition on what the page shows: a number against a threshold, or a box that is ticked. */
export interface Condition {
  kind: 'number' | 'checked';
  /** What the number is called on the page ("price"), or the box's name ("the checkbox"). */
  subject: string;
  op: Comparison;
  value: number;
  /** The threshold was written as money ("$50", "50 dollars"): the page's one amount of money may be the number. */
  currency?: boolean;
  /** Read once when the step's turn comes (if/otherwise), rather than watched until it holds. */
  now?: boolean;
  /** The words as the instruction has them, for messages. */
  text: string;
}

/** What the planner knows of the page: the names (labels, placeholders) of its text fields and of its other controls. */
export interface PlanPage {
  fields: string[];
  names: string[];
  /** How many controls of each role the page shows, where the caller counted them. */
  roles?: Record<string, number>;
}
