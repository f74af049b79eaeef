#!/usr/bin/env node
// Precompresses the build: writes NAME.br (brotli, quality 11) and NAME.gz (gzip -9) beside each
// text file of dist/, so the API (portal_api/web.py) sends them as they are, with no compression
// per request. Fonts (woff2) and images are compressed already and are left alone, as is any file
// that compression would not make smaller.
import { readdirSync, readFileSync, writeFileSync, statSync } from 'node:fs';
import { join, dirname, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const TEXT = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.ico', '.webmanifest']);

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== '.vite') yield* files(path);
    else if (entry.isFile() && TEXT.has(extname(entry.name))) yield path;
  }
}

let raw = 0;
let br = 0;
let count = 0;
for (const path of files(dist)) {
  const body = readFileSync(path);
  const packed = {
    br: brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length }
    }),
    gz: gzipSync(body, { level: 9 })
  };
  for (const [suffix, data] of Object.entries(packed)) {
    if (data.length < body.length) writeFileSync(`${path}.${suffix}`, data);
  }
  raw += statSync(path).size;
  br += Math.min(packed.br.length, body.length);
  count += 1;
}
console.log(`compress: ${count} files, ${(raw / 1024).toFixed(1)} KB -> ${(br / 1024).toFixed(1)} KB brotli`);
