// attach: drive your own Chrome. Wait for the Deckhand extension to pair with this program,
// open a page in it and carry out one instruction with the built-in local model.
//
//   node examples/node/attach.mjs <url> "<instruction>"
//
// It prints the port and token to enter in Chrome's Deckhand side panel (Settings, "Connect to a
// local client"), waits up to two minutes for that, then opens <url> in a new tab, acts and
// prints the result as JSON. Nothing but the extension can connect: the program listens on
// 127.0.0.1 only and the token works once.

import { Deckhand, localBrowser } from 'deckhand';

const [url, instruction] = process.argv.slice(2);
if (!url || !instruction) {
  console.error('usage: node examples/node/attach.mjs <url> "<instruction>"');
  process.exit(2);
}

const browser = await localBrowser.attach({
  name: 'the attach example',
  onPairing: ({ port, token }) => {
    console.log(`In Chrome, open the Deckhand side panel, choose "Connect to a local client" and enter port ${port} and token ${token}`);
  },
});
try {
  const deckhand = await Deckhand.create({ browser });
  // A new tab: the person's own tabs stay as they are.
  const page = await browser.context.newPage(url);
  const result = await deckhand.act(instruction, { page });
  console.log(JSON.stringify({ success: result.data.success, action: result.data.actionDescription, title: await page.title() }));
  await deckhand.close();
} finally {
  // Says goodbye: the side panel shows the program left, and the pairing is forgotten.
  await browser.close();
}
