/** Reads a Server-Sent Events response with a real SSE parser (eventsource-parser). */
import { createParser } from 'eventsource-parser';

export async function readEvents(res: Response, onEvent?: (e: any) => void): Promise<any[]> {
  const out: any[] = [];
  const parser = createParser({
    onEvent: (m) => {
      const e = { ...JSON.parse(m.data), sseId: m.id, sseEvent: m.event };
      out.push(e);
      onEvent?.(e);
    },
  });
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(dec.decode(value, { stream: true }));
  }
  return out;
}
