// custom model: answer the model's requests with your own function.
//
//   node examples/node/custom-model.mjs <url of a product list>
//
// A callback model is how you bring any model Deckhand has no provider for: it gets each
// request (the system prompt, the user prompt, the JSON Schema of the answer, and for act,
// observe and extract the instruction and the page outline as data) and returns the object.
// Here it is a few deterministic rules instead of an LLM, so the run is the same every time.

import { Deckhand, localBrowser } from 'deckhand';

const url = process.argv[2];
if (!url) {
  console.error('usage: node examples/node/custom-model.mjs <url>');
  process.exit(2);
}

/**
 * Understands one kind of instruction, `click "<name>"`, and clicks the first element of
 * that name in the outline. Anything else is answered "not found", which act reports as an
 * unsuccessful result rather than guessing.
 * @param {import('deckhand').ModelRequest} request
 * @returns {import('deckhand').ModelReply}
 */
function clickByName(request) {
  const wanted = /^click "([^"]+)"$/i.exec(request.instruction ?? '')?.[1];
  const line = wanted && request.outline?.find((l) => l.kind === 'element' && l.name === wanted);
  console.log(`model asked: ${JSON.stringify(request.instruction)} over ${request.outline?.length ?? 0} outline lines -> ${line ? line.id : 'not found'}`);
  // The answer must follow request.schema: for act that is the fields below, all required.
  const answer = line
    ? { found: true, elementId: line.id, method: 'click', arguments: [], description: `${line.role} "${line.name}"`, twoStep: false, reason: '' }
    : {
        found: false,
        elementId: '',
        method: 'click',
        arguments: [],
        description: '',
        twoStep: false,
        reason: `no element named ${JSON.stringify(wanted ?? '')}`,
      };
  // usage is optional; when given it shows up in results and metrics like a provider's.
  return { object: answer, usage: { inputTokens: request.prompt.length, outputTokens: 0 } };
}

const browser = await localBrowser.launch({ headless: true });
try {
  // The callback is the default model of this instance; act, observe and extract may also
  // take a `model` option per call.
  const deckhand = await Deckhand.create({ browser, model: clickByName });
  const page = await browser.context.activePage();
  await page.goto(url);

  for (const instruction of ['click "Add to cart"', 'click "Checkout"', 'click "Pay with bitcoin"']) {
    const result = await deckhand.act(instruction);
    console.log(`${instruction}: ${result.data.success ? 'done' : 'not done'}`);
  }
  console.log(`status: ${await page.evaluate(() => document.querySelector('#status')?.textContent)}`);
  await deckhand.close();
} finally {
  await browser.close();
}
