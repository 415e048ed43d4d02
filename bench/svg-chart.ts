/**
 * Plain SVG bar and line charts for the benchmark pages (docs/public/bench/): a few shapes
 * and text, so the benchmarks need no charting package and the pictures diff as text.
 */

export interface BarChart {
  title: string;
  /** One group of bars per category, along the x axis. */
  categories: string[];
  /** One bar per series in each group; values[i] belongs to categories[i]. */
  series: { name: string; values: number[] }[];
  yLabel: string;
  xLabel?: string;
  /** A horizontal line, e.g. a ratio of 1 or a latency goal. */
  rule?: { y: number; label: string };
  /** How a bar's value is written above it. */
  format?: (v: number) => string;
  width?: number;
  height?: number;
}

export interface LineChart {
  title: string;
  /** Each series is a line through its points, x and y in data units. */
  series: { name: string; points: [number, number][] }[];
  xLabel: string;
  yLabel: string;
  rule?: { y: number; label: string };
  format?: (v: number) => string;
  width?: number;
  height?: number;
}

const COLORS = ['#3b6fd8', '#e0823d', '#3aa57a', '#a55bc9', '#c9455b'];
const FONT = 'font-family="system-ui, -apple-system, Segoe UI, sans-serif"';
// Room for the title and, below it, the legend's row.
const M = { top: 60, right: 20, bottom: 64, left: 64 };

export const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const n = (v: number) => +v.toFixed(1);
const plain = (v: number) => (Math.abs(v) >= 100 || Number.isInteger(v) ? String(Math.round(v)) : String(+v.toPrecision(3)));

/** Round tick values from 0 to at least `max`: 1, 2 or 5 times a power of ten apart. */
export function ticks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((k) => k * p).find((s) => s >= raw)!;
  const out: number[] = [];
  for (let v = 0; v < max + step * 1e-9; v += step) out.push(+v.toPrecision(12));
  if (out[out.length - 1] < max) out.push(+(out[out.length - 1] + step).toPrecision(12));
  return out;
}

function frame(
  w: number,
  h: number,
  title: string,
  yLabel: string,
  xLabel: string | undefined,
  yTicks: number[],
  y: (v: number) => number,
  fmt: (v: number) => string,
): string[] {
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" ${FONT} font-size="12">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${w}" height="${h}" fill="#fff"/>`,
    `<text class="title" x="${w / 2}" y="22" text-anchor="middle" font-size="15" font-weight="600">${escapeXml(title)}</text>`,
  ];
  for (const t of yTicks) {
    out.push(`<line x1="${M.left}" x2="${w - M.right}" y1="${n(y(t))}" y2="${n(y(t))}" stroke="#e4e4e4"/>`);
    out.push(`<text class="tick" x="${M.left - 6}" y="${n(y(t)) + 4}" text-anchor="end" fill="#555">${escapeXml(fmt(t))}</text>`);
  }
  out.push(`<line x1="${M.left}" x2="${M.left}" y1="${M.top}" y2="${h - M.bottom}" stroke="#333"/>`);
  out.push(`<line x1="${M.left}" x2="${w - M.right}" y1="${h - M.bottom}" y2="${h - M.bottom}" stroke="#333"/>`);
  const midY = (M.top + h - M.bottom) / 2;
  out.push(`<text class="y-label" x="16" y="${midY}" text-anchor="middle" transform="rotate(-90 16 ${midY})">${escapeXml(yLabel)}</text>`);
  if (xLabel) out.push(`<text class="x-label" x="${(M.left + w - M.right) / 2}" y="${h - 12}" text-anchor="middle">${escapeXml(xLabel)}</text>`);
  return out;
}

function legend(names: string[], w: number): string[] {
  // Right-aligned under the title, one swatch per series.
  const out: string[] = [];
  let x = w - M.right;
  for (let i = names.length - 1; i >= 0; i--) {
    x -= names[i].length * 6.5 + 22;
    out.push(`<rect x="${n(x)}" y="34" width="10" height="10" fill="${COLORS[i % COLORS.length]}"/>`);
    out.push(`<text class="legend" x="${n(x + 14)}" y="43">${escapeXml(names[i])}</text>`);
  }
  return out;
}

function rule(r: { y: number; label: string } | undefined, y: (v: number) => number, w: number): string[] {
  if (!r) return [];
  return [
    `<line class="rule" x1="${M.left}" x2="${w - M.right}" y1="${n(y(r.y))}" y2="${n(y(r.y))}" stroke="#c9455b" stroke-dasharray="5 4"/>`,
    // Under the line, so a rule at the top of the plot stays clear of the legend.
    `<text x="${w - M.right - 4}" y="${n(y(r.y)) + 14}" text-anchor="end" fill="#c9455b">${escapeXml(r.label)}</text>`,
  ];
}

/** Grouped bars from 0, one group per category, the value written above each bar. */
export function barChart(c: BarChart): string {
  const w = c.width ?? 720;
  const h = c.height ?? 360;
  const fmt = c.format ?? plain;
  const max = Math.max(...c.series.flatMap((s) => s.values), c.rule?.y ?? 0);
  const yTicks = ticks(max);
  const top = yTicks[yTicks.length - 1];
  const plotH = h - M.top - M.bottom;
  const y = (v: number) => h - M.bottom - (v / top) * plotH;
  const out = frame(w, h, c.title, c.yLabel, c.xLabel, yTicks, y, plain);
  const groupW = (w - M.left - M.right) / c.categories.length;
  const barW = (groupW * 0.7) / c.series.length;
  c.categories.forEach((cat, i) => {
    const x0 = M.left + i * groupW + groupW * 0.15;
    c.series.forEach((s, k) => {
      const v = s.values[i];
      const x = x0 + k * barW;
      out.push(
        `<rect class="bar" data-value="${v}" x="${n(x)}" y="${n(y(v))}" width="${n(barW - 2)}" ` +
          `height="${n(h - M.bottom - y(v))}" fill="${COLORS[k % COLORS.length]}"/>`,
      );
      out.push(`<text x="${n(x + barW / 2 - 1)}" y="${n(y(v)) - 4}" text-anchor="middle" font-size="11">${escapeXml(fmt(v))}</text>`);
    });
    out.push(`<text class="category" x="${n(M.left + (i + 0.5) * groupW)}" y="${h - M.bottom + 18}" text-anchor="middle">${escapeXml(cat)}</text>`);
  });
  out.push(
    ...rule(c.rule, y, w),
    ...legend(
      c.series.map((s) => s.name),
      w,
    ),
    '</svg>',
  );
  return out.join('\n') + '\n';
}

/** Lines with a dot at each point; x runs from the smallest to the largest x of all series. */
export function lineChart(c: LineChart): string {
  const w = c.width ?? 720;
  const h = c.height ?? 360;
  const fmt = c.format ?? plain;
  const xs = c.series.flatMap((s) => s.points.map((p) => p[0]));
  const xMin = Math.min(...xs);
  const xMax = Math.max(...xs);
  const yTicks = ticks(Math.max(...c.series.flatMap((s) => s.points.map((p) => p[1])), c.rule?.y ?? 0));
  const top = yTicks[yTicks.length - 1];
  const plotW = w - M.left - M.right - 20;
  const y = (v: number) => h - M.bottom - (v / top) * (h - M.top - M.bottom);
  const x = (v: number) => M.left + 10 + (xMax === xMin ? plotW / 2 : ((v - xMin) / (xMax - xMin)) * plotW);
  const out = frame(w, h, c.title, c.yLabel, c.xLabel, yTicks, y, plain);
  for (const v of [...new Set(xs)].sort((a, b) => a - b)) {
    out.push(`<text class="tick" x="${n(x(v))}" y="${h - M.bottom + 18}" text-anchor="middle" fill="#555">${escapeXml(plain(v))}</text>`);
  }
  c.series.forEach((s, k) => {
    const color = COLORS[k % COLORS.length];
    out.push(`<polyline class="line" fill="none" stroke="${color}" stroke-width="2" points="${s.points.map(([a, b]) => `${n(x(a))},${n(y(b))}`).join(' ')}"/>`);
    for (const [a, b] of s.points) {
      out.push(
        `<circle class="point" data-x="${a}" data-y="${b}" cx="${n(x(a))}" cy="${n(y(b))}" r="3.5" fill="${color}">` +
          `<title>${escapeXml(`${s.name}: ${fmt(b)} at ${plain(a)}`)}</title></circle>`,
      );
    }
  });
  out.push(
    ...rule(c.rule, y, w),
    ...legend(
      c.series.map((s) => s.name),
      w,
    ),
    '</svg>',
  );
  return out.join('\n') + '\n';
}
