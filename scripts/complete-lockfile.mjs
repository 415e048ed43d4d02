#!/usr/bin/env node
// Adds the optional platform packages npm leaves out of package-lock.json when it resolves on
// one platform (rollup's native binaries, say): without them `npm ci` calls the lockfile out of
// sync. Each missing entry gets its pinned version and the os/cpu/libc the registry gives for the
// package, so npm ci skips it on other platforms; the integrity too when the registry has that
// very version (a mirror may carry only some platforms' builds). Run after `npm install` changes
// the lock.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const pkgs = lock.packages;
let added = 0;
for (const [where, entry] of Object.entries(pkgs)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    // npm looks a dependency up beside its dependent first, then at the top.
    const nested = `${where ? `${where}/` : ''}node_modules/${name}`;
    if (pkgs[nested] || pkgs[`node_modules/${name}`]) continue;
    const view = (spec) => {
      try {
        const out = JSON.parse(
          execFileSync('npm', ['view', spec, '--json', 'version', 'dist.integrity', 'os', 'cpu', 'libc', 'license'], {
            encoding: 'utf8',
            stdio: ['ignore', 'pipe', 'ignore'],
          }),
        );
        return Array.isArray(out) ? out.at(-1) : out;
      } catch {
        return null;
      }
    };
    const exact = view(`${name}@${version}`);
    const m = exact ?? view(name);
    if (!m) throw new Error(`the registry knows nothing of ${name}`);
    pkgs[`node_modules/${name}`] = {
      version,
      ...(exact ? { integrity: exact['dist.integrity'] } : {}),
      ...(m.cpu ? { cpu: [m.cpu].flat() } : {}),
      ...(entry.dev ? { dev: true } : {}),
      ...(m.libc ? { libc: [m.libc].flat() } : {}),
      ...(m.license ? { license: m.license } : {}),
      optional: true,
      ...(m.os ? { os: [m.os].flat() } : {}),
    };
    added++;
  }
}
// npm keeps packages sorted by path.
lock.packages = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(
  added
    ? `added ${added} optional platform package${added === 1 ? '' : 's'} to package-lock.json`
    : 'package-lock.json already lists every optional platform package',
);
