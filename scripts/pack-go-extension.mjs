#!/usr/bin/env node
// Zips the built extension (.output/chrome-mv3) into go/extension/chrome-mv3.zip, which the Go
// module embeds (go:embed) and unpacks to the user's cache folder on first use. The zip is
// committed, so that `go get` of the module brings the extension; the Go test
// TestEmbeddedExtensionIsTheBuild fails when it differs from the build.
//
// The zip is made the same way every time (files in name order, no timestamps), and the file is
// only written when what it holds changes, so an unchanged build leaves it untouched even where
// zlib compresses a little differently. `npm run build:ext` runs this after `wxt build`.
// Under CI (CI set) or with --check a stale zip is reported, not rewritten, so that a zip
// nobody committed fails the Go test instead of being fixed on the CI machine alone; --check
// also exits 1.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

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

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

const DOS_DATE = (0 << 9) | (1 << 5) | 1; // 1980-01-01, the earliest a zip can say
const UTF8_NAMES = 0x0800;

/** A zip of entries: deflated unless storing is smaller, no timestamps, mode 0644. */
function zip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const nameBuf = Buffer.from(name, 'utf8');
    const deflated = deflateRawSync(data, { level: 9 });
    const [method, body] = deflated.length < data.length ? [8, deflated] : [0, data];
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(UTF8_NAMES, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made on Unix, so the mode below is read
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(UTF8_NAMES, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBuf.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBuf, body);
    centrals.push(central, nameBuf);
    offset += local.length + nameBuf.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** The entries of a zip this script wrote (or any without a comment or zip64), in its order. */
function unzip(buf) {
  const end = buf.length - 22;
  if (end < 0 || buf.readUInt32LE(end) !== 0x06054b50) throw new Error('not a zip this script wrote');
  const count = buf.readUInt16LE(end + 10);
  let p = buf.readUInt32LE(end + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error('bad central directory');
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const body = buf.subarray(start, start + size);
    entries.push([name, method === 8 ? inflateRawSync(body) : Buffer.from(body)]);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

const same = (a, b) => a.length === b.length && a.every(([n, d], i) => n === b[i][0] && d.equals(b[i][1]));

const want = files(src);
let have = null;
if (existsSync(out)) {
  try {
    have = unzip(readFileSync(out));
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
const zipped = zip(want);
writeFileSync(out, zipped);
console.log(`pack-go-extension: ${relative(process.cwd(), out)} (${want.length} files, ${Math.round(zipped.length / 1024)} KB)`);
