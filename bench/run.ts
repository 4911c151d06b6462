/**
 * Runs every benchmark, or those named on the command line: `npm run bench -- core events`.
 */
const suites: Record<string, () => Promise<unknown>> = {
  core: () => import('./core.bench.js'),
  events: () => import('./events.bench.js'),
  search: () => import('./search.bench.js'),
  tickets: () => import('./tickets.bench.js'),
  seo: () => import('./seo.bench.js'),
  forms: () => import('./forms.bench.js'),
  import: () => import('./import.bench.js'),
  scale: () => import('./scale.bench.js'),
  soak: () => import('./soak.bench.js'),
  analytics: () => import('./analytics.bench.js'),
};
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((name) => !(name in suites));
if (unknown.length > 0) throw new Error(`unknown suite(s): ${unknown.join(', ')} (known: ${Object.keys(suites).join(', ')})`);
for (const [name, load] of Object.entries(suites)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  const mod = (await load()) as { run(): Promise<void> };
  await mod.run();
}
