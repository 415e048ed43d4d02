/**
 * The docs site. VitePress because the pages are plain Markdown that also read well on GitHub,
 * the Vue team maintains it, it builds a static site with no network access, and it builds
 * fast; Starlight would have brought Astro and its toolchain for the same result.
 *
 * `npm run docs` generates docs/reference/ from the code (scripts/gen-reference.ts) and then
 * builds; a link to a page that does not exist fails the build (VitePress's dead-link check).
 */
import { defineConfig, type DefaultTheme } from 'vitepress';
import { sections } from './sidebar';

const sidebar: DefaultTheme.SidebarItem[] = sections.map((s) =>
  // A section of one page is a plain link rather than a group holding itself.
  s.items.length === 1 ? { text: s.text, link: s.items[0].link } : { text: s.text, collapsed: false, items: s.items },
);

export default defineConfig({
  title: 'Deckhand',
  description: 'Drive a real Chromium with AI, from inside the browser.',
  lang: 'en-US',
  cleanUrls: true,
  lastUpdated: false,
  // Off: the dead-link check is the point; say so here if a page ever needs an exception.
  ignoreDeadLinks: false,
  // The site is built and served locally or from any static host: no base path assumed.
  base: process.env.DECKHAND_DOCS_BASE ?? '/',
  markdown: {
    // Generated pages quote source positions such as "schemas.ts:128"; keep line numbers off code.
    lineNumbers: false,
    // The Node examples are .mjs files, included as they are.
    languageAlias: { mjs: 'js' },
  },
  themeConfig: {
    // A section's entry stays lit on all of its pages (/guides/..., /reference/typescript/...).
    nav: sections.map((s) => {
      const dir = /^\/[^/]+\//.exec(s.link)?.[0];
      return dir ? { text: s.text, link: s.link, activeMatch: `^${dir}` } : { text: s.text, link: s.link };
    }),
    sidebar,
    outline: { level: [2, 3] },
    // Local search: built into the site, no service to call.
    search: { provider: 'local' },
  },
});
