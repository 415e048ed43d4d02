/** The benchmarks' SVG charts (bench/svg-chart.ts) and the docs page update (bench/publish.ts). */
import { describe, expect, it } from 'vitest';
import { barChart, escapeXml, lineChart, ticks } from '../../bench/svg-chart';
import { markdownTable, replaceBetweenMarkers } from '../../bench/publish';

/**
 * Well-formed XML, checked with a small tokenizer (no XML parser among the dependencies):
 * every tag closed in order, attributes quoted, no raw < or & in text or values.
 */
function assertWellFormed(xml: string): void {
  const stack: string[] = [];
  const token = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|<|&(?!(?:amp|lt|gt|quot|apos|#\d+);)/g;
  let m: RegExpExecArray | null;
  while ((m = token.exec(xml))) {
    if (!m[2]) throw new Error(`stray ${m[0]} at ${m.index}: ${xml.slice(m.index, m.index + 40)}`);
    for (const value of m[3].matchAll(/="([^"]*)"/g)) if (/&(?!(?:amp|lt|gt|quot|apos|#\d+);)/.test(value[1])) throw new Error(`raw & in ${m[0]}`);
    if (m[1]) {
      const open = stack.pop();
      if (open !== m[2]) throw new Error(`</${m[2]}> closes <${open}> at ${m.index}`);
    } else if (!m[4]) stack.push(m[2]);
  }
  if (stack.length) throw new Error(`unclosed: ${stack.join(', ')}`);
}

/** Attributes of every element of a class, as numbers where they are numbers. */
function elements(svg: string, tag: string, cls: string): Record<string, string>[] {
  return [...svg.matchAll(new RegExp(`<${tag} class="${cls}"([^>]*)>`, 'g'))].map((m) =>
    Object.fromEntries([...m[1].matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])),
  );
}
const texts = (svg: string, cls: string) => [...svg.matchAll(new RegExp(`<text class="${cls}"[^>]*>([^<]*)</text>`, 'g'))].map((m) => m[1]);

describe('bar chart', () => {
  const svg = barChart({
    title: 'Tokens <vs> aria & AX',
    categories: ['form', 'table 5000 rows'],
    series: [
      { name: 'ours', values: [10, 40] },
      { name: 'theirs', values: [20, 5] },
    ],
    yLabel: 'token ratio',
    xLabel: 'page',
    rule: { y: 30, label: 'goal' },
  });

  it('is a well-formed SVG document with its title escaped', () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    assertWellFormed(svg);
    expect(svg).toContain('<title>Tokens &lt;vs&gt; aria &amp; AX</title>');
    expect(() => assertWellFormed('<svg><text>a < b</text></svg>')).toThrow();
    expect(() => assertWellFormed('<svg><g></svg>')).toThrow();
  });

  it('labels the axes, the categories and the series', () => {
    expect(texts(svg, 'y-label')).toEqual(['token ratio']);
    expect(texts(svg, 'x-label')).toEqual(['page']);
    expect(texts(svg, 'category')).toEqual(['form', 'table 5000 rows']);
    expect(texts(svg, 'legend').sort()).toEqual(['ours', 'theirs']);
    expect(texts(svg, 'tick')).toEqual(['0', '10', '20', '30', '40']);
  });

  it('draws bars from the axis with heights in proportion to their values', () => {
    const bars = elements(svg, 'rect', 'bar');
    expect(bars.map((b) => Number(b['data-value']))).toEqual([10, 20, 40, 5]);
    const height = (i: number) => Number(bars[i].height);
    const base = Number(bars[0].y) + height(0);
    for (let i = 0; i < bars.length; i++) expect(Number(bars[i].y) + height(i)).toBeCloseTo(base, 0);
    expect(height(2) / height(0)).toBeCloseTo(4, 1);
    expect(height(1) / height(3)).toBeCloseTo(4, 1);
    // The rule at 30 sits three quarters of the way up to the top tick (40).
    const rule = elements(svg, 'line', 'rule')[0];
    expect((base - Number(rule.y1)) / height(2)).toBeCloseTo(0.75, 2);
  });
});

describe('line chart', () => {
  const svg = lineChart({
    title: 'Latency',
    xLabel: 'sessions',
    yLabel: 'ms',
    series: [
      {
        name: 'p50',
        points: [
          [1, 10],
          [2, 20],
          [4, 40],
        ],
      },
      {
        name: 'p95',
        points: [
          [1, 15],
          [2, 30],
          [4, 90],
        ],
      },
    ],
    rule: { y: 100, label: '100 ms goal' },
  });

  it('is well-formed, with both axis labels and an x tick per distinct x', () => {
    assertWellFormed(svg);
    expect(texts(svg, 'x-label')).toEqual(['sessions']);
    expect(texts(svg, 'y-label')).toEqual(['ms']);
    expect(texts(svg, 'tick')).toEqual(['0', '20', '40', '60', '80', '100', '1', '2', '4']);
    expect(elements(svg, 'polyline', 'line')).toHaveLength(2);
  });

  it('places points by their x and y in proportion', () => {
    const pts = elements(svg, 'circle', 'point').map((p) => ({ x: Number(p['data-x']), y: Number(p['data-y']), cx: Number(p.cx), cy: Number(p.cy) }));
    expect(pts).toHaveLength(6);
    const [a, b, c] = pts;
    // x: 1 → 2 is a third of 1 → 4.
    expect((b.cx - a.cx) / (c.cx - a.cx)).toBeCloseTo(1 / 3, 2);
    // y grows upwards, linearly from 0: the rise from 10 to 40 is three times 0 to 10.
    const zero = a.cy + (a.cy - b.cy); // y of 0, one step of 10 below a
    expect((zero - c.cy) / (zero - a.cy)).toBeCloseTo(4, 1);
    expect(pts.find((p) => p.y === 90)!.cy).toBeLessThan(c.cy);
  });

  it('copes with a single x', () => {
    const one = lineChart({ title: 't', xLabel: 'x', yLabel: 'y', series: [{ name: 's', points: [[3, 5]] }] });
    assertWellFormed(one);
    expect(one).not.toContain('NaN');
  });
});

describe('helpers', () => {
  it('ticks are round and reach the maximum', () => {
    expect(ticks(40)).toEqual([0, 10, 20, 30, 40]);
    expect(ticks(0.857)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(ticks(164)).toEqual([0, 50, 100, 150, 200]);
    expect(ticks(0)).toEqual([0, 1]);
  });

  it('escapes XML text', () => expect(escapeXml(`a<b & "c">`)).toBe('a&lt;b &amp; &quot;c&quot;&gt;'));

  it('writes a Markdown table and puts it between a benchmark’s markers', () => {
    const table = markdownTable([
      { page: 'form', 'a | b': 1 },
      { page: 'x|y', 'a | b': 2 },
    ]);
    expect(table).toBe('| page | a \\| b |\n|---|---|\n| form | 1 |\n| x\\|y | 2 |\n');
    const page = '# B\n\n<!-- bench:load:start -->\nold\n<!-- bench:load:end -->\n\nafter\n';
    expect(replaceBetweenMarkers(page, 'load', 'new')).toBe('# B\n\n<!-- bench:load:start -->\nnew\n<!-- bench:load:end -->\n\nafter\n');
    expect(() => replaceBetweenMarkers(page, 'tokens', 'new')).toThrow(/bench:tokens:start/);
  });
});
