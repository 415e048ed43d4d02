/**
 * Purposes: what a control is for and the other names it goes by ("delete" is "remove", a close
 * button is "x"), the ways pages write "log in", and the fields people name otherwise.
 */

/** Verbs whose control is often named after a synonym or drawn as a glyph. */
export const PURPOSE_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  close: ['close', 'x', 'dismiss'],
  dismiss: ['dismiss', 'close', 'x'],
  hide: ['hide', 'close', 'x'],
  exit: ['close', 'x', 'exit'],
  increase: ['increase', '+', 'plus', 'more'],
  decrease: ['decrease', '-', 'minus', 'less'],
  raise: ['increase', '+'],
  lower: ['decrease', '-'],
  expand: ['expand', '▸'],
  collapse: ['collapse', '▾'],
  open: ['open', 'expand', '▸'],
  remove: ['remove', 'delete'],
  delete: ['delete', 'remove'],
  rename: ['rename', 'edit'],
  like: ['like', '♥'],
  favorite: ['favorite', '★'],
  favourite: ['favorite', '★'],
  star: ['star', '★'],
  add: ['add', '+'],
  edit: ['edit', 'rename'],
  show: ['show', 'expand'],
  reply: ['reply'],
  share: ['share'],
  accept: ['accept', 'agree', 'i agree'],
};

/** The ways pages write "log in": one name. */
export const SIGN_IN_WORDS: readonly string[] = ['log in', 'login', 'sign in', 'log on', 'sign on'];
/** The buttons that may end a login form. */
export const LOGIN_WORDS: readonly string[] = [...SIGN_IN_WORDS, 'submit', 'continue'];
/** A button that sends what a form holds, by a name that says only that ("OK", "Go"): a log-in form's one button may be one. */
export const GO_ON_BUTTONS: readonly string[] = ['ok', 'okay', 'go', 'enter', 'continue', 'submit', 'next', '→', '›', '»'];
/** What "log in as X" may call X. */
export const LOGIN_USER: readonly string[] = ['username', 'user name', 'user', 'email', 'e-mail', 'login', 'account'];
/** Log-in details named as a whole ("the provided credentials", "the username and password"). */
export const CREDENTIAL_NOUNS: readonly string[] = [
  'credentials',
  'login details',
  'log-in details',
  'login information',
  'account details',
  '(?:username|user name|user) and password',
  'details',
];
/** Words that say log-in details are to be read off the page ("displayed on the page", "provided", "given below"). */
export const SHOWN_DETAILS: readonly string[] = ['provided', 'given', 'displayed', 'shown', 'listed', 'written', 'supplied', 'printed'];
/** Where the page shows them. */
export const SHOWN_WHERE: readonly string[] = ['on the page', 'on this page', 'on screen', 'on the screen', 'below', 'above', 'here'];

/** Field words people use for a field the page may name otherwise. */
export const FIELD_ALIASES: Readonly<Record<string, readonly string[]>> = {
  username: ['username', 'user name', 'user', 'login', 'user id', 'email', 'e-mail'],
  password: ['password', 'pass', 'passcode', 'pwd'],
  email: ['email', 'e-mail', 'email address', 'e-mail address', 'mail', 'address'],
};
