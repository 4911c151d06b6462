/**
 * @module cli-commands
 * Commands areas add to the command line (seed, import, check-in key, mailing list, jobs, settings,
 * media).
 * Each names itself, its usage line and what it runs.
 */
import cliProgress from 'cli-progress';
import type { App } from './app.js';
import type { Config } from './config.js';
import { findUserByLogin } from './auth/index.js';
import { seedEvents } from './namespaces/events/index.js';
import { IMPORT_USAGE, runImportCommand } from './namespaces/event-import/index.js';
import { generateCheckinApiKey, seedOrders, setCheckinApiKey } from './namespaces/tickets/index.js';
import { rebuildShopAnalytics } from './namespaces/shop-analytics/index.js';
import { createSignupForm } from './namespaces/mailing-list/index.js';
import { jobsCommand } from './jobs/jobs.command.js';
import { settingsCommand } from './settings.command.js';
import { mediaCommand } from './media.command.js';

export interface CommandInput {
  config: Config;
  values: Record<string, string | boolean | undefined>;
  args: string[];
  withApp<T>(fn: (app: App) => Promise<T>): Promise<T>;
  print(data: Record<string, unknown>, human: string): void;
}

export interface CommandExtension {
  name: string;
  usage: string;
  run(input: CommandInput): Promise<number>;
}

/** A progress bar on stderr (drawn only on a terminal), started on the first update. */
function progressBar(label: string): { update(done: number, total: number): void; stop(): void } {
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: `${label} [{bar}] {percentage}% | {value}/{total}`, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, done);
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(done);
      }
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}

/** A positive integer flag, or undefined when absent. */
function countFlag(values: CommandInput['values'], name: string): number | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  const raw = typeof v === 'string' ? v.trim() : '';
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`seed needs --${name} N (a positive integer)`);
  return Number(raw);
}

/** `seed --events N` / `seed --orders N`: realistic calendar data, ticket-shop orders and their analytics. */
const seedCommand: CommandExtension = {
  name: 'seed',
  usage: `${'seed --events N'.padEnd(30)}create N demo events with venues, organizers, categories and tags
  ${'seed --orders N'.padEnd(30)}create N ticket-shop orders (customers, guests, coupons, attendees; a year
      of dates) and their shop analytics [--customers N (default N/5)] [--json]`,
  async run({ values, withApp, print }) {
    const events = countFlag(values, 'events');
    const orders = countFlag(values, 'orders');
    const customers = countFlag(values, 'customers');
    if (events === undefined && orders === undefined) throw new Error('seed needs --events N or --orders N (a positive integer)');
    return withApp(async (app) => {
      const data: Record<string, unknown> = {};
      const lines: string[] = [];
      if (events !== undefined) {
        const bar = progressBar('events');
        try {
          const result = await seedEvents(app.ctx, { events, onProgress: (done, total) => bar.update(done, total) });
          bar.stop();
          Object.assign(data, result);
          lines.push(`seeded ${result.events} events, ${result.venues} venues, ${result.organizers} organizers, ${result.categories} categories and ${result.tags} tags in ${(result.ms / 1000).toFixed(1)} s`);
        } finally {
          bar.stop();
        }
      }
      if (orders !== undefined) {
        const bar = progressBar('orders');
        try {
          const result = await seedOrders(app.ctx, { orders, ...(customers ? { customers } : {}), onProgress: (done, total) => bar.update(done, total) });
          bar.stop();
          data.orders = result;
          lines.push(`seeded ${result.orders} orders of ${result.customers} customers (${result.registered} registered), ${result.attendees} attendees, ${result.tickets} events with a ticket and ${result.coupons} coupons in ${(result.ms / 1000).toFixed(1)} s`);
          if (app.ctx.areas.isEnabled('shop-analytics')) {
            const started = Date.now();
            const analytics = await rebuildShopAnalytics(app.ctx, { onProgress: (done, total) => bar.update(done, total) });
            bar.stop();
            data.analytics = { ...analytics, ms: Date.now() - started };
            lines.push(`shop analytics: ${analytics.orders} orders, ${analytics.customers} customers in ${((Date.now() - started) / 1000).toFixed(1)} s`);
          }
        } finally {
          bar.stop();
        }
      }
      print(data, lines.join('\n'));
      return 0;
    });
  },
};

/** `import …`: one-off imports and import records (see `namespaces/event-import/cli.ts`). */
const importCommand: CommandExtension = {
  name: 'import',
  usage: IMPORT_USAGE,
  async run({ values, args, withApp, print }) {
    return withApp(async (app) => {
      let user;
      if (typeof values.user === 'string' && values.user !== '') {
        user = await findUserByLogin(app.ctx, values.user);
        if (!user) throw new Error(`no user with login ${values.user}`);
      }
      const bar = progressBar('events');
      try {
        return await runImportCommand({
          ctx: app.ctx, args, values, ...(user ? { user } : {}),
          progress: (done, total) => bar.update(done, total),
          print: (data, human) => {
            bar.stop();
            print(data, human);
          },
        });
      } finally {
        bar.stop();
      }
    });
  },
};

/** `checkin-key generate|set`: the API key check-in apps send to `GET /qr` (an administrator's setting). */
const checkinKeyCommand: CommandExtension = {
  name: 'checkin-key',
  usage: `${'checkin-key generate'.padEnd(30)}create a new check-in API key for QR scanner apps
  ${'checkin-key set --key KEY'.padEnd(30)}use KEY as the check-in API key [--json]`,
  async run({ args, values, withApp, print }) {
    const [action] = args;
    if (action !== 'generate' && action !== 'set') throw new Error('usage: eventsuite checkin-key generate | checkin-key set --key KEY');
    const given = typeof values.key === 'string' ? values.key.trim() : '';
    if (action === 'set' && given.length < 8) throw new Error('checkin-key set needs --key KEY (at least 8 characters)');
    return withApp(async (app) => {
      const key = action === 'set' ? (await setCheckinApiKey(app.ctx, given), given) : await generateCheckinApiKey(app.ctx);
      print({ api_key: key }, `check-in API key: ${key}`);
      return 0;
    });
  },
};

/** `mailinglist form create --name NAME --list ID[,ID…]`: a sign-up form for `POST /mailinglist/v1/form`. */
const mailinglistCommand: CommandExtension = {
  name: 'mailinglist',
  usage: `${'mailinglist form create'.padEnd(30)}create a sign-up form: --name NAME --list ID[,ID…] [--json]`,
  async run({ args, values, withApp, print }) {
    const [kind, action] = args;
    if (kind !== 'form' || action !== 'create') throw new Error('usage: eventsuite mailinglist form create --name NAME --list ID[,ID…]');
    const name = typeof values.name === 'string' ? values.name.trim() : '';
    const lists = typeof values.list === 'string' ? values.list.split(',').map((s) => s.trim()).filter(Boolean) : [];
    if (!name || lists.length === 0) throw new Error('mailinglist form create needs --name NAME and --list ID[,ID…]');
    return withApp(async (app) => {
      const form = await createSignupForm(app.ctx, { title: name, lists });
      print({ ...form }, `created sign-up form ${form.id} "${form.title}" for list(s) ${form.lists.join(', ')}`);
      return 0;
    });
  },
};

export const commandExtensions: CommandExtension[] = [seedCommand, importCommand, checkinKeyCommand, mailinglistCommand, jobsCommand, settingsCommand, mediaCommand];
