#!/usr/bin/env node
/**
 * No line over 160 characters in the files people write (TypeScript, JavaScript, Python, Go,
 * shell); generated files are left out: they say so in their first 25 lines. Lists each long line
 * as path:line (length) and fails when there is one. Run by CI (`npm run check:lines`).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const LIMIT = 160;
const CODE = /\.(ts|tsx|mts|mjs|cjs|js|py|go|sh)$/;
/** Generated files announce it near their top (Go's convention, and this project's generators). */
const GENERATED = /Code generated .* DO NOT EDIT|^\s*(#|\/\/|\/\*\*?|\*|""")?\s*Generated (by|from) /m;

const tracked = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' }).split('\0').filter((f) => CODE.test(f));
const long = [];
for (const file of tracked) {
  const text = readFileSync(file, 'utf8');
  if (GENERATED.test(text.split('\n', 25).join('\n'))) continue;
  text.split('\n').forEach((line, i) => {
    if (line.length > LIMIT) long.push(`${file}:${i + 1} (${line.length})`);
  });
}
if (long.length) {
  console.error(`${long.length} line(s) over ${LIMIT} characters:\n${long.join('\n')}`);
  process.exit(1);
}
console.log(`no line over ${LIMIT} characters in ${tracked.length} files`);
