#!/usr/bin/env node
// Packs the built extension (.output/chrome-mv3) as .output/chrome-mv3.crx with Chromium's own
// packer, for browsers that do not have the extension's files: a Selenium Grid node gets it
// in goog:chromeOptions.extensions. The signing key is made for each build and thrown away:
// the extension's id comes from the `key` in its manifest, not from the package's signature.
// With no Chromium on this machine the package is left out, and the build says so.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const dir = resolve('.output/chrome-mv3');
const crx = `${dir}.crx`;
const chromium = [process.env.DECKHAND_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((c) => c && existsSync(c));
if (!existsSync(join(dir, 'manifest.json'))) {
  console.error(`pack-extension: no built extension in ${dir}; run wxt build first`);
  process.exit(1);
}
rmSync(crx, { force: true });
if (!chromium) {
  console.log('pack-extension: no Chromium found, so no .crx (only Grid nodes without the extension folder need it)');
  process.exit(0);
}
const work = mkdtempSync(join(tmpdir(), 'dh-pack-'));
try {
  const key = join(work, 'key.pem');
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(key, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  // Its own profile and temp folder, so nothing of this run is left behind.
  execFileSync(
    chromium,
    ['--headless=new', '--no-sandbox', `--user-data-dir=${join(work, 'profile')}`, `--pack-extension=${dir}`, `--pack-extension-key=${key}`],
    {
      stdio: 'ignore',
      timeout: 60_000,
      env: { ...process.env, TMPDIR: work },
    },
  );
  if (!existsSync(crx)) throw new Error('Chromium wrote no package');
  console.log(`pack-extension: ${crx} (${Math.round(statSync(crx).size / 1024)} KB)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
