#!/usr/bin/env node
// Prints the gzipped size of the JavaScript the browser loads before the first lazy route:
// the entry chunk and everything it imports statically (Vite's build manifest).
// Exits 1 when that is over the budget (250 KB gzipped; SIZE_BUDGET_KB overrides).
import { readFileSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const manifestPath = join(dist, '.vite', 'manifest.json');
const budgetKB = Number(process.env.SIZE_BUDGET_KB || 250);

if (!existsSync(manifestPath)) {
  console.error(`size: ${manifestPath} not found; run "npm run build" first`);
  process.exit(2);
}

const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const seen = new Set();
const css = new Set();
(function walk(key) {
  if (seen.has(key)) return;
  seen.add(key);
  const chunk = manifest[key];
  for (const c of chunk.css ?? []) css.add(c);
  for (const dep of chunk.imports ?? []) walk(dep);
})(entryKey);

const kb = (n) => (n / 1024).toFixed(1);
const measure = (file) => {
  const buf = readFileSync(join(dist, file));
  return { file, raw: buf.length, gz: gzipSync(buf, { level: 9 }).length };
};

const js = [...seen].map((k) => measure(manifest[k].file)).sort((a, b) => b.gz - a.gz);
const styles = [...css].map(measure);
const totalJs = js.reduce((s, f) => s + f.gz, 0);
const totalRaw = js.reduce((s, f) => s + f.raw, 0);
const totalCss = styles.reduce((s, f) => s + f.gz, 0);
const lazy = Object.values(manifest).filter((c) => c.isDynamicEntry).length;

console.log('\nJS loaded before the first lazy route (entry + static imports):');
for (const f of js) console.log(`  ${f.file.padEnd(44)} ${kb(f.raw).padStart(8)} KB  gzip ${kb(f.gz).padStart(7)} KB`);
console.log(`  total: ${kb(totalRaw)} KB raw, ${kb(totalJs)} KB gzipped (budget ${budgetKB} KB)`);
console.log(`  css before first route: ${kb(totalCss)} KB gzipped; lazy route chunks: ${lazy}`);
console.log(`initial-js-gzip-kb: ${kb(totalJs)}`);

if (totalJs > budgetKB * 1024) {
  console.error(`size: initial JS ${kb(totalJs)} KB gzipped is over the ${budgetKB} KB budget`);
  process.exit(1);
}
