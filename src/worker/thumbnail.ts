/**
 * The side panel's thumbnails of a watched run: a scaled JPEG of the tab's viewport through the
 * debugger, with every field or piece of text that holds a hidden value (a variable's) painted
 * over before the picture leaves the worker. Decoding and painting use OffscreenCanvas, which
 * the worker has and the page never sees: the page itself is not touched.
 */
import type { CdpSession } from '../engine/ports';

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Runs in the page: the viewport rectangles of fields and text that hold one of `hide`. */
function findHidden(hide: string[]): Rect[] {
  const out: Rect[] = [];
  const has = (s: string | null | undefined) => !!s && hide.some((v) => s.includes(v));
  const add = (r: DOMRect) => {
    const shown = r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
    if (shown) out.push({ x: r.left, y: r.top, w: r.width, h: r.height });
  };
  for (const el of Array.from(document.querySelectorAll('input, textarea, select'))) {
    if (has((el as HTMLInputElement).value)) add(el.getBoundingClientRect());
  }
  const walk = document.createTreeWalker(document.body ?? document.documentElement, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n && out.length < 200; n = walk.nextNode()) {
    if (!has(n.nodeValue)) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const r of Array.from(range.getClientRects())) add(r);
  }
  return out;
}

export async function takeThumbnail(cdp: CdpSession, o: { width: number; quality: number; hide: string[] }): Promise<string> {
  type Metrics = { cssVisualViewport: { pageX: number; pageY: number; clientWidth: number; clientHeight: number } };
  const m = await cdp.send<Metrics>('Page.getLayoutMetrics', {}, 5_000);
  const v = m.cssVisualViewport;
  const scale = Math.min(1, o.width / Math.max(1, v.clientWidth));
  let rects: Rect[] = [];
  if (o.hide.length) {
    const r = await cdp.send<{ result?: { value?: Rect[] } }>(
      'Runtime.evaluate',
      { expression: `(${findHidden.toString()})(${JSON.stringify(o.hide)})`, returnByValue: true },
      5_000,
    );
    rects = r.result?.value ?? [];
  }
  const { data } = await cdp.send<{ data: string }>(
    'Page.captureScreenshot',
    { format: 'jpeg', quality: o.quality, clip: { x: v.pageX, y: v.pageY, width: v.clientWidth, height: v.clientHeight, scale } },
    10_000,
  );
  if (!rects.length) return `data:image/jpeg;base64,${data}`;
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/jpeg' }));
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const g = canvas.getContext('2d')!;
  g.drawImage(bitmap, 0, 0);
  g.fillStyle = '#3a3a3a';
  // A little wider than the box: JPEG blurs edges, and a caret or a descender can stick out.
  for (const r of rects) g.fillRect(Math.floor(r.x * scale) - 2, Math.floor(r.y * scale) - 2, Math.ceil(r.w * scale) + 4, Math.ceil(r.h * scale) + 4);
  const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: o.quality / 100 });
  const buf = new Uint8Array(await blob.arrayBuffer());
  let bin = '';
  for (let i = 0; i < buf.length; i += 0x8000) bin += String.fromCharCode(...buf.subarray(i, i + 0x8000));
  return `data:image/jpeg;base64,${btoa(bin)}`;
}
