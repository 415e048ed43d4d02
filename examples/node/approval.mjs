// approval: an agent fills a form, and the submit waits for a decision before it is done.
//
//   node examples/node/approval.mjs <url of a contact form>
//
// Here the program itself decides (onApproval). Leave onApproval out and the step waits for a
// person at the side panel (Approve / Skip / Stop); with no answer by the deadline it is refused.
import { Deckhand, DeckhandError, localBrowser } from 'deckhand';

const url = process.argv[2];
if (!url) {
  console.error('usage: node examples/node/approval.mjs <url>');
  process.exit(2);
}

const browser = await localBrowser.launch({ headless: true });
try {
  // #region approval
  const deckhand = await Deckhand.create({
    browser,
    // Every act, agent run and batch of this instance: submitting a form or paying waits.
    approval: { when: ['submit', 'pay'], timeout: 60_000 },
    onApproval: async (request) => {
      console.log(`asked: ${request.summary}`);
      // request.kinds, request.element, request.url, request.target say what and why.
      return request.kinds.includes('pay') ? 'stop' : 'approve';
    },
  });
  const page = await browser.context.activePage();
  await page.goto(url);

  const run = await deckhand.agentExecute({
    agentConfig: {},
    executeOptions: { instruction: 'Fill the contact form: name Ada Lovelace, email ada@example.com, message "Hello", and then click Send' },
  });
  console.log(`agent: ${run.result.success ? 'done' : 'not done'}`);
  // #endregion approval

  // A refusal is an error with the code NOT_APPROVED and the decision in data.
  // #region refusal
  await page.goto(url);
  try {
    await deckhand.act('click the Send button', { onApproval: () => 'stop' });
  } catch (e) {
    if (!(e instanceof DeckhandError)) throw e;
    console.log(`refused: ${e.code} (${e.data?.decision})`);
  }
  // #endregion refusal
  console.log(`page now: ${await page.title()}`);
  await deckhand.close();
} finally {
  await browser.close();
}
