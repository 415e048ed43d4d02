#!/usr/bin/env node
// Zips the built extension (.output/chrome-mv3) into go/extension/chrome-mv3.zip, which the Go
// module embeds (go:embed) and unpacks to the user's cache folder on first use. The zip is
// committed, so that `go get` of the module brings the extension; the Go test
// TestEmbeddedExtensionIsTheBuild fails when it differs from the build.
//
// The zip (JSZip) is made the same way every time (files in name order, one fixed date), and the file is
// only written when what it holds changes, so an unchanged build leaves it untouched even where
// zlib compresses a little differently. `npm run build:ext` runs this after `wxt build`.
// Under CI (CI set) or with --check a stale zip is reported, not rewritten, so that a zip
// nobody committed fails the Go test instead of being fixed on the CI machine alone; --check
// also exits 1.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import JSZip from 'jszip';

const src = resolve('.output/chrome-mv3');
const out = resolve('go/extension/chrome-mv3.zip');
const check = process.argv.includes('--check');
const reportOnly = check || Boolean(process.env.CI);

if (!existsSync(join(src, 'manifest.json'))) {
  console.error(`pack-go-extension: no built extension in ${src}; run wxt build first`);
  process.exit(1);
}

/** Every file under dir, as [slash-separated relative name, contents], in name order. */
function files(dir) {
  const found = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) found.push([relative(dir, p).split(sep).join('/'), readFileSync(p)]);
    }
  };
  walk(dir);
  return found.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

// One fixed date for every entry: the zip's bytes depend only on what it holds.
const DATE = new Date(Date.UTC(1980, 0, 1));

/** A zip of entries, in their order: deflated, mode 0644, no timestamps of their own. */
async function zip(entries) {
  const z = new JSZip();
  for (const [name, data] of entries) z.file(name, data, { date: DATE, unixPermissions: 0o100644, createFolders: false });
  return z.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 }, platform: 'UNIX' });
}

/** The files of a zip, as [name, contents], in its order. */
async function unzip(buf) {
  const z = await JSZip.loadAsync(buf);
  const names = Object.keys(z.files).filter((n) => !z.files[n].dir);
  return Promise.all(names.map(async (n) => [n, await z.files[n].async('nodebuffer')]));
}

const same = (a, b) => a.length === b.length && a.every(([n, d], i) => n === b[i][0] && d.equals(b[i][1]));

const want = files(src);
let have = null;
if (existsSync(out)) {
  try {
    have = await unzip(readFileSync(out));
  } catch {
    have = null;
  }
}
if (have && same(have, want)) {
  console.log(`pack-go-extension: ${relative(process.cwd(), out)} is up to date (${want.length} files)`);
  process.exit(0);
}
if (reportOnly) {
  console.error(
    `pack-go-extension: ${relative(process.cwd(), out)} differs from ${relative(process.cwd(), src)}; not rewritten ${check ? 'with --check' : 'under CI'}. ` +
      'Run npm run build:ext and commit the zip (the Go module embeds it).',
  );
  process.exit(check ? 1 : 0);
}
mkdirSync(resolve(out, '..'), { recursive: true });
const zipped = await zip(want);
writeFileSync(out, zipped);
console.log(`pack-go-extension: ${relative(process.cwd(), out)} (${want.length} files, ${Math.round(zipped.length / 1024)} KB)`);
