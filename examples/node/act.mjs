// act: do things on a page from plain-language instructions.
//
//   node examples/node/act.mjs <url of a contact form>
//
// With no model and no API key configured, Deckhand uses its built-in local model,
// which runs inside the browser extension: nothing leaves the machine.

// Imported by package name, as an installed copy would be. Inside this repository the name
// resolves to the package itself (its "exports" point at the built dist/index.js).
import { Deckhand, localBrowser } from 'deckhand';

const url = process.argv[2];
if (!url) {
  console.error('usage: node examples/node/act.mjs <url>');
  process.exit(2);
}

const browser = await localBrowser.launch({ headless: true });
try {
  const deckhand = await Deckhand.create({ browser });
  const page = await browser.context.activePage();
  await page.goto(url);

  // One instruction per step: each is matched against the page as it is at that moment.
  for (const instruction of [
    'type "Ada Lovelace" into the Name field',
    'type "ada@example.com" into the Email field',
    'select Returns from the Topic list',
    'type "The trowel arrived bent." into the Message field',
    'click the Send button',
  ]) {
    const result = await deckhand.act(instruction);
    // An instruction the model cannot match is not an exception: success is false.
    if (!result.data.success) throw new Error(`could not ${instruction}: ${result.data.message}`);
    console.log(`done: ${result.data.actionDescription}`);
  }

  // The form posted to the site, which answered with a new page.
  console.log(`page now: ${await page.title()}`);
  console.log(`heading: ${await page.evaluate(() => document.querySelector('h1')?.textContent)}`);
  await deckhand.close();
} finally {
  await browser.close();
}
