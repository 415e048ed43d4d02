#!/usr/bin/env node
// One-step setup for a fresh machine: npm packages, Debian's Chromium when no
// Chromium is found, then the extension and the Node library builds.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const run = (cmd) => {
  console.log(`$ ${cmd}`);
  execSync(cmd, { stdio: 'inherit' });
};
const candidates = [process.env.DECKHAND_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

// Exactly the versions pinned in package-lock.json (scripts/complete-lockfile.mjs keeps the
// other platforms' optional packages in it, which npm ci insists on).
if (!existsSync('node_modules/.bin/wxt')) run('npm ci --no-audit --no-fund');
if (!candidates.some((c) => c && existsSync(c))) {
  if (!existsSync('/usr/bin/apt-get')) {
    console.error('No Chromium found and no apt-get to install one: install Chromium and set DECKHAND_CHROMIUM to its path.');
    process.exit(1);
  }
  const sudo = process.getuid && process.getuid() === 0 ? '' : 'sudo ';
  run(`${sudo}apt-get update -qq`);
  run(`${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium`);
}
run('npm run build');
