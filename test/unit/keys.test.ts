/** Key definitions and chord parsing for trusted keyboard input. */
import { describe, expect, it } from 'vitest';
import { keyDef, parseChord } from '../../src/engine/core/keys';

describe('keyDef', () => {
  it('defines named keys with key, code, keyCode and text', () => {
    expect(keyDef('Enter')).toEqual({ key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' });
    expect(keyDef('Tab')).toEqual({ key: 'Tab', code: 'Tab', keyCode: 9 });
    expect(keyDef('Backspace')).toMatchObject({ key: 'Backspace', keyCode: 8 });
    expect(keyDef('ArrowDown')).toMatchObject({ key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 });
    expect(keyDef('Space')).toEqual({ key: ' ', code: 'Space', keyCode: 32, text: ' ' });
    expect(keyDef('F1')).toMatchObject({ key: 'F1', keyCode: 112 });
    expect(keyDef('F12')).toMatchObject({ key: 'F12', code: 'F12', keyCode: 123 });
    expect(keyDef('F13')).toBeNull();
  });

  it('defines modifiers with their left-hand location', () => {
    expect(keyDef('Shift')).toEqual({ key: 'Shift', code: 'ShiftLeft', keyCode: 16, location: 1 });
    expect(keyDef('Control')).toEqual({ key: 'Control', code: 'ControlLeft', keyCode: 17, location: 1 });
    expect(keyDef('Meta')).toMatchObject({ key: 'Meta', keyCode: 91 });
  });

  it('resolves aliases case-insensitively', () => {
    expect(keyDef('esc')?.key).toBe('Escape');
    expect(keyDef('ESC')?.key).toBe('Escape');
    expect(keyDef('ctrl')?.key).toBe('Control');
    expect(keyDef('Ctrl')?.key).toBe('Control');
    expect(keyDef('cmd')?.key).toBe('Meta');
    expect(keyDef('command')?.key).toBe('Meta');
    expect(keyDef('option')?.key).toBe('Alt');
    expect(keyDef('return')?.key).toBe('Enter');
    expect(keyDef('up')?.key).toBe('ArrowUp');
    expect(keyDef('pgdn')?.key).toBe('PageDown');
    expect(keyDef('spacebar')?.key).toBe(' ');
    expect(keyDef('ControlOrMeta')?.key).toBe('Control');
  });

  it('matches named keys case-insensitively', () => {
    expect(keyDef('enter')?.key).toBe('Enter');
    expect(keyDef('PAGEDOWN')?.key).toBe('PageDown');
    expect(keyDef('arrowleft')?.keyCode).toBe(37);
    expect(keyDef('f5')?.key).toBe('F5');
  });

  it('defines letters by their physical key, keeping the case in key and text', () => {
    expect(keyDef('a')).toEqual({ key: 'a', code: 'KeyA', keyCode: 65, text: 'a' });
    expect(keyDef('Z')).toEqual({ key: 'Z', code: 'KeyZ', keyCode: 90, text: 'Z' });
  });

  it('defines digits', () => {
    expect(keyDef('0')).toEqual({ key: '0', code: 'Digit0', keyCode: 48, text: '0' });
    expect(keyDef('7')).toEqual({ key: '7', code: 'Digit7', keyCode: 55, text: '7' });
  });

  it('maps punctuation, shifted or not, to the key that types it', () => {
    expect(keyDef('-')).toEqual({ key: '-', code: 'Minus', keyCode: 189, text: '-' });
    expect(keyDef('_')).toEqual({ key: '_', code: 'Minus', keyCode: 189, text: '_' });
    expect(keyDef('?')).toMatchObject({ code: 'Slash', keyCode: 191, text: '?' });
    expect(keyDef('!')).toMatchObject({ code: 'Digit1', keyCode: 49 });
    expect(keyDef(')')).toMatchObject({ code: 'Digit0', keyCode: 48 });
    expect(keyDef('"')).toMatchObject({ code: 'Quote', keyCode: 222 });
    expect(keyDef('\\')).toMatchObject({ code: 'Backslash', keyCode: 220 });
    expect(keyDef(' ')).toMatchObject({ key: ' ', code: 'Space' });
  });

  it('returns null for characters without a US key and for unknown names', () => {
    expect(keyDef('é')).toBeNull();
    expect(keyDef('€')).toBeNull();
    expect(keyDef('Banana')).toBeNull();
    expect(keyDef('')).toBeNull();
  });
});

describe('parseChord', () => {
  it('parses a single named key', () => {
    expect(parseChord('Enter')).toEqual({ modifiers: [], key: keyDef('Enter') });
    expect(parseChord('  Escape ')).toEqual({ modifiers: [], key: keyDef('Escape') });
  });

  it('lowercases a letter with modifiers when Shift is not held', () => {
    const c = parseChord('Control+A');
    expect(c.modifiers).toEqual(['Control']);
    expect(c.key).toEqual({ key: 'a', code: 'KeyA', keyCode: 65, text: 'a' });
    expect(parseChord('Meta+Z').key.key).toBe('z');
  });

  it('keeps an uppercase letter when Shift is held or there are no modifiers', () => {
    const c = parseChord('Shift+A');
    expect(c.modifiers).toEqual(['Shift']);
    expect(c.key.key).toBe('A');
    expect(parseChord('Control+Shift+A').key.key).toBe('A');
    expect(parseChord('A').key.key).toBe('A');
  });

  it('parses several modifiers in order and normalises aliases', () => {
    const c = parseChord('Control+Shift+Tab');
    expect(c.modifiers).toEqual(['Control', 'Shift']);
    expect(c.key.key).toBe('Tab');
    expect(parseChord('ctrl+alt+Delete').modifiers).toEqual(['Control', 'Alt']);
    expect(parseChord('cmd+c')).toMatchObject({ modifiers: ['Meta'], key: { key: 'c', code: 'KeyC' } });
    expect(parseChord('Control + A')).toMatchObject({ modifiers: ['Control'], key: { key: 'a' } });
  });

  it("parses '+' alone and as the key after a modifier", () => {
    expect(parseChord('+')).toEqual({ modifiers: [], key: { key: '+', code: 'Equal', keyCode: 187, text: '+' } });
    const c = parseChord('Control++');
    expect(c.modifiers).toEqual(['Control']);
    expect(c.key.key).toBe('+');
    expect(parseChord('Control+Shift++').modifiers).toEqual(['Control', 'Shift']);
  });

  it('names an unknown key in the error', () => {
    expect(() => parseChord('Control+Banana')).toThrow("unknown key 'Banana' in 'Control+Banana'");
    expect(() => parseChord('Control+')).toThrow(/unknown key/);
  });

  it('names a part that is not a modifier in the error', () => {
    expect(() => parseChord('Foo+A')).toThrow("'Foo' in 'Foo+A' is not a modifier (Shift, Control, Alt, Meta)");
    // A real key that is not a modifier is refused in modifier position too.
    expect(() => parseChord('A+B')).toThrow(/'A' in 'A\+B' is not a modifier/);
    expect(() => parseChord('Enter+A')).toThrow(/'Enter' in 'Enter\+A' is not a modifier/);
  });

  it('refuses an empty chord', () => {
    expect(() => parseChord('')).toThrow('the key to press is empty');
    expect(() => parseChord('   ')).toThrow('the key to press is empty');
  });
});
