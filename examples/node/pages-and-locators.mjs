// pages and locators: several tabs, and direct element access with CSS or XPath selectors.
//
//   node examples/node/pages-and-locators.mjs <url of a sign-up form>
//
// Locators need no model: use them where you know the page, and act() where you do not.

import { Deckhand, localBrowser } from 'deckhand';

const url = process.argv[2];
if (!url) {
  console.error('usage: node examples/node/pages-and-locators.mjs <url>');
  process.exit(2);
}

const browser = await localBrowser.launch({ headless: true });
try {
  const deckhand = await Deckhand.create({ browser });
  const first = await browser.context.activePage();

  // A second tab, opened on the form; the first stays where it was.
  const form = await browser.context.newPage(url);
  console.log(`open pages: ${(await browser.context.pages()).length}`);

  // A locator is a selector (CSS or XPath) and, optionally, which match: nth(i), 0-based.
  await form.locator('#name').fill('Ada Lovelace');
  await form.locator('input[type=email]').fill('ada@example.com');
  await form.locator('select#country').selectOption('fr');
  await form.locator('input[type=checkbox]').nth(0).check(); // the first checkbox: the terms
  console.log(`checkboxes on the form: ${await form.locator('input[type=checkbox]').count()}`);
  await form.locator("//button[normalize-space(.)='Create account']").click();

  // The page shows what it submitted, as JSON; read it back with evaluate.
  const sent = JSON.parse(await form.evaluate(() => document.querySelector('#result')?.textContent || '{}'));
  console.log(`submitted: name=${sent.name} email=${sent.email} country=${sent.country} terms=${sent.terms}`);

  // The model operations take a page too, for when the tab you mean is not the active one.
  const heading = await deckhand.extract('the page heading', undefined, { page: form });
  console.log(`heading: ${heading.data.extraction}`);

  await form.close();
  console.log(`open pages: ${(await browser.context.pages()).length}, first page: ${await first.url()}`);
  await deckhand.close();
} finally {
  await browser.close();
}
