/**
 * A task whose end is a secret the page reveals ("Scroll down to find the password", "Close the popups to reveal the
 * secret password", "... and obtain the password for the game"): the steps, then the secret read off the page.
 */
import { type Phrases } from './grammar';

/** What a page reveals as the proof a task was done. */
export const SECRET_NOUNS: Phrases = [
  '(?:secret |hidden |real |true |game )?password',
  '(?:secret |hidden )?(?:passcode|passphrase|pass phrase)',
  'secret (?:code|word|key|phrase|token)',
  'code word',
];
/** Verbs of a purpose clause that ends on the secret ("to reveal the password", "to find the secret code"). */
export const SECRET_VERBS: Phrases = ['reveal', 'find', 'get', 'obtain', 'unlock', 'uncover', 'discover', 'retrieve'];
/** What a control that shows the secret is called, with a secret noun after it ("Reveal password", "Show the secret code"). */
export const REVEALER_VERBS: Phrases = ['reveal', 'show', 'unlock', 'uncover', 'display', 'view', 'get'];
/** Words before the task itself in a wrapper text ("Your task is: ..."). */
export const TASK_OPENERS: Phrases = ['your task is', 'the task is', 'your goal is', 'your challenge is', 'task'];
/** Verbs that hand the secret back ("report the password", "obtain and report it"). */
export const SECRET_REPORTS: Phrases = ['report', 'return', 'give', 'state', 'tell me', 'give me', 'provide', 'obtain and report', 'find and report'];
/** Verbs that only fetch the secret, with no step of their own ("obtain the password for the game"). */
export const SECRET_FETCHES: Phrases = ['obtain', 'get', 'find', 'retrieve', 'collect', 'read'];
/** What the secret belongs to, said after it ("the password for the game"). */
export const SECRET_OWNERS: Phrases = ['game', 'challenge', 'task', 'level', 'puzzle'];
/** Going to the task's page, said before the secret is asked for ("You must go to <address> and ..."). */
export const GO_TO_PAGE: Phrases = ['go to', 'visit', 'open', 'navigate to', 'head to'];
/**
 * Sentences that say how hard a task is and ask for nothing ("Fewer boxes.", "Good luck!", "Harder!"): dropped, never
 * read as a step.
 */
export const REMARKS: Phrases = [
  'good luck',
  'have fun',
  '(?:much |a bit |a little )?(?:easier|harder)',
  '(?:many |much |a few |far )?(?:more|fewer|less) (?:boxes|items|steps|rows|text|content)',
  "(?:it(?:'s| is) )?(?:slower|faster)(?: and (?:requires|needs) (?:fewer|more) (?:hits|clicks))?",
  "(?:it(?:'s| is) )?(?:faster|slower) and (?:requires|needs) (?:fewer|more) (?:hits|clicks)",
  // A warning's own threat, repeated in the task ("Your actions are being monitored.").
  '(?:your|all) (?:actions|activity|visits?) (?:are|is|will be) (?:being )?(?:monitored|watched|logged|recorded|tracked)',
];
/** Clauses after a task that say how hard it is ("..., with no placeholder hint", "..., with a hint available"): dropped. */
export const TRAILING_REMARKS: Phrases = [
  'with (?:no|a|an|some) (?:placeholder |format )?hints?(?: available| shown| given)?',
  'with (?:more|fewer|less) (?:decoys|items|boxes|help)',
  "(?:it is |it's )?(?:easier|harder)",
];
/** How far a scroll goes, said in words that name no place ("a short way", "many more boxes"): to the end, all the same. */
export const SCROLL_SPANS: Phrases = [
  'all the way(?: (?:down|to the (?:bottom|end)))?',
  '(?:a|an) (?:short|long|extremely long|very long|little) way',
  '(?:many |much |a few |far )?(?:more |fewer |less )?(?:boxes|items|rows|columns|cards)',
  'to the (?:bottom|end|very bottom|very end)(?: of (?:the|this) (?:page|screen|window))?',
  'to the (?:far )?right',
];
/** Where a scroll goes: down, right, or both (diagonal), by the words that say it. */
export const SCROLL_WAYS: Readonly<Record<'down' | 'right' | 'both', Phrases>> = {
  down: ['down', 'downwards', 'to the bottom', 'all the way down', 'to the bottom of (?:the|this) (?:page|screen|window)'],
  right: ['right', 'to the right', 'sideways', 'horizontally'],
  both: ['diagonally', 'to the bottom-right corner', 'to the bottom right corner', 'through diagonal scrolling'],
};
/** Words between a secret's name and its value ("Password revealed: X", "Your secret code unlocked: X"). */
export const SECRET_SAID_AS: Phrases = ['revealed', 'unlocked', 'found', 'shown', 'earned', 'for this (?:game|challenge|level)'];
/** Words before a label that stands alone on its line ("Here's your password:"). */
export const SECRET_LABEL_LEADS: Phrases = ["here(?:'s| is) (?:the|your)", 'the', 'your'];
/** Words that are the label of a secret's line and never its value ("Password: hidden", "the password is below"). */
export const NOT_A_SECRET: Phrases = [
  'is',
  'here',
  'below',
  'above',
  'hidden',
  'revealed',
  'shown',
  'required',
  'incorrect',
  'wrong',
  'correct',
  'invalid',
  'the',
  'your',
  'a',
  'not',
  'none',
  'unknown',
  'protected',
  'field',
];
/** The control that sends what a task typed when the page shows nothing yet ("Submit", "Check", "Verify"). */
export const SEND_NAMES: Phrases = [
  'submit',
  'submit answer',
  'check',
  'check answer',
  'verify',
  'go',
  'done',
  'ok',
  'okay',
  'save',
  'enter',
  'confirm',
  'send',
  'unlock',
];
const MIRROR_VERBS = '(?:perfectly |exactly |carefully )?(?:copy|retype|re-type|reproduce|mirror|type out|type)';
const MIRRORED = '(?:text|sentence|passage|paragraph)';
/** A text copied with no place named ("Perfectly copy the text"): where a challenge wants it is the page's one text field. */
export const MIRROR_TASKS: Phrases = [
  // "the shorter, simpler text", "the longer, more complex text with code and special characters".
  `${MIRROR_VERBS} the (?:[a-z-]+,? ){0,4}${MIRRORED}(?: with [a-z ,-]+?)?(?: shown| below| above| on the page)?(?: exactly| perfectly)?` +
    '(?: as (?:it is )?(?:shown|written))?',
];
