/** Keys as people name them ("page up", "up arrow", "F5", "ctrl+a") and the names the keyboard knows them by. */
import { type Phrases } from './grammar';

export const KEY_WORDS: Phrases = [
  ...['enter', 'return', 'tab', 'escape', 'esc', 'space', 'spacebar', 'backspace', 'delete', 'del', 'home', 'end', 'pageup'],
  ...['page up', 'pagedown', 'page down', 'arrowup', 'arrowdown', 'arrowleft', 'arrowright', 'up', 'down', 'left', 'right'],
  ...['up arrow', 'down arrow', 'left arrow', 'right arrow', 'f\\d{1,2}', 'insert'],
];
/** A key's name in the keyboard's words, where people say it otherwise ("esc" is Escape). */
export const KEY_NAMES: Readonly<Record<string, string>> = {
  return: 'Enter',
  esc: 'Escape',
  del: 'Delete',
  spacebar: 'Space',
  'page up': 'PageUp',
  'page down': 'PageDown',
  pageup: 'PageUp',
  pagedown: 'PageDown',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  'up arrow': 'ArrowUp',
  'down arrow': 'ArrowDown',
  'left arrow': 'ArrowLeft',
  'right arrow': 'ArrowRight',
  arrowup: 'ArrowUp',
  arrowdown: 'ArrowDown',
  arrowleft: 'ArrowLeft',
  arrowright: 'ArrowRight',
};
/** Modifier keys by the names people give them. */
export const MODIFIERS: Readonly<Record<string, string>> = {
  ctrl: 'Control',
  control: 'Control',
  alt: 'Alt',
  option: 'Alt',
  shift: 'Shift',
  cmd: 'Meta',
  command: 'Meta',
  meta: 'Meta',
};
/** "Press the key combination Ctrl+Shift+P": words before the keys that name no key. */
export const KEY_COMBO_NOUNS: Phrases = ['(?:the )?(?:keyboard |key )?(?:combination|combo|shortcut|hotkey|chord)', 'the keys'];
/** "Save the document with Ctrl+S", "use Ctrl+K to search": the words a combination is given by. */
export const BY_KEYS: Phrases = ['with', 'using', 'by pressing', 'by hitting', 'via'];
