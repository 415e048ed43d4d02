/**
 * Messages and posts named by their sender or author: the many ways people say to forward, reply to, mark or delete one
 * (forwardSaid, itemFirst), and the steps that act on it (itemSteps).
 */
import { either, oneOf } from '../words/grammar';
import {
  CONTROL_NOUNS,
  FIND_ITEM_VERBS,
  ICON_VERBS,
  ITEM_BY,
  ITEM_NOUNS,
  ITEM_OWNERS,
  ITEM_PRONOUNS,
  ITEM_VERB_ALIASES,
  ITEM_VERBS,
  ITEMS,
  ITEMS_BY,
  MARK_STATES,
  NEWEST,
  ONE_OF_THEIRS,
  OPEN_VERBS,
  REPLY_VERBS,
  REPLY_WITH,
  MARK_STAND_INS,
  SEND_ON_VERBS,
  FIND_MESSAGE_VERBS,
  SEND_IT_VERBS,
  DONE_TO_ITEM,
  SENT_VERBS,
  ASK_ON_IT,
  NOT_OF_A_NAME,
  MAIL_PLACES,
} from '../words/messages';
import { CLICK_VERBS } from '../words/verbs';
import { COUNT_PHRASE, COUNT_WORDS } from '../words/numbers';
import type { PlanStep } from './types';
import { bare, quoteValue, restore } from './clauses';

/** "reply to the email from Alice with Thanks": (1) the verb, (2) who, then (3) the text or (4) whom it goes to. */
const ONE_ITEM = new RegExp(
  `^(${either(ITEM_VERBS)})\\s+(?:the\\s+|that\\s+|this\\s+)?(?:(?:${either(NEWEST)})\\s+)?(?:${either(ITEM_NOUNS)})\\s+(?:${either(ITEM_BY)})\\s+(.+?)` +
    `(?:\\s+(?:${either(REPLY_WITH)})\\s+(.+)|\\s+to\\s+(.+))?$`,
  'i',
);

/** "mark the email from Alice as important": (1) who, (2) the state its control is named for. */
const MARK_ITEM = new RegExp(
  // "Mark all emails from Alice as important": all of one sender's, planned as the one there is (two refuse).
  `^(?:mark|flag|tag|label)\\s+(?:the\\s+|all\\s+(?:of\\s+)?(?:the\\s+)?|every\\s+)?(?:(?:${either(NEWEST)})\\s+)?(?:${either(ITEM_NOUNS)})s?` +
    `\\s+(?:${either(ITEM_BY)})\\s+(.+?)` +
    `\\s+as\\s+(${either(MARK_STATES)})$`,
  'i',
);

/** "Find the email by Lucia and forward that email to Kimberly": (1) the noun, (2) who, (3) what is done to it. */
const FIND_ITEM = new RegExp(
  `^(?:${either(FIND_ITEM_VERBS)})\\s+(?:the\\s+|an?\\s+)?(?:(?:${either(NEWEST)})\\s+)?(${either(ITEM_NOUNS)})\\s+(?:${either(ITEM_BY)})\\s+(.+?)` +
    '(?:\\s*,\\s*(?:and\\s+)?|\\s+and\\s+)(?:then\\s+)?(.+)$',
  'i',
);
/** "click the trash icon (to delete it)": (1) the icon's word. */
const ICON_CLICK = new RegExp(`^(?:${either(CLICK_VERBS)})(?:\\s+on)?\\s+(?:the\\s+|its\\s+)?([\\w-]+)(?:\\s+(?:icon|button|symbol))?(?:\\s+to\\s+.+)?$`, 'i');
/** 'reply "Fusce in."', "reply with the text X" after the message is found: (1) the rest, the reply's text. */
// Only quoted text or text after "with"/"saying" is a reply's text: "reply all" and "reply quickly" are not.
const REPLY_QUOTE = '(?:\\u0000\\d+\\u0000|["“\'][^"”\']+["”\'])';
const REPLY_BARE = new RegExp(`^(?:${either(REPLY_VERBS)})\\s+(?:(?:${either(REPLY_WITH)})\\s+(.+)|(${REPLY_QUOTE}[.!]?))$`, 'i');
/** "forward that email to Kim", "reply to them with ...", "mark it as read": (1) the verb, (2) the rest. */
const ON_IT = new RegExp(`^(${either(ITEM_VERBS)}|mark|tag|label)\\s+(?:${either(ITEM_PRONOUNS)})\\b(.*)$`, 'i');

/** "For the user @jane, click on the Share button": (1) who, (2) what is done. */
const FOR_OWNER = new RegExp(`^for\\s+(?:the\\s+)?(?:${either(ITEM_OWNERS)})\\s+(\\S+(?:\\s+\\S+){0,2}?)\\s*,\\s*(.+)$`, 'i');
const CLICK_ON = `(?:${either(CLICK_VERBS)})(?:\\s+on)?\\s+(?:the\\s+)?(.+?)`;
const CONTROL = `${CLICK_ON}\\s+(?:${either(CONTROL_NOUNS)})`;
/** "click the Like button on all posts by @kim", "click Share on the post from Omar": (1) the control, (2) all, (3) who. */
const CONTROL_ON_ITEM = new RegExp(
  `^${CLICK_ON}(?:\\s+(?:${either(CONTROL_NOUNS)}))?\\s+(?:on|of|for|in|under)\\s+` +
    `(?:(all|every|each|${COUNT_PHRASE})\\s+(?:the\\s+|of\\s+the\\s+)?(?:${either(ITEMS)})|(?:the\\s+)?(?:${either(ITEM_NOUNS)}|item))` +
    `\\s+(?:${either(ITEMS_BY)})\\s+(.+)$`,
  'i',
);
/** "click on the like button of Omar Haddad", "the Share button for @jane": (1) the control, (2) a handle or a capitalised name. */
const CONTROL_OF_OWNER = new RegExp(`^${CONTROL}\\s+(?:of|for|by)\\s+(@[\\w.]+|[A-Z][\\w'-]*(?:\\s+[A-Z][\\w'-]*){0,2})$`);

/** A sender or author said by name or handle: capitalised words ("Lucia", "Tom Wu") or "@jane". */
const PERSON = '(@[\\w.-]+|[A-Z][\\w-]*(?:\\s+[A-Z][\\w-]*){0,2})';
/** Who a message is by, said after the name: "sent", "wrote". */
const SENT = `(?:${either(SENT_VERBS)})`;
/** "Lucia's email", "Kaila's last email": (1) who, (2) the noun with its word of time. */
const OWNED_ITEM = new RegExp(`\\b${PERSON}['’]s\\s+((?:(?:${either(NEWEST)})\\s+)?(?:${either(ITEM_NOUNS)}))\\b`, 'g');
/** Whom a message goes to: an address, a handle, or a name of one to three capitalised words. */
const RECIPIENT = "([\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+|@[\\w.]+|[A-Z][\\w'-]*(?:\\s+[A-Z][\\w'-]*){0,2})";
/** "send Kimberly the email from Lucia": (1) to whom, (2) the noun, (3) from whom. */
const SEND_ON = new RegExp(`^(?:${either(SEND_ON_VERBS)})\\s+${RECIPIENT}\\s+(?:the\\s+)?(${either(ITEM_NOUNS)})\\s+(?:from|by|of)\\s+(.+)$`);
/** "send the email from Lucia to Kimberly", "pass the message from Lucia on to Kim": (1) the noun, (2) from whom, (3) to whom. */
const SEND_TO = new RegExp(
  `^(?:${either(SEND_ON_VERBS)})(?:\\s+on)?\\s+(?:the\\s+)?(${either(ITEM_NOUNS)})\\s+(?:from|by|of)\\s+(.+?)(?:\\s+on)?\\s+to\\s+${RECIPIENT}$`,
);
const NOUN = `(?:the\\s+)?(${either(ITEM_NOUNS)})`;
/** "Lyn's emails": (1) who, (2) the noun (said as every one of them). */
const OWNED_ITEMS = new RegExp(`\\b${PERSON}['’]s\\s+(${either(ITEM_NOUNS)})s\\b`, 'g');
/**
 * A message said with what should be done to it ("the email from Lyn should be deleted", "I want the email from Lyn
 * deleted", "... needs to be forwarded to Kim"): (1) the noun, (2) who, (3) what is done, (4) the rest ("to Kim").
 */
const DONE_TO = new RegExp(
  `^(?:i\\s+(?:want|need|would\\s+like)\\s+)?${NOUN}\\s+(?:from|by|of)\\s+${PERSON}\\s+` +
    `(?:(?:should|must|needs\\s+to|has\\s+to|is\\s+to)\\s+be\\s+|to\\s+be\\s+)?(${Object.keys(DONE_TO_ITEM).join('|')})` +
    '(\\s+to\\s+.+|\\s+from\\s+(?:the|my|your)\\s+inbox)?$',
);
/** Other ways to say "forward the NOUN from X to Y" and "reply to the email from X with T", each with how it is said so. */
const SAID_AS_ITEM: readonly [RegExp, (m: RegExpExecArray) => string][] = [
  // "forward to Kimberly the email from Lucia"
  [new RegExp(`^forward\\s+to\\s+${RECIPIENT}\\s+${NOUN}\\s+(?:from|by|of)\\s+(.+)$`), (m) => `forward the ${m[2]} from ${m[3]} to ${m[1]}`],
  // "forward the email Lucia sent to Kimberly", "pass on the message Lucia sent you to Kim"
  [
    new RegExp(`^(?:forward|${either(SEND_ON_VERBS)})(?:\\s+on)?\\s+${NOUN}\\s+${PERSON}\\s+${SENT}(?:\\s+(?:you|me|us))?(?:\\s+on)?\\s+to\\s+${RECIPIENT}$`),
    (m) => `forward the ${m[1]} from ${m[2]} to ${m[3]}`,
  ],
  // "email Kimberly the message Lucia sent"
  [
    new RegExp(`^(?:e-?mail|${either(SEND_ON_VERBS)})\\s+${RECIPIENT}\\s+${NOUN}\\s+${PERSON}\\s+${SENT}(?:\\s+(?:you|me|us))?$`),
    (m) => `forward the ${m[2]} from ${m[3]} to ${m[1]}`,
  ],
  // 'reply "Fusce in." to the email from Jaimie'
  [
    new RegExp(`^(?:${either(REPLY_VERBS)})\\s+(${REPLY_QUOTE})\\s+to\\s+${NOUN}\\s+(?:from|by|of)\\s+${PERSON}$`),
    (m) => `reply to the ${m[2]} from ${m[3]} with ${m[1]}`,
  ],
  // 'write back to Jaimie: "Fusce in."'
  [
    new RegExp(`^(?:write|reply|answer)\\s+back\\s+to\\s+${PERSON}\\s*(?::|,?\\s+(?:${either(REPLY_WITH)}))\\s*(.+)$`),
    (m) => `reply to the email from ${m[1]} with ${m[2]}`,
  ],
  // "delete the message Lyn sent you", "star the email Ilka sent"
  [
    new RegExp(`^(${either(ITEM_VERBS)})\\s+${NOUN}\\s+(?:(?:that|which)\\s+)?${PERSON}\\s+${SENT}(?:\\s+(?:to\\s+)?(?:you|me|us))?$`),
    (m) => `${m[1]} the ${m[2]} from ${m[3]}`,
  ],
  // "add a star to the email from Ilka", "give the email from Ilka a star"
  [
    new RegExp(`^(?:add|put|place|give)\\s+(?:a|the)\\s+(star|flag)\\s+(?:to|on)\\s+${NOUN}\\s+(?:from|by|of)\\s+${PERSON}$`),
    (m) => `${m[1]} the ${m[2]} from ${m[3]}`,
  ],
  [new RegExp(`^give\\s+${NOUN}\\s+(?:from|by|of)\\s+${PERSON}\\s+a\\s+(star|flag)$`), (m) => `${m[3]} the ${m[1]} from ${m[2]}`],
  // 'email Jaimie the message, "Fusce in."', 'send Jaimie a reply saying "Fusce in."': a reply to the one who wrote.
  [
    new RegExp(
      `^(?:e-?mail|send|write)\\s+${PERSON}\\s+(?:the\\s+message|a\\s+(?:reply|response|message|note))` +
        `\\s*(?:[,:]|\\s+(?:${either(REPLY_WITH)}))\\s*(${REPLY_QUOTE})$`,
    ),
    (m) => `reply to the email from ${m[1]} with ${m[2]}`,
  ],
  // 'find Malva's last email and send him the answer, "Ut."': a reply to the one who wrote.
  [
    new RegExp(
      `^(?:please\\s+)?(?:${either(FIND_ITEM_VERBS)})\\s+(?:${PERSON}['’]s\\s+(?:(?:${either(NEWEST)})\\s+)?(?:e-?mail|message|mail)` +
        `|the\\s+(?:(?:${either(NEWEST)})\\s+)?(?:e-?mail|message|mail)\\s+from\\s+${PERSON})` +
        `\\s*,?\\s+(?:and\\s+)?(?:then\\s+)?(?:send|give|write)\\s+(?:him|her|them)\\s+(?:the|an?)\\s+(?:answer|reply|response|message)` +
        `\\s*(?:[,:]|\\s+(?:${either(REPLY_WITH)}))?\\s*(${REPLY_QUOTE})$`,
    ),
    (m) => `reply to the email from ${m[1] ?? m[2]} with ${m[3]}`,
  ],
  // 'respond to Jaimie: "Fusce in."'
  [new RegExp(`^(?:${either(REPLY_VERBS)})\\s+to\\s+${PERSON}\\s*:\\s*(${REPLY_QUOTE})$`), (m) => `reply to the email from ${m[1]} with ${m[2]}`],
  // "send a reply to Jaimie: "Fusce in.""
  [
    new RegExp(`^(?:send|write)\\s+(?:a\\s+|an\\s+)?(?:reply|response|answer)\\s+to\\s+${PERSON}\\s*(?::|,?\\s+(?:${either(REPLY_WITH)}))\\s*(.+)$`),
    (m) => `reply to the email from ${m[1]} with ${m[2]}`,
  ],
];

/** A word with its first letter in either case (a verb that may begin the sentence). */
const anyCase = (w: string) => w.replace(/^([a-z])/, (c) => `[${c.toUpperCase()}${c}]`);
const ON_TO = '(?:\\s+on)?\\s+to\\s+';
const MSG = `(?:[Tt]he\\s+|[Tt]hat\\s+|[Tt]his\\s+)?(?:(?:${either(ONE_OF_THEIRS)})\\s+)?(${either(ITEM_NOUNS)})`;
/** Who it came from, after the message: "from Lucia", "you got from Lucia", "I received from Lucia". */
const CAME_FROM = `(?:(?:you|I)\\s+(?:got|received)\\s+)?(?:from|(?:written\\s+|sent\\s+)?by|of)\\s+${PERSON}`;
/** Who sent it, before the verb: "Lucia sent you", "Lucia sent to you". */
const SENT_BY = `(?:(?:that|which)\\s+)?${PERSON}\\s+${SENT}(?:\\s+(?:to\\s+)?(?:you|me|us))?`;
const FIND_FIRST = `(?:${anyCase('please')}\\s+)?(?:${FIND_MESSAGE_VERBS.map(anyCase).join('|')})`;
/** Between finding it and sending it on: a full stop, a comma, "and", "then". */
const AND_THEN = '(?:\\s*[.,;]\\s*|\\s+)(?:[Aa]nd\\s+)?(?:[Tt]hen\\s+)?';
const SEND_IT =
  `(?:${SEND_IT_VERBS.map(anyCase).join('|')})(?:\\s+(?:it|that\\s+(?:e-?mail|message|mail)|the\\s+(?:e-?mail|message|mail)))?` + `${ON_TO}${RECIPIENT}`;
const GIVE = `(?:${['forward', ...SEND_ON_VERBS].map(anyCase).join('|')})(?:\\s+to)?`;
const WANTS = '(?:wants|needs|is\\s+waiting\\s+for|would\\s+like|asked\\s+for)';
const TO_BE_SENT = `to\\s+be\\s+(?:forwarded|sent)${ON_TO}${RECIPIENT}`;
/**
 * A message sent on to someone, as people say it beyond "forward the email from Lucia to Kim" (a sentence may begin with
 * either name): each pattern, and where its noun, sender and recipient are.
 */
const FORWARD_SAID: readonly [RegExp, noun: number, by: number, to: number][] = [
  // "Locate the email by Lucia. Forward that email to Kim", "Look for the email from Lucia and forward to Kim".
  [new RegExp(`^${FIND_FIRST}\\s+${MSG}\\s+(?:from|by|of)\\s+${PERSON}${AND_THEN}${SEND_IT}$`), 1, 2, 3],
  // "Search for the mail Lucia sent you and send it to Kim".
  [new RegExp(`^${FIND_FIRST}\\s+${MSG}\\s+${SENT_BY}${AND_THEN}${SEND_IT}$`), 1, 2, 3],
  // "Get Lucia email and then forward it to Kim".
  [new RegExp(`^${FIND_FIRST}\\s+${PERSON}(?:['’]s)?\\s+(${either(ITEM_NOUNS)})${AND_THEN}${SEND_IT}$`), 2, 1, 3],
  // "Send Kim the email you got from Lucia", "Give Kim the message you received from Lucia", "Forward to Kim the email from Lucia".
  [new RegExp(`^${GIVE}\\s+${RECIPIENT}\\s+${MSG}\\s+${CAME_FROM}$`), 2, 3, 1],
  // "Forward Kim the message Lucia sent you", "Send Kim the information Lucia sent to you".
  [new RegExp(`^${GIVE}\\s+${RECIPIENT}\\s+${MSG}\\s+${SENT_BY}$`), 2, 3, 1],
  // "Kim wants the email you got from Lucia", "Kim is waiting for the email by Lucia".
  [new RegExp(`^${RECIPIENT}\\s+${WANTS}\\s+${MSG}\\s+${CAME_FROM}$`), 2, 3, 1],
  // "Kim wants the email Lucia sent to you".
  [new RegExp(`^${RECIPIENT}\\s+${WANTS}\\s+${MSG}\\s+${SENT_BY}$`), 2, 3, 1],
  // "The mail by Lucia should be forwarded to Kim".
  [new RegExp(`^${MSG}\\s+(?:from|by|of)\\s+${PERSON}\\s+(?:should|must|needs\\s+to|has\\s+to)\\s+be\\s+(?:forwarded|sent)${ON_TO}${RECIPIENT}$`), 1, 2, 3],
  // "Lucia wants his or her message to be sent to Kim".
  [new RegExp(`^${PERSON}\\s+wants\\s+(?:his\\s+or\\s+her|his|her|their)\\s+(${either(ITEM_NOUNS)})\\s+${TO_BE_SENT}$`), 2, 1, 3],
  // "I want the mail by Lucia to be sent to Kim".
  [new RegExp(`^I\\s+(?:want|would\\s+like)\\s+${MSG}\\s+(?:from|by|of)\\s+${PERSON}\\s+${TO_BE_SENT}$`), 1, 2, 3],
  // "Forward email to Kim from Lucia": the recipient before the sender.
  [new RegExp(`^${GIVE}\\s+${MSG}\\s+to\\s+${RECIPIENT}\\s+${CAME_FROM}$`), 1, 3, 2],
  // "Give Stacey Jaclin's email": one name each (with more words, where the recipient ends and the sender begins is a guess).
  [new RegExp(`^${GIVE}\\s+([A-Z][\\w-]*|[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+)\\s+([A-Z][\\w-]*)['’]s\\s+(${ITEM_NOUNS.map(anyCase).join('|')})$`), 3, 2, 1],
];
/** A message sent on, said any of those ways, as "forward the email from Lucia to Kim"; null when it is none of them. */
function forwardSaid(text: string): string | null {
  const t = text.replace(/^(?:[Pp]lease\s+|I(?:['’]d|\s+would)\s+like\s+to\s+)/, '').replace(/(?:[,\s]+please)?[\s.,!]*$/, '');
  for (const [re, noun, by, to] of FORWARD_SAID) {
    const m = re.exec(t);
    if (m) return `forward the ${m[noun]!.toLowerCase()} from ${m[by]} to ${m[to]}`;
  }
  return null;
}

/** "the email from Ranna, will you forward that to Allyson?": (1) the message, (2) the verb, (3) the rest. */
const FRONTED = new RegExp(
  `^((?:the|that|this)\\s+(?:(?:${either(ONE_OF_THEIRS)})\\s+)?(?:${either(ITEM_NOUNS)})\\s+(?:from|by|of)\\s+${PERSON})\\s*[,:;]\\s*` +
    `(?:(?:and\\s+)?(?:${either(ASK_ON_IT)})\\s+)?(${either(ITEM_VERBS)}|mark)\\s+(?:it|that|this|that\\s+one)\\b(.*?)[\\s?.!]*$`,
);
/** "Sharai wrote you an email that needs to be forwarded to Belita": (1) who, (2) the noun, (3) what is to be done, with the rest. */
const WROTE_ONE = new RegExp(
  `^${PERSON}\\s+${SENT}(?:\\s+(?:you|me|us))?\\s+(?:an?|the|one)\\s+(${either(ITEM_NOUNS)})\\s*,?\\s+(?:that|which|and\\s+it)\\s+` +
    `((?:should|must|needs\\s+to|has\\s+to|is\\s+to)\\s+be\\s+.+)$`,
);
/** Words that end a sender's name: "Lyn from yesterday" is no one's name. */
const NOT_A_NAME = new RegExp(`\\s(?:${either(NOT_OF_A_NAME)})\\b`, 'i');

/** Where the messages are, with the space before it. */
const MAIL_PLACE = new RegExp(`\\s+(?:${either(MAIL_PLACES)})\\b`, 'gi');

/** "reply to Jaimie with ...": (1) the verb, (2) who, (3) the rest. */
const REPLY_TO_PERSON = new RegExp(`^((?:${either(REPLY_VERBS)})\\s+to)\\s+${PERSON}(\\s+(?:${either(REPLY_WITH)})\\s+.+)$`);

/**
 * "Find the email by X and do Y to it" said as the one clause it is ("forward the email from X
 * to Kim"), and "For the user @jane, click Share" as "click Share for the item by @jane"; the
 * other ways people name one message ("Lucia's email", "send Kim the email from Lucia", "reply
 * to Jaimie with ...") as the same clauses. Null when the sentence is none of them.
 */
export function itemFirst(instruction: string): string | null {
  // "... from Martie in the email app to Merrill": where the messages are is the page the task is on.
  const placed = instruction.replace(MAIL_PLACE, '');
  const text = placed.trim() ? placed : instruction;
  return itemSaid(text) ?? (text === instruction ? null : text);
}

/** itemFirst on words with no place in them. */
function itemSaid(text: string): string | null {
  const sent = forwardSaid(text);
  if (sent) return sent;
  // A sentence's first word is capitalised whatever it is: no sign of a name.
  const lowered = text.replace(/^\w+/, (w) => w.toLowerCase());
  // "Lyn's email should be ...": a name that begins the sentence, before "'s", is a name all the same.
  // So is one that "sent" or "wrote" something ("Sharai wrote an email ...").
  const named = new RegExp(`^[A-Z][\\w-]*(?:['’]s|\\s+${SENT})\\s`).test(text) ? text : lowered;
  const s = named
    .replace(OWNED_ITEMS, (_m, who: string, noun: string) => `all ${noun}s from ${who}`)
    .replace(OWNED_ITEM, (_m, who: string, noun: string) => `the ${noun} from ${who}`);
  const wrote = WROTE_ONE.exec(s.replace(/[\s.!]+$/, ''));
  if (wrote) return itemFirst(`The ${wrote[2]} from ${wrote[1]} ${wrote[3]}`);
  // "The email from Ranna, will you forward that to Allyson?": the step on the message it names first.
  const fronted = FRONTED.exec(s);
  if (fronted) return `${fronted[3]!.toLowerCase()} ${fronted[1]}${fronted[4]}`;
  const done = DONE_TO.exec(s);
  if (done) {
    const rest = /^\s+to\s/.test(done[4] ?? '') ? done[4]! : '';
    return forwardSaid(`${DONE_TO_ITEM[done[3]!]} the ${done[1]} from ${done[2]}${rest}`) ?? `${DONE_TO_ITEM[done[3]!]} the ${done[1]} from ${done[2]}${rest}`;
  }
  const send = SEND_ON.exec(s);
  if (send) return `forward the ${send[2]} from ${send[3]} to ${send[1]}`;
  const sendTo = SEND_TO.exec(s);
  if (sendTo) return `forward the ${sendTo[1]} from ${sendTo[2]} to ${sendTo[3]}`;
  for (const [re, said] of SAID_AS_ITEM) {
    const m = re.exec(s);
    if (m) return said(m);
  }
  const reply = REPLY_TO_PERSON.exec(s);
  if (reply) return `${reply[1]} the email from ${reply[2]}${reply[3]}`;
  const owner = FOR_OWNER.exec(s);
  if (owner && new RegExp(`^${CONTROL}$`, 'i').test(owner[2])) return `${owner[2]} for the item by ${owner[1]}`;
  const m = FIND_ITEM.exec(s);
  if (!m) return s === lowered ? null : s;
  const [, noun, by, rest] = m;
  const icon = ICON_CLICK.exec(rest);
  if (icon) {
    const verb = ICON_VERBS[icon[1].toLowerCase()];
    return verb ? `${verb} the ${noun} from ${by}` : null;
  }
  const on = ON_IT.exec(rest);
  // "tag it as important", "label it as important": marked so.
  if (on) return `${/^(?:tag|label)$/i.test(on[1]!) ? 'mark' : on[1]} the ${noun} from ${by}${on[2]}`;
  // "... and reply with "Fusce in."": the reply is to the message found.
  const bare = REPLY_BARE.exec(rest);
  const said = bare?.[1] ?? bare?.[2];
  return said && !/^to\b/i.test(said) ? `reply to the ${noun} from ${by} with ${said}` : null;
}

/**
 * Acting on one message or post named by its sender or author: open it and reply or forward,
 * or use its own control (star, delete, share, like, "Mark as read"), opening it first when the
 * list does not show that control.
 */
export function itemSteps(clause: string, quotes: string[]): PlanStep[] | null {
  // A control named on an item ("the Like button on all posts by @kim"): that control, in that item.
  const c = CONTROL_ON_ITEM.exec(clause) ?? CONTROL_OF_OWNER.exec(clause.replace(/^\w+/, (w) => w.toLowerCase()));
  if (c) {
    const verb = bare(c[1], quotes).toLowerCase();
    const many = c.length === 4 && c[2] ? c[2].toLowerCase() : '';
    // "on 2 posts by @ruth": that many of them, in the order the page shows them.
    const count = /^(?:all|every|each)$/.test(many) ? undefined : Number(many) || COUNT_WORDS[many];
    const how = !many ? { one: true } : count === undefined ? {} : { count };
    return [{ say: restore(clause, quotes), each: { verb, by: bare(c[c.length - 1], quotes), ...how } }];
  }
  const mark = MARK_ITEM.exec(clause);
  if (mark) {
    const state = mark[2].toLowerCase().replace(/\s+/g, ' ');
    const standIn = MARK_STAND_INS[state];
    return [{ say: restore(clause, quotes), each: { verb: `mark as ${state}`, by: bare(mark[1], quotes), one: true, ...(standIn ? { standIn } : {}) } }];
  }
  const m = ONE_ITEM.exec(clause);
  if (!m) return null;
  const verb = m[1].toLowerCase().replace(/\s+to$/, '');
  const by = bare(m[2], quotes);
  if (NOT_A_NAME.test(by)) return null;
  const say = restore(clause, quotes);
  // A quoted text is the whole text: words after it ("'Thanks!' and star it", "\"ok\" now") are not typed, and not guessed at.
  if (m[3] !== undefined && /^\u0000\d+\u0000/.test(m[3].trim()) && !/^\u0000\d+\u0000$/.test(m[3].trim())) return null;
  const text = m[3] !== undefined ? bare(m[3], quotes) : null;
  const to = m[4] !== undefined ? bare(m[4], quotes) : null;
  const open: PlanStep = { say: `open the item from ${quoteValue(by)}`, openItem: by };
  if (oneOf(REPLY_VERBS).test(verb)) {
    if (text === null) return null;
    const v = quoteValue(text);
    return [
      open,
      { say: 'click reply', or: ['click respond'] },
      {
        say: `enter ${v} into the reply field`,
        or: [`enter ${v} into the message field`, `enter ${v} into the body field`, `enter ${v} into the text area`, `enter ${v} into the text field`],
      },
      { say: 'click send' },
    ];
  }
  if (verb === 'forward') {
    // Only someone a message can go to: "Kimberly to the" is a misreading, never typed.
    if (to === null || !new RegExp(`^${RECIPIENT}$`).test(to)) return null;
    const v = quoteValue(to);
    return [
      open,
      { say: 'click forward' },
      { say: `enter ${v} into the to field`, or: [`enter ${v} into the recipient field`, `enter ${v} into the email field`, `enter ${v} into the text field`] },
      { say: 'click send' },
    ];
  }
  if (oneOf(OPEN_VERBS).test(verb)) return text === null && to === null ? [open] : null;
  if (text !== null || to !== null) return null;
  return [{ say, each: { verb: ITEM_VERB_ALIASES[verb.replace(/\s+/g, ' ')] ?? verb, by, one: true } }];
}
