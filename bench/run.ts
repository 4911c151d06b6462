/**
 * Runs every benchmark, or those named on the command line: `npm run bench -- core`.
 */
const suites: Record<string, () => Promise<unknown>> = {
  core: () => import('./core.bench.js'),
};
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
for (const [name, load] of Object.entries(suites)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  const mod = (await load()) as { run(): Promise<void> };
  await mod.run();
}
