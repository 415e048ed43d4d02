/**
 * Words that mean the same on a page ("log in" is "sign in"), words that carry no meaning in a
 * name ("the", "please"), symbols read as words ("×" is "x"), what a glyph of a control is for,
 * and nouns that say what kind of thing a target is.
 */

/** Each group's words are one word when names are compared: the first is the group's name. */
export const SYNONYMS: [string, string[]][] = [
  ['signin', ['sign in', 'log in', 'login', 'signin', 'logon', 'log on']],
  ['signout', ['sign out', 'log out', 'logout', 'signout']],
  ['signup', ['sign up', 'register', 'signup', 'create account']],
  // "Send" and "Go" are names of their own: a page's "Submit" never stands in for them.
  ['submit', ['submit']],
  ['ok', ['ok', 'okay', 'confirm']],
  ['cancel', ['cancel']],
  ['close', ['close', 'x', 'close window', 'close dialog', 'times', 'remove x']],
  ['circle', ['circle', 'ball', 'dot', 'disc']],
  ['cyan', ['cyan', 'aqua']],
  ['magenta', ['magenta', 'fuchsia']],
  ['gray', ['gray', 'grey']],
  // The two spellings of a word mean one thing: "the color" is the field named Colour.
  ['color', ['color', 'colour']],
  ['favorite', ['favorite', 'favourite']],
  ['center', ['center', 'centre']],
  ['settings', ['settings', 'preferences', 'gear', 'cog']],
  ['menu', ['menu', 'navigation menu', 'hamburger', 'bars']],
  ['search', ['search', 'find', 'look up']],
  ['delete', ['delete', 'remove', 'trash']],
  ['repost', ['repost', 'retweet', 'reblog']],
  // A rich-text editor's style buttons ("ql-strike", "Strikethrough").
  ['strike', ['strike', 'strikethrough', 'strike through']],
  ['edit', ['edit', 'modify', 'change']],
  ['next', ['next', 'continue', 'forward', 'proceed']],
  ['previous', ['previous', 'back', 'prev']],
  ['email', ['email', 'e-mail', 'mail address', 'email address']],
  ['frequency', ['frequency', 'how often']],
  ['password', ['password', 'passcode', 'pass word']],
  ['phone', ['phone', 'telephone', 'mobile', 'phone number']],
  ['name', ['name', 'full name']],
  ['add', ['add', 'create', 'new']],
  ['save', ['save', 'store']],
  ['help', ['help', 'support']],
  ['terms', ['terms', 'agreement', 'terms of service', 'terms and conditions', 'terms of use', 'license agreement', 'eula']],
];

/** Words left out when names are compared. */
/** Small words that are whole labels of fields and switches ("to:", "From", "On"): matched as names though they are stop words. */
export const SMALL_LABELS: ReadonlySet<string> = new Set(['to', 'from', 'cc', 'bcc', 'on', 'off', 'in', 'out', 'at', 'by', 'for', 'of', 'and', 'or']);
export const STOP = new Set([
  'the',
  'a',
  'an',
  'to',
  'on',
  'in',
  'into',
  'of',
  'for',
  'with',
  'at',
  'and',
  'then',
  'please',
  'this',
  'that',
  'it',
  'my',
  'your',
  'page',
  'element',
  'named',
  'called',
  'labeled',
  'labelled',
  'which',
  'says',
  'with',
  'text',
  'from',
  'is',
  'me',
  'field',
]);

/** Symbols people read as words: a close button's "×", a menu's "☰", a settings "⚙". */
export const SYMBOLS: [RegExp, string][] = [
  [/[×✕✖✗✘╳⨯❌]/g, ' x '],
  [/[☰≡]/g, ' menu '],
  [/[⚙]/g, ' settings '],
  [/[🔍🔎]/g, ' search '],
  [/[🗑]/g, ' delete '],
  [/[✎✏🖉]/g, ' edit '],
  [/[＋]/g, ' + '],
];

/**
 * What a control whose whole name is a symbol is for: "+" adds, "▸" expands, "›" goes to the
 * next. Several readings each, since the same glyph serves several purposes.
 */
export const GLYPHS: [RegExp, string][] = [
  [/^[+＋➕]$/, 'plus add increase more'],
  [/^[-−–➖]$/, 'minus remove decrease less'],
  [/^[▸▶►▹▷]$/, 'expand open show play'],
  [/^[▾▼▿▽]$/, 'collapse close hide expanded'],
  [/^[›»→⟩❯〉>]$/, 'next forward'],
  [/^[‹«←⟨❮〈<]$/, 'previous back'],
  [/^[♥♡❤]$/, 'like heart favorite'],
  [/^[★☆⭐]$/, 'star favorite'],
  [/^[✓✔]$/, 'check done'],
  [/^[…⋯⋮⋯]$|^\.\.\.$/, 'more options menu'],
  [/^[↻⟳]$/, 'refresh reload'],
  [/^[↩⤺⮌]$/, 'reply'],
  [/^[↪⤻]$/, 'forward'],
  [/^(?:[⚑⚐]|🚩)$/u, 'flag'],
  [/^(?:🗑|🗑️)$/u, 'delete trash'],
];

/**
 * Nouns that say what kind of thing a target is ("the bug label", "the JD avatar", "the
 * Sent folder"): a name rarely contains them, so a miss costs a small part of a word.
 */
export const SOFT_NOUNS = new Set([
  'label',
  'tag',
  'chip',
  'pill',
  'badge',
  'avatar',
  'folder',
  'plan',
  'card',
  'message',
  'result',
  'knob',
  'handle',
  'thumb',
  'sign',
  'symbol',
  'icon',
  'item',
  'comment',
  'post',
  'order',
  'product',
  'column',
  'key',
  'entry',
  'tile',
  'swatch',
  'colour',
  'color',
  'square',
  'circle',
  'notification',
  'banner',
  'quantity',
  'stock',
  'month',
  'day',
  'date',
  'corner',
  'option',
  'choice',
  'file',
  'section',
  'panel',
  'menu',
  'email',
  'mail',
  'thread',
  'slider',
  'control',
  'box',
  'area',
  'step',
  'profile',
  'window',
  'popup',
  'widget',
  'toast',
  'bubble',
  'bar',
  'spreadsheet',
  'document',
  'doc',
  'photo',
  'image',
  'picture',
  'video',
]);

/** Words for a state that is on, and for one that is off ("yes", "checked"; "no", "off"). */
export const TRUE_WORDS = ['yes', 'true', 'on', 'enabled', 'checked', 'active', 'y', '1'];
export const FALSE_WORDS = ['no', 'false', 'off', 'disabled', 'unchecked', 'inactive', 'n', '0'];
