/**
 * Serves the pages the examples were written against (the repository's test fixture pages) on
 * 127.0.0.1, prints a URL for each example, and prints every form post it receives.
 *
 *   node --import tsx examples/serve-pages.ts
 */
import { startFixtureServers } from '../test/fixtures/server';

const servers = await startFixtureServers();
const pages = {
  'contact form (act, cache, agent)': '/examples/contact.html',
  'product list (observe, extract, custom model, logging, batch)': '/examples/shop.html',
  'sign-up form (pages and locators)': '/form.html',
};
for (const [what, path] of Object.entries(pages)) console.log(`${what}: ${servers.origin}${path}`);
console.log('Ctrl+C to stop. Form posts:');

let seen = 0;
setInterval(() => {
  for (const post of servers.posts.slice(seen)) console.log(`POST ${post.path} ${JSON.stringify(post.fields)}`);
  seen = servers.posts.length;
}, 250);
