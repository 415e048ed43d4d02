/**
 * US keyboard definitions for CDP Input.dispatchKeyEvent, and chord parsing
 * ("Control+Shift+A"). Only what trusted key input needs: key, code, keyCode, text.
 */
export interface KeyDef {
  key: string;
  code: string;
  keyCode: number;
  text?: string;
  location?: number;
}

const NAMED: Record<string, KeyDef> = {
  Enter: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  Tab: { key: 'Tab', code: 'Tab', keyCode: 9 },
  Escape: { key: 'Escape', code: 'Escape', keyCode: 27 },
  Backspace: { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  Delete: { key: 'Delete', code: 'Delete', keyCode: 46 },
  Space: { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
  ArrowUp: { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  ArrowDown: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  ArrowLeft: { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  ArrowRight: { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  Home: { key: 'Home', code: 'Home', keyCode: 36 },
  End: { key: 'End', code: 'End', keyCode: 35 },
  PageUp: { key: 'PageUp', code: 'PageUp', keyCode: 33 },
  PageDown: { key: 'PageDown', code: 'PageDown', keyCode: 34 },
  Insert: { key: 'Insert', code: 'Insert', keyCode: 45 },
  Shift: { key: 'Shift', code: 'ShiftLeft', keyCode: 16, location: 1 },
  Control: { key: 'Control', code: 'ControlLeft', keyCode: 17, location: 1 },
  Alt: { key: 'Alt', code: 'AltLeft', keyCode: 18, location: 1 },
  Meta: { key: 'Meta', code: 'MetaLeft', keyCode: 91, location: 1 },
  CapsLock: { key: 'CapsLock', code: 'CapsLock', keyCode: 20 },
};
for (let i = 1; i <= 12; i++) NAMED[`F${i}`] = { key: `F${i}`, code: `F${i}`, keyCode: 111 + i };

const ALIASES: Record<string, string> = {
  return: 'Enter',
  esc: 'Escape',
  del: 'Delete',
  ctrl: 'Control',
  control: 'Control',
  cmd: 'Meta',
  command: 'Meta',
  meta: 'Meta',
  option: 'Alt',
  alt: 'Alt',
  shift: 'Shift',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  space: 'Space',
  spacebar: 'Space',
  pgup: 'PageUp',
  pgdn: 'PageDown',
  controlormeta: 'Control',
};

const PUNCT: Record<string, [string, number, string?]> = {
  // char: [code, keyCode, shifted-from]
  '-': ['Minus', 189],
  _: ['Minus', 189, '-'],
  '=': ['Equal', 187],
  '+': ['Equal', 187, '='],
  '[': ['BracketLeft', 219],
  '{': ['BracketLeft', 219, '['],
  ']': ['BracketRight', 221],
  '}': ['BracketRight', 221, ']'],
  '\\': ['Backslash', 220],
  '|': ['Backslash', 220, '\\'],
  ';': ['Semicolon', 186],
  ':': ['Semicolon', 186, ';'],
  "'": ['Quote', 222],
  '"': ['Quote', 222, "'"],
  ',': ['Comma', 188],
  '<': ['Comma', 188, ','],
  '.': ['Period', 190],
  '>': ['Period', 190, '.'],
  '/': ['Slash', 191],
  '?': ['Slash', 191, '/'],
  '`': ['Backquote', 192],
  '~': ['Backquote', 192, '`'],
  '!': ['Digit1', 49, '1'],
  '@': ['Digit2', 50, '2'],
  '#': ['Digit3', 51, '3'],
  $: ['Digit4', 52, '4'],
  '%': ['Digit5', 53, '5'],
  '^': ['Digit6', 54, '6'],
  '&': ['Digit7', 55, '7'],
  '*': ['Digit8', 56, '8'],
  '(': ['Digit9', 57, '9'],
  ')': ['Digit0', 48, '0'],
};

export const MODIFIER_BITS: Record<string, number> = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };

/** Definition of one key by name or single character; null for characters with no key (typed as text). */
export function keyDef(name: string): KeyDef | null {
  if (NAMED[name]) return NAMED[name];
  const alias = ALIASES[name.toLowerCase()];
  if (alias) return NAMED[alias];
  if (name.length === 1) {
    const ch = name;
    if (/[a-z]/.test(ch)) return { key: ch, code: `Key${ch.toUpperCase()}`, keyCode: ch.toUpperCase().charCodeAt(0), text: ch };
    if (/[A-Z]/.test(ch)) return { key: ch, code: `Key${ch}`, keyCode: ch.charCodeAt(0), text: ch };
    if (/[0-9]/.test(ch)) return { key: ch, code: `Digit${ch}`, keyCode: ch.charCodeAt(0), text: ch };
    if (ch === ' ') return NAMED.Space;
    const p = PUNCT[ch];
    if (p) return { key: ch, code: p[0], keyCode: p[1], text: ch };
    return null;
  }
  // Case-insensitive named keys ("enter", "pagedown").
  const hit = Object.keys(NAMED).find((k) => k.toLowerCase() === name.toLowerCase());
  return hit ? NAMED[hit] : null;
}

export interface Chord {
  modifiers: string[];
  key: KeyDef;
}

/** Parse "Control+Shift+A" / "Enter" / "+"; throws with the unknown part named. */
export function parseChord(chord: string): Chord {
  const raw = chord.trim();
  if (!raw) throw new Error('the key to press is empty');
  const parts = raw === '+' ? ['+'] : raw.endsWith('++') ? [...raw.slice(0, -2).split('+'), '+'] : raw.split('+');
  const modifiers: string[] = [];
  for (const p of parts.slice(0, -1)) {
    const d = keyDef(p.trim());
    if (!d || !(d.key in MODIFIER_BITS)) throw new Error(`'${p}' in '${chord}' is not a modifier (Shift, Control, Alt, Meta)`);
    modifiers.push(d.key);
  }
  const last = parts[parts.length - 1].trim() || parts[parts.length - 1];
  // "Control+A" means the A key, as a keyboard sends it: lowercase unless Shift is held.
  const name = modifiers.length && !modifiers.includes('Shift') && /^[A-Z]$/.test(last) ? last.toLowerCase() : last;
  const key = keyDef(name);
  if (!key) throw new Error(`unknown key '${last}' in '${chord}'`);
  return { modifiers, key };
}
