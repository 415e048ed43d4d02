#!/usr/bin/env node
// One-step setup for a fresh machine: npm packages, Debian's Chromium when no
// Chromium is found, schemathesis for the HTTP service's OpenAPI check, the Python client
// with its test dependencies (both in .venv/), the Go client's modules, then the extension and the
// Node library builds.
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

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
// schemathesis (test/e2e/openapi.test.ts runs it against the service's /v1/openapi.json):
// pinned, in the project's own virtualenv, so no system Python package is touched.
const SCHEMATHESIS = '4.32.5';
const installed = (() => {
  try {
    return execSync('.venv/bin/schemathesis --version', { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return '';
  }
})();
if (!installed.includes(`version ${SCHEMATHESIS}`)) {
  try {
    if (!existsSync('.venv/bin/pip')) run('python3 -m venv .venv');
    run(`.venv/bin/pip install --quiet --disable-pip-version-check schemathesis==${SCHEMATHESIS}`);
  } catch {
    console.error('Could not install schemathesis into .venv: it needs Python 3 with venv and pip (on Debian: apt-get install python3-venv).');
    process.exit(1);
  }
}
// The Python client (python/) and its test dependencies, pinned in python/pyproject.toml,
// installed editable into the same virtualenv; redone when pyproject.toml changes.
const stamp = '.venv/.deckhand-python';
const wanted = createHash('sha256').update(readFileSync('python/pyproject.toml')).digest('hex');
if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== wanted) {
  try {
    run(".venv/bin/pip install --quiet --disable-pip-version-check -e 'python[test]'");
    writeFileSync(stamp, wanted);
  } catch {
    console.error('Could not install the Python client into .venv (pip install -e python[test]).');
    process.exit(1);
  }
}
// The Go client's modules (go/go.mod and go.sum pin them), from the Go module proxy.
try {
  run('cd go && go mod download');
} catch {
  console.error('Could not download the Go client\'s modules: install Go 1.24 or newer (https://go.dev/dl/) and run npm run setup again.');
  process.exit(1);
}
run('npm run build');
