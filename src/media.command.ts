/**
 * @module media.command
 * `eventsuite media regenerate [ID…]`: WP-CLI's `wp media regenerate` for the media library
 * (`content/media-regenerate.ts`), with its options (`--only-missing`, `--skip-delete`, `--yes`) and its
 * output: "Found N images to regenerate.", a numbered line per image, warnings on stderr, and the
 * summary of `report_batch_operation_results` ("Success: Regenerated N of M images.", or an error and
 * exit status 1 when any image failed). An image whose file is missing is counted as failed and the
 * others go on. Without IDs every image is regenerated, which is asked first (`--yes` answers).
 */
import { createInterface } from 'node:readline/promises';
import type { AppContext } from './app-context.js';
import type { CommandExtension } from './cli-commands.js';
import { libraryImages, regenerateImage, type LibraryImage, type RegenerateOptions } from './content/media-regenerate.js';

const USAGE = 'usage: eventsuite media regenerate [ID…] [--only-missing] [--skip-delete] [--yes]';

const MESSAGES = {
  badId: (arg: string) => `media regenerate: attachment IDs are positive whole numbers, not "${arg}"`,
  needsYes: 'media regenerate: without attachment IDs every image is regenerated; add --yes to confirm',
  confirm: 'Do you really want to regenerate all images? [y/n] ',
  noImages: 'No images found.',
  unknownId: (id: number) => `No image with ID ${id} in the media library.`,
  found: (n: number) => `Found ${n} ${n === 1 ? 'image' : 'images'} to regenerate.`,
  regenerated: (desc: string) => `Regenerated thumbnails for ${desc}.`,
  unchanged: (desc: string) => `No thumbnail regeneration needed for ${desc}.`,
  skipped: (desc: string, reason: string) => `Skipped thumbnail regeneration for ${desc}: ${reason}`,
  cannotFind: (desc: string) => `Can't find ${desc}.`,
  failed: (desc: string) => `Couldn't regenerate thumbnails for ${desc}.`,
  withId: (message: string, id: number) => `${message} (ID ${id})`,
} as const;

/** Where the command's lines go: `line` to stdout, `warn` to stderr (as "Warning: …"). */
export interface RegenerateReporter {
  line(text: string): void;
  warn(text: string): void;
}

/** One image's result, as `--json` prints it. */
interface ImageResult {
  id: number;
  title: string;
  result: 'regenerated' | 'unchanged' | 'skipped' | 'failed';
  sizes?: string[];
  message?: string;
}

/** `"Title" (ID 12)`, as WP-CLI names an attachment. */
function describe(image: LibraryImage): string {
  return `"${image.title === '' ? '(no title)' : image.title}" (ID ${image.id})`;
}

/**
 * `report_batch_operation_results( 'image', 'regenerate', … )`: the summary line, and whether it is a
 * success (any failure makes it an error).
 */
export function regenerateSummary(total: number, successes: number, failures: number, skips: number): { ok: boolean; text: string } {
  if (failures > 0) {
    const counts = ` (${failures} failed${skips ? `, ${skips} skipped` : ''})`;
    return { ok: false, text: successes ? `Only regenerated ${successes} of ${total} images${counts}.` : `No images regenerated${counts}.` };
  }
  if (successes || skips) return { ok: true, text: `Regenerated ${successes} of ${total} images${skips ? ` (${skips} skipped)` : ''}.` };
  return { ok: true, text: `${total > 1 ? 'Images' : 'Image'} already regenerated.` };
}

/**
 * Regenerates the images `ids` names (every image when undefined), reporting as it goes; answers the
 * exit status and what `--json` prints.
 */
export async function runMediaRegenerate(ctx: AppContext, input: RegenerateOptions & { ids?: number[] }, report: RegenerateReporter): Promise<{ code: number; data: Record<string, unknown> }> {
  const images = await libraryImages(ctx.db, input.ids);
  const found = new Set(images.map((i) => i.id));
  // CASE: WP-CLI passes the IDs to a query and says nothing of those it does not find.
  const unknown = [...new Set(input.ids ?? [])].filter((id) => !found.has(id));
  for (const id of unknown) report.warn(MESSAGES.unknownId(id));
  if (images.length === 0) {
    report.warn(MESSAGES.noImages);
    return { code: 0, data: { found: 0, regenerated: 0, failed: 0, skipped: 0, images: [], unknown } };
  }
  report.line(MESSAGES.found(images.length));
  const options: RegenerateOptions = { onlyMissing: input.onlyMissing, skipDelete: input.skipDelete || input.onlyMissing };
  const results: ImageResult[] = [];
  let successes = 0;
  let failures = 0;
  let skips = 0;
  for (const [i, image] of images.entries()) {
    const progress = `${i + 1}/${images.length}`;
    const desc = describe(image);
    let outcome;
    try {
      outcome = await regenerateImage(ctx, image.id, options);
    } catch (e) {
      outcome = { status: 'failed' as const, reason: e instanceof Error ? e.message : String(e) };
    }
    const base = { id: image.id, title: image.title };
    switch (outcome.status) {
      case 'regenerated':
        for (const note of outcome.notes) report.warn(MESSAGES.withId(note, image.id));
        report.line(`${progress} ${MESSAGES.regenerated(desc)}`);
        results.push({ ...base, result: 'regenerated', sizes: outcome.made, ...(outcome.notes.length ? { message: outcome.notes.join(' ') } : {}) });
        successes++;
        break;
      case 'unchanged':
        report.line(`${progress} ${MESSAGES.unchanged(desc)}`);
        results.push({ ...base, result: 'unchanged' });
        successes++;
        break;
      case 'skipped':
        report.line(`${progress} ${MESSAGES.skipped(desc, outcome.reason)}`);
        results.push({ ...base, result: 'skipped', message: outcome.reason });
        skips++;
        break;
      case 'missing':
        report.warn(MESSAGES.cannotFind(desc));
        results.push({ ...base, result: 'failed', message: MESSAGES.cannotFind(desc) });
        failures++;
        break;
      case 'failed':
        report.warn(MESSAGES.withId(outcome.reason, image.id));
        report.line(`${progress} ${MESSAGES.failed(desc)}`);
        results.push({ ...base, result: 'failed', message: outcome.reason });
        failures++;
        break;
    }
  }
  const summary = regenerateSummary(images.length, successes, failures, skips);
  return {
    code: summary.ok ? 0 : 1,
    data: { found: images.length, regenerated: successes, failed: failures, skipped: skips, summary: summary.text, images: results, unknown },
  };
}

/** The attachment IDs given as arguments (throws on anything else). */
function attachmentIds(args: readonly string[]): number[] {
  return args.map((arg) => {
    if (!/^\d+$/.test(arg) || Number(arg) < 1) throw new Error(MESSAGES.badId(arg));
    return Number(arg);
  });
}

/** WP-CLI's `confirm`: asks on a terminal; elsewhere `--yes` is needed. */
async function confirmAll(): Promise<boolean> {
  if (!process.stdin.isTTY) throw new Error(MESSAGES.needsYes);
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await rl.question(MESSAGES.confirm)).trim().toLowerCase() === 'y';
  } finally {
    rl.close();
  }
}

export const mediaCommand: CommandExtension = {
  name: 'media',
  usage: `${'media regenerate [ID…]'.padEnd(30)}make the image sizes of the media library again (all images, or those
      named) [--only-missing] [--skip-delete] [--yes] [--json]`,
  async run({ args, values, withApp, print }) {
    const [action, ...rest] = args;
    if (action !== 'regenerate') throw new Error(USAGE);
    const ids = rest.length > 0 ? attachmentIds(rest) : undefined;
    if (!ids && values.yes !== true && !(await confirmAll())) return 0;
    const json = values.json === true;
    const report: RegenerateReporter = {
      line: (text) => {
        if (!json) process.stdout.write(`${text}\n`);
      },
      warn: (text) => process.stderr.write(`Warning: ${text}\n`),
    };
    return withApp(async (app) => {
      const { code, data } = await runMediaRegenerate(app.ctx, { ids, onlyMissing: values['only-missing'] === true, skipDelete: values['skip-delete'] === true }, report);
      if (json) print(data, '');
      else if (typeof data.summary === 'string') {
        if (code === 0) process.stdout.write(`Success: ${data.summary}\n`);
        else process.stderr.write(`Error: ${data.summary}\n`);
      }
      return code;
    });
  },
};
