/**
 * @module test-support/cli-build
 * Tests that start `eventsuite` in a child process (fault, shutdown, worker and startup tests) run
 * plain JavaScript, not `node --import tsx src/cli.ts`: tsx resolves and transpiles every module
 * through loader hooks at each start, which costs 2–3 s of CPU per process (every worker of
 * `--workers 4` too). The global setup compiles `src/` once per run with esbuild (file by file, no
 * bundle, so the migrations folder is still read as a folder) into `.vitest-build/run-<pid>/` and
 * names it in `EVENTSUITE_TEST_CLI`; without it (a file run outside that setup) tests fall back to tsx.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BUILD_ROOT = path.join(ROOT, '.vitest-build');

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) sources(full, out);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** Whether process `pid` exists (also when it belongs to another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Compiles `src/` for run `runPid`; returns the path of its `cli.js`. Removes builds of runs that are gone. */
export async function buildCli(runPid: number): Promise<string> {
  if (fs.existsSync(BUILD_ROOT)) {
    for (const name of fs.readdirSync(BUILD_ROOT)) {
      const pid = Number(/^run-(\d+)$/.exec(name)?.[1]);
      if (pid && !alive(pid)) fs.rmSync(path.join(BUILD_ROOT, name), { recursive: true, force: true });
    }
  }
  const outdir = path.join(BUILD_ROOT, `run-${runPid}`);
  const { build } = await import('esbuild');
  await build({
    entryPoints: sources(path.join(ROOT, 'src')),
    outdir,
    outbase: path.join(ROOT, 'src'),
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    tsconfig: path.join(ROOT, 'tsconfig.json'),
    logLevel: 'warning',
  });
  fs.writeFileSync(path.join(outdir, 'package.json'), '{"type":"module"}\n');
  return path.join(outdir, 'cli.js');
}

export function removeBuild(runPid: number): void {
  fs.rmSync(path.join(BUILD_ROOT, `run-${runPid}`), { recursive: true, force: true });
}

/** Node arguments that run `eventsuite <args>`: the run's compiled CLI, or tsx on the sources. */
export function cliArgs(...args: string[]): string[] {
  const built = process.env.EVENTSUITE_TEST_CLI;
  return built ? [built, ...args] : ['--import', 'tsx', path.join(ROOT, 'src/cli.ts'), ...args];
}
