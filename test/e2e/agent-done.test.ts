/**
 * "done" only when done: the agent's final word is checked against what its steps did. With the
 * built-in model, a goal no planned step carries out is refused with nothing done (a file to
 * upload, a chart to transcribe, a path to plan, a note to download and read, a menu path the menu
 * does not hold), and a step whose effect does not show (a drag that
 * moves nothing, a value the field does not take) ends the run as a failure. With a provider
 * model (the scripted model server), a "done, success" after steps that changed nothing, or right
 * after a failed step, is success false with the model's answer kept; a task done, or a question
 * answered, stays a success. Pages: test/fixtures/pages/done/.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from '../../src/index';
import { startModelServer, type ModelServer } from '../fixtures/model-server';
import { useBrowser } from './harness';

const h = useBrowser();
let ms: ModelServer;
beforeAll(async () => {
  ms = await startModelServer();
});
afterAll(async () => {
  await ms?.close();
});
beforeEach(() => {
  ms.requests.length = 0;
});

interface Done {
  clicks: string[];
  files: number;
}
const record = (page: Page) => page.evaluate(() => (window as unknown as { __done: Done }).__done);
const text = (page: Page, id: string) => page.evaluate((i: string) => document.getElementById(i)!.textContent, id);
const placeOf = (page: Page, id: string) =>
  page.evaluate((i: string) => {
    const r = document.getElementById(i)!.getBoundingClientRect();
    return { x: Math.round(r.left + r.width / 2), y: Math.round(r.top + r.height / 2) };
  }, id);

const local = (instruction: string) => h.dh.agentExecute({ agentConfig: { model: 'deckhand/local' }, executeOptions: { instruction } });

describe('the built-in agent refuses a goal no planned step carries out', () => {
  const cases: [page: string, say: string, why: RegExp][] = [
    ['upload.html', 'Upload any file', /file to be uploaded/],
    ['upload.html', 'Choose a file to upload', /file to be uploaded/],
    ['chart.html', 'Transcribe the bar chart into CSV', /transcribe.*not a control|beyond the built-in model/i],
    ['ladybird.html', "Plan the ladybird's path to the leaf", /plan.*not what|beyond the built-in model/i],
    ['riddles.html', 'Download and read the note to solve the riddles', /asks for more than a click/],
    // Two fields take a date: which one is asked, never the heading clicked or the word typed.
    ['dates.html', "Enter today's date", /each a field that takes a date.*say which one/],
  ];
  for (const [path, say, why] of cases) {
    it(`${path}: ${say}`, async () => {
      const page = await h.open(`/done/${path}`);
      const r = (await local(say)).result;
      expect(r.success, r.message).toBe(false);
      expect(r.message).toMatch(why);
      expect(r.message).toMatch(/nothing was done/);
      // Nothing touched: no click reached the page, no file chooser, no download.
      expect(await record(page)).toMatchObject({ clicks: [], files: 0 });
    });
  }

  it("a menu path the page's menu does not hold is given up before anything is hovered", async () => {
    const page = await h.open('/tasks/menubar-css.html');
    // Hovers count on some pages (a menu that records what was opened): none may happen.
    await page.evaluate(() => {
      const w = window as unknown as { __hovers: string[] };
      w.__hovers = [];
      document.addEventListener('mouseover', (e) => w.__hovers.push((e.target as Element).closest('[data-track]')?.getAttribute('data-track') ?? ''), true);
    });
    const r = (await local('Select File > Print')).result;
    expect(r.success).toBe(false);
    expect(r.message).toMatch(/the menu "File" opens holds no "Print"/);
    expect(await page.evaluate(() => (window as unknown as { __hovers: string[] }).__hovers.filter(Boolean))).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __clicks: string[] }).__clicks)).toEqual([]);
    // A path the menu holds is followed to its end.
    const ok = (await local('Select File > Export > PNG')).result;
    expect(ok.success, ok.message).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __clicks: string[] }).__clicks)).toEqual(['file-export-png']);
  });

  it('a drag that moves nothing is not a step done: the run fails, saying so', async () => {
    const page = await h.open('/done/circles.html');
    const before = await placeOf(page, 'c-red');
    const r = (await local('Drag the red circle into the black box')).result;
    expect(r.success, r.message).toBe(false);
    expect(r.message).toMatch(/nothing moved/);
    expect(await placeOf(page, 'c-red')).toEqual(before);
    // A set dragged one by one: the first that does not move ends the run, and nothing after it is tried.
    const blue = await placeOf(page, 'c-blue');
    const all = (await local('Drag all circles into the black box')).result;
    expect(all.success, all.message).toBe(false);
    expect(all.message).toMatch(/<circle#c-red>.*but it did not move/);
    expect(all.actions.filter((a) => a.type === 'act')).toHaveLength(1);
    expect(await placeOf(page, 'c-blue')).toEqual(blue);
  });

  it('a value the field does not take is not a step done: the run fails, saying so', async () => {
    const page = await h.open('/done/dates.html');
    const r = (await local('Type "date" into the Birthday field, then click Save')).result;
    expect(r.success, r.message).toBe(false);
    expect(r.message).toMatch(
      /('date' is not a valid value for an input of type date|Birthday textbox, but the field does not hold it).*The steps after it were not run/,
    );
    expect(await record(page)).toMatchObject({ clicks: [] });
  });

  it('a run done says what its steps brought up on the page (a code, a confirmation), never what was there before', async () => {
    const page = await h.open('/done/reveal.html');
    const r = (await local('Click the button three times')).result;
    expect(r.success, r.message).toBe(true);
    expect((await record(page)).clicks).toEqual(['go', 'go', 'go']);
    // Five new lines, four fit: the one that hands something over is kept, the rest in page order.
    expect(r.message).toMatch(/The page now shows: "Clicks: 3" "Nice rhythm\." "Speed: steady" "Well done! The password is TIGER-42\."$/);
    expect(r.message).not.toMatch(/reveal the password/);
  });

  it('the same pages, tasks it can do: still done', async () => {
    const page = await h.open('/done/ladybird.html');
    const r = (await local('Click Move right twice, then click Go')).result;
    expect(r.success, r.message).toBe(true);
    expect((await record(page)).clicks).toEqual(['right', 'right', 'go']);
    await h.open('/done/chart.html');
    const typed = (await local('Type "fruit,sold" into the CSV field and click Check')).result;
    expect(typed.success, typed.message).toBe(true);
    expect(await text(await h.browser.context.activePage(), 'verdict')).toBe('Checked: 1 rows');
    // A date named by description, into the field named for it: today in the field's own format.
    const dates = await h.open('/done/dates.html');
    const dated = (await local("Enter today's date into the Date field")).result;
    expect(dated.success, dated.message).toBe(true);
    const today = await dates.evaluate(() => new Date().toLocaleDateString('en-US', { month: '2-digit', day: '2-digit', year: 'numeric' }));
    expect(await dates.evaluate(() => (document.getElementById('today') as HTMLInputElement).value)).toBe(today);
  });
});

const step = (tool: string, args: Record<string, unknown> = {}) => ({
  object: {
    reasoning: `next: ${tool}`,
    tool,
    instruction: null,
    url: null,
    direction: null,
    ms: null,
    keys: null,
    x: null,
    y: null,
    text: null,
    toX: null,
    toY: null,
    query: null,
    answer: null,
    success: null,
    taskCompleted: tool === 'done',
    ...args,
  },
  usage: { input: 50, output: 10 },
});
const model = () => ({ modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-done', baseURL: ms.url });
const provider = (instruction: string, mode: 'dom' | 'hybrid' | 'cua' = 'dom') =>
  h.dh.agentExecute({ agentConfig: { model: model(), executionModel: 'deckhand/local', mode }, executeOptions: { instruction } });

describe("a provider model's done is checked against what its steps did", () => {
  it('done after a click on a heading that changed nothing: success false, the answer kept, the model told', async () => {
    const page = await h.open('/done/chart.html');
    ms.script(step('act', { instruction: 'click the "Transcribe the bar chart into CSV" heading' }), (_r, prompt) => {
      expect(prompt).toMatch(/1\. act .*\(nothing changed on the page\)/);
      return step('done', { answer: 'transcribed the chart', success: true });
    });
    const r = (await provider('Transcribe the bar chart into CSV')).result;
    expect(r).toMatchObject({ success: false, completed: true, metadata: { modelAnswer: 'transcribed the chart' } });
    expect(r.message).toMatch(/^not done: the task asks for a change on the page, and no step changed it \(act .*heading.*\)\./);
    expect(r.message).toMatch(/The model said: transcribed the chart$/);
    expect((await record(page)).clicks).toEqual(['title']);
  });

  it('done after a drag that moved nothing (hybrid, at points): success false', async () => {
    const page = await h.open('/done/circles.html');
    const from = await placeOf(page, 'c-red');
    const to = await placeOf(page, 'box');
    ms.script(step('drag', { x: from.x, y: from.y, toX: to.x, toY: to.y }), step('done', { answer: 'all circles are in the box', success: true }));
    const r = (await provider('Drag all circles into the black box', 'hybrid')).result;
    expect(r.success, r.message).toBe(false);
    expect(r.message).toMatch(/no step changed it \(drag .*\)\. The model said: all circles are in the box$/);
    expect(await placeOf(page, 'c-red')).toEqual(from);
  });

  it('done right after a failed step, or with no step at all: success false', async () => {
    await h.open('/done/upload.html');
    ms.script(step('act', { instruction: 'click the Upload button' }), step('done', { answer: 'uploaded', success: true }));
    const failed = (await provider('Upload any file')).result;
    expect(failed.success).toBe(false);
    expect(failed.message).toMatch(/^not done: the step before it failed \(act: .*\)\. The model said: uploaded$/);
    ms.script(step('done', { answer: 'uploaded', success: true }));
    const none = (await provider('Upload any file')).result;
    expect(none.message).toBe('not done: the task asks for a change on the page, and no step acted on it. The model said: uploaded');
  });

  it('the task done, or a question answered: success stands', async () => {
    const page = await h.open('/done/chart.html');
    ms.script(
      step('act', { instruction: 'type "fruit,sold" into the CSV field' }),
      step('act', { instruction: 'click the Check button' }),
      step('done', { answer: 'transcribed and checked', success: true }),
    );
    const done = (await provider('Transcribe the bar chart into CSV and check it')).result;
    expect(done).toMatchObject({ success: true, completed: true, message: 'transcribed and checked' });
    expect(await text(page, 'verdict')).toBe('Checked: 1 rows');

    // Read off the page: nothing to change, and nothing changed.
    ms.script(step('scroll', { direction: 'down' }), step('done', { answer: 'Mangos, Limes and Cherries', success: true }));
    const asked = (await provider('Which fruits does the bar chart show?')).result;
    expect(asked).toMatchObject({ success: true, message: 'Mangos, Limes and Cherries' });
    ms.script(step('extract', { instruction: 'the title of the challenge' }), step('done', { answer: 'Transcribe the bar chart into CSV', success: true }));
    const title = (await provider('Find the title of the challenge')).result;
    expect(title).toMatchObject({ success: true, message: 'Transcribe the bar chart into CSV' });

    // A button taken by the page is the click's effect, though nothing on the page changes (cua: at a point).
    const ladybird = await h.open('/done/ladybird.html');
    ms.script(step('click_at', await placeOf(ladybird, 'go')), step('done', { answer: 'pressed Go', success: true }));
    const go = (await provider('Press Go', 'cua')).result;
    expect(go).toMatchObject({ success: true, message: 'pressed Go' });
    expect((await record(ladybird)).clicks).toEqual(['go']);
  });
});
