// agent: give a task in several steps and let the agent work out and do the steps.
//
//   node examples/node/agent.mjs <url of a contact form>
//
// With no model configured the agent runs on the built-in local model: no key, no network.
// It handles form tasks like this one; with a provider's model (model: 'openai/gpt-4.1-mini'
// and OPENAI_API_KEY, say) the same code takes on open-ended tasks.

import { Deckhand, localBrowser } from 'deckhand';

const url = process.argv[2];
if (!url) {
  console.error('usage: node examples/node/agent.mjs <url>');
  process.exit(2);
}

const browser = await localBrowser.launch({ headless: true });
try {
  const deckhand = await Deckhand.create({ browser });
  const page = await browser.context.activePage();
  await page.goto(url);

  const agent = deckhand.agent();
  const result = await agent.execute({
    instruction: 'Fill the contact form: name Grace Hopper, email grace@example.com, topic Returns, message "The hose leaks at the tap.", and then click Send',
    // A bound on the work: the agent stops after this many steps whether done or not.
    maxSteps: 12,
  });

  console.log(`success: ${result.success}, completed: ${result.completed}`);
  console.log(`message: ${result.message}`);
  for (const step of result.actions) console.log(`  ${step.type}: ${step.result ?? ''}`);
  console.log(`page now: ${await page.title()}`);
  await deckhand.close();
} finally {
  await browser.close();
}
