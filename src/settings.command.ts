/**
 * @module settings.command
 * `eventsuite settings list|get|set`: the site settings the areas declare (calendar views, ticket
 * shop limits, currencies, …), with their descriptions; some have no route or screen of their own.
 * A value is given as JSON when the setting holds something other than text (`12`, `true`,
 * `["list","month"]`), and must have the type of the setting's default.
 */
import type { AppContext } from './app-context.js';
import type { CommandExtension } from './cli-commands.js';
import type { SettingDef } from './area.js';

const USAGE = 'usage: eventsuite settings list | settings get NAME | settings set NAME VALUE';
/** Settings whose values are secrets are listed without them. */
const SECRET = /key|secret|token|password/i;

function declared(ctx: AppContext): Map<string, SettingDef & { area: string }> {
  const out = new Map<string, SettingDef & { area: string }>();
  for (const area of ctx.areas.all) for (const [name, def] of Object.entries(area.settings ?? {})) out.set(name, { ...def, area: area.id });
  return out;
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** `raw` read as a value of the default's kind, or an error message. */
export function settingValue(def: SettingDef, raw: string): { value: unknown } | { error: string } {
  const kind = kindOf(def.default);
  if (kind === 'string') return { value: raw };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { error: `the value must be JSON (a ${kind})` };
  }
  if (kind !== 'null' && kindOf(value) !== kind) return { error: `the value must be a ${kind}, like the default ${JSON.stringify(def.default)}` };
  return { value };
}

/** A value as it may be printed: a secret one as `[set]`. */
const printable = (name: string, value: unknown) => (SECRET.test(name) && value ? '[set]' : value);

export const settingsCommand: CommandExtension = {
  name: 'settings',
  usage: `${'settings list'.padEnd(30)}every site setting with its value and what it does
  ${'settings get NAME'.padEnd(30)}one setting's value
  ${'settings set NAME VALUE'.padEnd(30)}change a setting (JSON unless it holds text) [--json]`,
  async run({ args, withApp, print }) {
    const [action, name, raw] = args;
    if (!['list', 'get', 'set'].includes(action ?? '') || (action !== 'list' && !name) || (action === 'set' && raw === undefined)) throw new Error(USAGE);
    return withApp(async (app) => {
      const settings = declared(app.ctx);
      if (action === 'list') {
        const rows = await Promise.all([...settings].map(async ([n, def]) => ({ name: n, area: def.area, value: printable(n, await app.ctx.options.get(n, def.default)), description: def.description })));
        print({ settings: rows }, rows.map((r) => `${r.name} = ${JSON.stringify(r.value)}  (${r.area}) ${r.description}`).join('\n'));
        return 0;
      }
      const def = settings.get(name!);
      if (!def) throw new Error(`no setting ${name}; see eventsuite settings list`);
      if (action === 'get') {
        const value = await app.ctx.options.get(name!, def.default);
        print({ name, value }, JSON.stringify(value));
        return 0;
      }
      const parsed = settingValue(def, raw!);
      if ('error' in parsed) throw new Error(`settings set ${name}: ${parsed.error}`);
      await app.ctx.options.set(name!, parsed.value);
      print({ name, value: parsed.value }, `${name} = ${JSON.stringify(printable(name!, parsed.value))}`);
      return 0;
    });
  },
};
