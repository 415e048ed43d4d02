/**
 * The page's own date, for instructions that name a date by description ("today's date", "next
 * Monday"): read in the page (its time zone, an emulated one included), or from this clock when
 * the page cannot answer (a page still loading, a test's fake port).
 */
import type { BrowserPort } from '../ports';

const local = (d: Date) => `${String(d.getFullYear()).padStart(4, '0')}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

export async function pageToday(port: BrowserPort, page: number): Promise<string> {
  const r = await port.frameRequest<{ today?: unknown }>(page, 0, { type: 'dh:today' }, 2000).catch(() => null);
  return typeof r?.today === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(r.today) ? r.today : local(new Date());
}

/** What the prompt tells a provider model about the day, so it can write a date the instruction names by description. */
export function todayLine(today: string): string {
  const [y, m, d] = today.split('-').map(Number);
  const weekday = new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
  return (
    `\n\nToday's date on the page: ${today} (${weekday}). A date the instruction names by description (today, tomorrow, next Monday) ` +
    'is counted from it and written in the format the field takes (its type, placeholder or pattern); ' +
    'answer found=false when the field does not say which format.'
  );
}
