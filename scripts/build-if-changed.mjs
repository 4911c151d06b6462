#!/usr/bin/env node
// Builds dist/ only when a source file (or the build config) is newer than the last build. `npm ci`
// runs it once (`prepare`) and `npm start` before each start, so a start without changes is instant.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const stamp = path.join('dist', 'cli.js');

function newest(dir) {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) latest = Math.max(latest, fs.statSync(full).mtimeMs);
  }
  return latest;
}

const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
const sources = Math.max(newest('src'), ...['tsconfig.json', 'tsconfig.build.json'].map((f) => fs.statSync(f).mtimeMs));
const tscPath = path.join('node_modules', 'typescript', 'bin', 'tsc');
if (sources > built && !fs.existsSync(tscPath)) {
  // A production install (`npm ci --omit=dev`) has no compiler: run what was built, if anything.
  process.stderr.write(`typescript is not installed: dist/ ${built ? 'may be older than src/' : 'is missing; install with dev dependencies to build it'}\n`);
  process.exit(0);
}
if (sources > built) {
  process.stderr.write('sources changed since the last build: building dist/ …\n');
  const tsc = spawnSync(process.execPath, [tscPath, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  // tsc leaves an unchanged output file untouched: mark the build time explicitly.
  const now = new Date();
  fs.utimesSync(stamp, now, now);
}
