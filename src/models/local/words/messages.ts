/** Mail and posts: a message found by its sender or a post by its author, and what is done to it. */
import { type Phrases } from './grammar';

/** Verbs done to one message or post ("reply to the email from Alice", "star the post by @kim"). */
export const ITEM_VERBS: Phrases = [
  ...['reply(?:\\s+to)?', 'respond\\s+to', 'answer', 'forward', 'delete', 'remove', 'trash', 'archive', 'star', 'flag', 'pin', 'like'],
  ...['share', 'repost', 'retweet', 'bookmark', 'upvote', 'open', 'read', 'view', 'get\\s+rid\\s+of'],
];
/** Verbs said for another one's control ("trash the email" is its Delete). */
export const ITEM_VERB_ALIASES: Readonly<Record<string, string>> = { trash: 'delete', 'get rid of': 'delete' };
/** Verbs of a reply: open the message, then write back. */
export const REPLY_VERBS: Phrases = ['reply', 'respond', 'answer'];
/** Verbs that only open the message. */
export const OPEN_VERBS: Phrases = ['open', 'read', 'view'];
/** One message or post. */
export const ITEM_NOUNS: Phrases = [
  ...['e-?mail', 'message', 'mail', 'conversation', 'thread', 'post', 'tweet', 'comment', 'review'],
  // "forward the information from Lucia to Kim": what a message holds, said for the message.
  ...['information', 'info'],
];
/** How a message is tied to its sender or a post to its author. */
export const ITEM_BY: Phrases = ['from', 'by', 'sent\\s+by', 'of', 'posted\\s+by', 'written\\s+by'];
/** Words that make "the message" the newest one. */
export const NEWEST: Phrases = ['latest', 'last', 'new', 'newest', 'most\\s+recent', 'recent'];
/** Words that single out one message among a sender's ("the first email from Lyn"); with two from that sender, a refusal all the same. */
export const ONE_OF_THEIRS: Phrases = ['first', 'only', ...NEWEST];
/** What is said before the text of a reply, or before whom a message is forwarded to. */
export const REPLY_WITH: Phrases = ['with\\s+the\\s+(?:text|message|words?|reply),?', 'with', 'saying', 'and\\s+say', 'and\\s+write'];

/** Verbs of who a message is by, said after the name ("the email Lucia sent you", "the message Lucia wrote"). */
export const SENT_VERBS: Phrases = ['sent', 'wrote'];
/** What asks for a step on a message named before it ("Lucia's email, will you forward that to Kim?"). */
export const ASK_ON_IT: Phrases = ['will\\s+you', 'can\\s+you', 'could\\s+you', 'would\\s+you', 'please'];
/** Words after a sender that say when or where the message is, not who sent it ("from Lyn from yesterday"): never part of a name. */
export const NOT_OF_A_NAME: Phrases = ['from', 'on', 'at', 'in', 'about', 'yesterday', 'today', 'tonight', 'last', 'this', 'earlier', 'ago'];

/** Where the messages are, said beside one ("the email from Martie in the email app"): the page the task is on, no part of a name. */
export const MAIL_PLACES: Phrases = [
  '(?:in|on|from)\\s+(?:the|your|my)\\s+(?:e-?mail|mail)\\s+(?:app|application|client|inbox|program|page|account)',
  '(?:in|from)\\s+(?:the|your|my)\\s+(?:inbox|mailbox)',
];

/** Verbs that find one message or post before saying what is done to it ("find the email by Lyn and delete it"). */
export const FIND_ITEM_VERBS: Phrases = ['find', 'locate', 'look\\s+for', 'search\\s+for', 'go\\s+to', 'open', 'navigate\\s+to', 'pull\\s+up', 'bring\\s+up'];
/** How the rest of such a sentence points back at the item it found. */
export const ITEM_PRONOUNS: Phrases = ['it', 'them', 'him', 'her', '(?:that|this|the)\\s+(?:e-?mail|message|mail|post|tweet|comment|one)'];
/** The verb an icon stands for when a task says to click it ("click the trash icon"). */
export const ICON_VERBS: Record<string, string> = {
  trash: 'delete',
  bin: 'delete',
  delete: 'delete',
  star: 'star',
  flag: 'flag',
  archive: 'archive',
  like: 'like',
  heart: 'like',
  share: 'share',
  bookmark: 'bookmark',
  pin: 'pin',
};
/** Verbs that find the message a forward is of, said before it ("Locate the email by Lucia. Forward it to Kim"). */
export const FIND_MESSAGE_VERBS: Phrases = ['find', 'locate', 'look for', 'search for', 'go to', 'navigate to', 'get', 'open', 'pull up', 'bring up'];
/** Verbs that send a found message on ("... and send it to Kim"). */
export const SEND_IT_VERBS: Phrases = ['forward', 'send', 'give', 'pass'];
/** Verbs that send a message on to someone named first ("send Kim the email from Lucia"). */
export const SEND_ON_VERBS: Phrases = ['send', 'pass', 'give'];

/** Who a post or message belongs to, said before a comma ("For the user @jane, click Share"). */
export const ITEM_OWNERS: Phrases = ['user', 'author', 'account', 'poster', 'person', 'sender'];
/** What a control on an item is called by ("the Like button on the post by Kim"). */
export const CONTROL_NOUNS: Phrases = ['button', 'icon', 'link'];

/** What a message is marked as, by a control of that name ("Mark as important"). */
export const MARK_STATES: Phrases = ['important', 'unread', 'read', 'spam', 'not\\s+spam', 'done'];

/** A control that stands for a mark when an open item shows no "Mark as ..." control: a star marks a message important. */
export const MARK_STAND_INS: Readonly<Record<string, string>> = { important: 'star' };

/** Verbs done to every item of a kind by one author ("like all posts by Kim"). */
export const EACH_ITEM_VERBS: Phrases = [
  ...['like', 'star', 'share', 'repost', 'retweet', 'favou?rite', 'upvote', 'bookmark', 'delete', 'remove', 'archive', 'reply\\s+to'],
  ...['flag', 'pin'],
];
/** Items of a list a verb may go over. */
export const ITEMS: Phrases = ['posts?', 'tweets?', 'messages?', 'e-?mails?', 'comments?', 'items?', 'entries', 'photos?', 'reviews?', 'rows?', 'cards?'];
/** How items are tied to their author or subject. */
export const ITEMS_BY: Phrases = ['by', 'from', 'of', 'written\\s+by', 'posted\\s+by', 'sent\\s+by', 'about', 'mentioning'];
/** Kinds of control clicked for each one that mentions something ("every link about dogs"). */
export const MENTION_KINDS: Phrases = ['links?', 'buttons?', 'checkbox(?:es)?', 'boxes', 'options?', 'items?', 'entries'];
/** Controls clicked all at once by kind ("click all the buttons", "tick every checkbox"), and by roles. */
export const ALL_KINDS: Readonly<Record<string, Phrases>> = {
  button: ['buttons?'],
  checkbox: ['checkbox(?:es)?', '(?:check ?|tick ?)?boxes'],
  radio: ['radio buttons?', 'radios?'],
  switch: ['switch(?:es)?', 'toggles?'],
};
/** Everything on a page that can be clicked ("click everything on the page"): never a link, which would leave it. */
export const EVERYTHING: Phrases = ['everything', 'every (?:control|element|item|widget)', 'all (?:the )?(?:controls|elements|widgets)'];
/** How a control mentions what it is about. */
export const MENTIONS: Phrases = ['mentions?', 'contains?', 'includes?', '(?:are\\s+|is\\s+)?about', 'with', 'referring\\s+to', 'naming', 'saying'];
/** What was done to a message, said of it ("Lyn's email should be deleted"): the word, and the verb that does it. */
export const DONE_TO_ITEM: Readonly<Record<string, string>> = {
  deleted: 'delete',
  removed: 'remove',
  trashed: 'trash',
  archived: 'archive',
  starred: 'star',
  flagged: 'flag',
  forwarded: 'forward',
};
