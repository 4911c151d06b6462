/**
 * @module namespaces/shop-admin/themes.service
 * Themes are the look of the public calendar pages: a stylesheet served at `/theme.css` that every
 * public page links. Three are bundled; more are uploaded as zip packages (`theme.json` with slug,
 * name and version, plus `style.css`). The active one is the option `eventsuite_theme`.
 */
import type { AppContext } from '../../app-context.js';
import { postDatePair } from '../../content/posts.js';
import { readZip, ZipError } from './zip.js';

export const THEME_OPTION = 'eventsuite_theme';
export const DEFAULT_THEME = 'daybreak';
export const MAX_THEME_ZIP_BYTES = 2 * 1024 * 1024;
const ZIP_LIMITS = { maxEntries: 200, maxTotalBytes: 8 * 1024 * 1024, allowedExtensions: ['css', 'json', 'txt', 'md', 'png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'woff', 'woff2'] };

export interface Theme {
  slug: string;
  name: string;
  version: string;
  css: string;
  palette: { title: string; primary: string; secondary: string };
}

const base = (bg: string, fg: string, accent: string, font: string) =>
  `:root{--es-bg:${bg};--es-fg:${fg};--es-accent:${accent}}body{background:var(--es-bg);color:var(--es-fg);font-family:${font};line-height:1.5;margin:0}a{color:var(--es-accent)}main{max-width:72rem;margin:0 auto;padding:1.5rem}h1,h2,h3{line-height:1.2}`;

export const BUNDLED_THEMES: readonly Theme[] = [
  { slug: 'daybreak', name: 'Daybreak', version: '1.0.0', css: base('#ffffff', '#1e1e1e', '#2f5bd3', 'system-ui,sans-serif'), palette: { title: 'Default', primary: '#2f5bd3', secondary: '#ffffff' } },
  { slug: 'midnight', name: 'Midnight', version: '1.0.0', css: base('#10131a', '#e8eaf0', '#8ab4ff', 'system-ui,sans-serif'), palette: { title: 'Dark', primary: '#8ab4ff', secondary: '#10131a' } },
  { slug: 'meadow', name: 'Meadow', version: '1.0.0', css: base('#f6f8f1', '#243020', '#3c7a2e', 'Georgia,serif'), palette: { title: 'Green', primary: '#3c7a2e', secondary: '#f6f8f1' } },
];

/** The uploaded themes, by slug. */
export async function uploadedThemes(ctx: AppContext): Promise<Theme[]> {
  const rows = await ctx.db.selectFrom('themes').selectAll().orderBy('slug').execute();
  return rows.map((r) => ({ slug: r.slug, name: r.name, version: r.version, css: r.css, palette: { title: 'Default', primary: '', secondary: '' } }));
}

/** A bundled or uploaded theme. */
export async function findTheme(ctx: AppContext, slug: string): Promise<Theme | undefined> {
  return BUNDLED_THEMES.find((t) => t.slug === slug) ?? (await uploadedThemes(ctx)).find((t) => t.slug === slug);
}

/** The active theme's stylesheet. */
export async function activeThemeCss(ctx: AppContext): Promise<string> {
  const slug = await ctx.options.get<string>(THEME_OPTION, DEFAULT_THEME);
  return ((await findTheme(ctx, slug)) ?? BUNDLED_THEMES[0]!).css;
}

/** Installs an uploaded theme package; the installed theme's slug. */
export async function installThemeZip(ctx: AppContext, data: Buffer): Promise<string> {
  if (data.length > MAX_THEME_ZIP_BYTES) throw new ZipError(`The theme package is larger than ${MAX_THEME_ZIP_BYTES} bytes.`);
  const entries = readZip(data, ZIP_LIMITS);
  const file = (name: string) => entries.find((e) => e.name === name || e.name.endsWith(`/${name}`) && e.name.split('/').length === 2);
  const manifestEntry = file('theme.json');
  const styleEntry = file('style.css');
  if (!manifestEntry || !styleEntry) throw new ZipError('A theme package needs theme.json and style.css.');
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(manifestEntry.data.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new ZipError('theme.json is not valid JSON.');
  }
  const slug = typeof manifest.slug === 'string' && /^[a-z0-9][a-z0-9-]{0,99}$/.test(manifest.slug) ? manifest.slug : undefined;
  const name = typeof manifest.name === 'string' && manifest.name.length <= 200 ? manifest.name : undefined;
  const version = typeof manifest.version === 'string' && /^\d+(\.\d+){0,3}$/.test(manifest.version) ? manifest.version : undefined;
  if (!slug || !name || !version) throw new ZipError('theme.json needs a slug (a-z, 0-9, -), a name and a version such as 1.0.0.');
  if (BUNDLED_THEMES.some((t) => t.slug === slug)) throw new ZipError(`"${slug}" is a bundled theme.`);
  const css = styleEntry.data.toString('utf8');
  const { gmt } = postDatePair(ctx.now(), 'UTC');
  await ctx.db.deleteFrom('themes').where('slug', '=', slug).execute();
  await ctx.db.insertInto('themes').values({ slug, name, version, css, installed_gmt: gmt }).execute();
  return slug;
}
