/**
 * Trusted input through CDP's Input domain: mouse, keyboard, text, and HTML5
 * drag and drop (intercepted drags replayed as drag events).
 */
import type { CdpSession } from '../ports';
import { keyDef, MODIFIER_BITS, parseChord, type KeyDef } from './keys';

export type MouseButton = 'left' | 'right' | 'middle';

/** The longest move of a stroke between two pointer events. */
const STROKE_STEP_PX = 8;

export class Input {
  constructor(private readonly cdp: CdpSession) {}

  async move(x: number, y: number): Promise<void> {
    await this.cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, button: 'none' });
  }

  async click(x: number, y: number, opts: { button?: MouseButton; clickCount?: number } = {}): Promise<void> {
    const button = opts.button ?? 'left';
    const count = opts.clickCount ?? 1;
    // Sent back to back: a move waits for the next animation frame to be acknowledged
    // (about 16 ms), but the press that follows flushes it first, so the page still sees
    // mousemove/mouseover before mousedown, without the click waiting a frame.
    const sent: Promise<unknown>[] = [this.move(x, y)];
    for (let i = 1; i <= count; i++) {
      sent.push(this.cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button, clickCount: i, buttons: buttonBit(button) }));
      sent.push(this.cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button, clickCount: i, buttons: 0 }));
    }
    await Promise.all(sent);
  }

  private async keyEvent(type: 'keyDown' | 'keyUp' | 'rawKeyDown', def: KeyDef, modifiers: number, withText: boolean): Promise<void> {
    const text = withText && def.text && !(modifiers & ~MODIFIER_BITS.Shift) ? def.text : undefined;
    await this.cdp.send('Input.dispatchKeyEvent', {
      type: type === 'keyDown' && !text ? 'rawKeyDown' : type,
      key: def.key,
      code: def.code,
      windowsVirtualKeyCode: def.keyCode,
      nativeVirtualKeyCode: def.keyCode,
      modifiers,
      location: def.location ?? 0,
      ...(text ? { text, unmodifiedText: text } : {}),
      // Let the browser run editing commands (select all, copy, paste) for chords.
      ...(modifiers & (MODIFIER_BITS.Control | MODIFIER_BITS.Meta) && def.key.length === 1 ? { commands: commandsFor(def.key) } : {}),
    });
  }

  /** Press a key or chord, e.g. "Enter", "Control+A", "Shift+Tab". */
  async press(chord: string): Promise<void> {
    const { modifiers, key } = parseChord(chord);
    let bits = 0;
    for (const m of modifiers) {
      bits |= MODIFIER_BITS[m];
      await this.keyEvent('keyDown', keyDef(m)!, bits, false);
    }
    await this.keyEvent('keyDown', key, bits, true);
    await this.keyEvent('keyUp', key, bits, false);
    for (const m of [...modifiers].reverse()) {
      bits &= ~MODIFIER_BITS[m];
      await this.keyEvent('keyUp', keyDef(m)!, bits, false);
    }
  }

  /** Type text key by key; characters with no key on a US layout are inserted as text. */
  async type(text: string): Promise<void> {
    for (const ch of text) {
      const def = ch === '\n' ? keyDef('Enter') : keyDef(ch);
      if (!def) {
        await this.cdp.send('Input.insertText', { text: ch });
        continue;
      }
      const shift = /[A-Z]/.test(ch) || (def.text === ch && '~!@#$%^&*()_+{}|:"<>?'.includes(ch)) ? MODIFIER_BITS.Shift : 0;
      await this.keyEvent('keyDown', def, shift, true);
      await this.keyEvent('keyUp', def, shift, false);
    }
  }

  async insertText(text: string): Promise<void> {
    await this.cdp.send('Input.insertText', { text });
  }

  /**
   * A stroke of the pointer through points, as a person draws: pressed at the first, moved through the rest in steps of
   * at most STROKE_STEP_PX (a drawing listens to every move), released at the last.
   */
  async stroke(points: { x: number; y: number }[]): Promise<void> {
    const [first, ...rest] = points;
    if (!first) return;
    await this.move(first.x, first.y);
    await this.cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', x: first.x, y: first.y, button: 'left', clickCount: 1, buttons: 1 });
    let at = first;
    for (const p of rest) {
      const steps = Math.max(1, Math.ceil(Math.hypot(p.x - at.x, p.y - at.y) / STROKE_STEP_PX));
      for (let i = 1; i <= steps; i++) {
        const x = at.x + ((p.x - at.x) * i) / steps;
        const y = at.y + ((p.y - at.y) * i) / steps;
        await this.cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, button: 'left', buttons: 1 });
      }
      at = p;
    }
    await this.cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x: at.x, y: at.y, button: 'left', clickCount: 1, buttons: 0 });
  }

  /**
   * Press and hold: the button pressed at a point, held `ms`, then released there. The hold is timed from the moment the
   * page has had the press, so what it measures between press and release is `ms` and the release's own delivery. A
   * cancel releases at once: a button is never left held down.
   */
  async hold(x: number, y: number, ms: number, signal?: AbortSignal): Promise<void> {
    await this.move(x, y);
    await this.cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', clickCount: 1, buttons: 1 });
    try {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        signal?.addEventListener('abort', done, { once: true });
        if (signal?.aborted) done();
      });
    } finally {
      await this.cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', clickCount: 1, buttons: 0 });
    }
  }

  /**
   * Drag from one point to another. HTML5 drags are intercepted and replayed as
   * drag events; plain mouse-driven drags see the press, moves and release.
   */
  async drag(from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
    let dragData: unknown = null;
    const off = this.cdp.on('Input.dragIntercepted', (p: { data: unknown }) => {
      dragData = p.data;
    });
    await this.cdp.send('Input.setInterceptDrags', { enabled: true });
    try {
      await this.move(from.x, from.y);
      await this.cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', x: from.x, y: from.y, button: 'left', clickCount: 1, buttons: 1 });
      const steps = 5;
      for (let i = 1; i <= steps; i++) {
        const x = from.x + ((to.x - from.x) * i) / steps;
        const y = from.y + ((to.y - from.y) * i) / steps;
        await this.cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, button: 'left', buttons: 1 });
      }
      if (dragData) {
        await this.cdp.send('Input.dispatchDragEvent', { type: 'dragEnter', x: to.x, y: to.y, data: dragData });
        await this.cdp.send('Input.dispatchDragEvent', { type: 'dragOver', x: to.x, y: to.y, data: dragData });
        await this.cdp.send('Input.dispatchDragEvent', { type: 'drop', x: to.x, y: to.y, data: dragData });
      }
      await this.cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x: to.x, y: to.y, button: 'left', clickCount: 1, buttons: 0 });
    } finally {
      off();
      await this.cdp.send('Input.setInterceptDrags', { enabled: false }).catch(() => undefined);
    }
  }
}

function buttonBit(b: MouseButton): number {
  return b === 'left' ? 1 : b === 'right' ? 2 : 4;
}

function commandsFor(key: string): string[] {
  switch (key.toLowerCase()) {
    case 'a':
      return ['selectAll'];
    case 'c':
      return ['copy'];
    case 'x':
      return ['cut'];
    case 'v':
      return ['paste'];
    case 'z':
      return ['undo'];
    default:
      return [];
  }
}
