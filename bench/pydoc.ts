/**
 * Python's own documentation as benchmark pages: real Sphinx output nobody here wrote.
 * Uses Debian's python3.11-doc when it is installed; otherwise fetches that package with
 * `apt-get download` (no root needed) and unpacks it into .tools/ (ignored by git).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const INSTALLED = '/usr/share/doc/python3.11/html';
const HTML = 'usr/share/doc/python3.11/html';

/** The folder holding the HTML documentation, or a clear error saying how to get it. */
export function pythonDocs(): string {
  if (existsSync(join(INSTALLED, 'library/stdtypes.html'))) return INSTALLED;
  const dir = resolve('.tools/python3.11-doc');
  if (existsSync(join(dir, HTML, 'library/stdtypes.html'))) return join(dir, HTML);
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('apt-get', ['download', 'python3.11-doc'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 });
    const deb = readdirSync(dir).find((f) => f.startsWith('python3.11-doc_') && f.endsWith('.deb'));
    if (!deb) throw new Error('apt-get download left no .deb');
    execFileSync('dpkg-deb', ['-x', deb, '.'], { cwd: dir, timeout: 120_000 });
  } catch (err) {
    throw new Error(
      "Python's documentation is needed for the documentation pages: install python3.11-doc (apt-get install python3.11-doc) " +
        `or let apt-get download fetch it (${(err as Error).message})`,
    );
  }
  return join(dir, HTML);
}

/** Three sizes of page: a large reference, a medium one and a small one. */
export const PYDOC_PAGES = [
  { name: 'python docs, large (stdtypes)', path: '/pydoc/library/stdtypes.html' },
  { name: 'python docs, medium (functions)', path: '/pydoc/library/functions.html' },
  { name: 'python docs, small (tutorial index)', path: '/pydoc/tutorial/index.html' },
] as const;
