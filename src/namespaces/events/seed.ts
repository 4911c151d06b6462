/**
 * @module namespaces/events/seed
 * Realistic calendar data for benchmarks and demos: categories, tags, venues, organizers and events
 * (dates spread from six months ago to two years ahead, a mix of time zones, all-day and multi-day
 * events, costs, statuses, flags), written in batched multi-row inserts, one transaction per batch.
 * Deterministic for a given `seed`. A million events take a few minutes on SQLite.
 *
 * @example
 * await seedEvents(ctx, { events: 100_000, onProgress: (done, total) => bar.update(done) });
 */
import { DateTime, Info, type Zone } from 'luxon';
import { refreshPlannerStatistics } from '../../storage/dialect.js';
import type { AppContext } from '../../app-context.js';
import { normaliseZone, renderContent, siteTimeZone, siteTimeZoneSetting, toDbDate } from '../../content/posts.js';
import { sanitizeTitle } from '../../content/slugs.js';
import { zoneAbbr } from './zone-names.js';
import { recountTaxonomy } from '../../content/terms.js';
import type { Db } from '../../storage/db.js';
import { CATEGORY_TAXONOMY, EVENT_TYPE, ORGANIZER_TYPE, TAG_TAXONOMY, VENUE_TYPE } from './caps.js';
import { seededRandom } from '../../seeded-random.js';

export interface SeedOptions {
  /** Number of events to create. */
  events: number;
  /** Events per transaction (default 1000). */
  batchSize?: number;
  /** Venues / organizers to create (defaults scale with `events`). */
  venues?: number;
  organizers?: number;
  /** Author of everything (default: the first user, else 0). */
  authorId?: number;
  /** PRNG seed (default 1). */
  seed?: number;
  /** Called after each batch of events. */
  onProgress?: (done: number, total: number) => void;
}

export interface SeedResult {
  events: number;
  venues: number;
  organizers: number;
  categories: number;
  tags: number;
  ms: number;
}

const CATEGORIES = ['Music', 'Theatre', 'Workshops', 'Festivals', 'Sports', 'Family', 'Food & Drink', 'Talks', 'Film', 'Art', 'Markets', 'Community', 'Outdoors', 'Dance', 'Comedy', 'Charity', 'Science', 'Literature', 'Wellness', 'Technology'];
const TAGS = ['free', 'outdoor', 'indoor', 'kids', 'accessible', 'live', 'weekend', 'evening', 'beginner', 'advanced', 'jazz', 'rock', 'classical', 'folk', 'vegan', 'wine', 'beer', 'coffee', 'photography', 'painting', 'yoga', 'running', 'cycling', 'hiking', 'chess', 'poetry', 'history', 'robotics', 'coding', 'gardening', 'crafts', 'pottery', 'salsa', 'tango', 'opera', 'choir', 'improv', 'stand-up', 'documentary', 'animation'];
const ADJECTIVES = ['Spring', 'Summer', 'Autumn', 'Winter', 'Midnight', 'Sunday', 'Grand', 'Little', 'Open', 'Community', 'Annual', 'Harbour', 'Riverside', 'Downtown', 'Village', 'Neighbourhood', 'Late', 'Early', 'Family', 'Global'];
const SUBJECTS = ['Jazz', 'Poetry', 'Pottery', 'Film', 'Salsa', 'Chess', 'Yoga', 'Book', 'Craft Beer', 'Street Food', 'Folk', 'Choir', 'Robotics', 'Photography', 'Garden', 'Cycling', 'History', 'Science', 'Comedy', 'Wine'];
const FORMATS = ['Night', 'Fair', 'Workshop', 'Festival', 'Meetup', 'Market', 'Concert', 'Club', 'Walk', 'Talk', 'Screening', 'Tasting', 'Jam', 'Class', 'Showcase'];
const PLACES = ['Hall', 'Green', 'Pier', 'Library', 'Arts Centre', 'Warehouse', 'Park', 'Theatre', 'Gallery', 'Market Square', 'Community Centre', 'Chapel', 'Brewery', 'Studio', 'Boathouse'];
const CITIES = [
  ['Springfield', 'MA', 'United States', '01101'], ['Portland', 'OR', 'United States', '97201'], ['Leeds', '', 'United Kingdom', 'LS1 1AA'],
  ['Porto', '', 'Portugal', '4000-001'], ['Berlin', '', 'Germany', '10115'], ['Toronto', 'ON', 'Canada', 'M5H 2N2'], ['Melbourne', 'VIC', 'Australia', '3000'],
  ['Lyon', '', 'France', '69001'], ['Austin', 'TX', 'United States', '73301'], ['Dublin', '', 'Ireland', 'D01'],
] as const;
const STREETS = ['Main St', 'High Street', 'Market Road', 'Church Lane', 'Station Road', 'Park Avenue', 'Harbour Way', 'Mill Street', 'King Street', 'Queen Street'];
const ORGANISERS = ['Parks Dept', 'Arts Council', 'Friends of the Library', 'Blue Seas Club', 'Youth Orchestra', 'Makers Guild', 'Film Society', 'Running Club', 'Chamber of Commerce', 'Food Collective', 'Historical Society', 'Chess Club'];
const ZONES = ['America/New_York', 'Europe/London', 'Europe/Berlin', 'America/Los_Angeles', 'Australia/Sydney', 'Asia/Tokyo'];

const DAY_MS = 86_400_000;

/** A wall-clock moment: days since the epoch (of the local date), minutes and seconds into the day. */
interface WallTime {
  day: number;
  minutes: number;
  seconds: number;
}

function addMinutes(w: WallTime, minutes: number): WallTime {
  const total = w.minutes + minutes;
  return { day: w.day + Math.floor(total / 1440), minutes: total % 1440, seconds: w.seconds };
}

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/** `YYYY-MM-DD HH:MM:SS` of a UTC epoch (ms). */
function formatMs(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

function formatWall(w: WallTime): string {
  return formatMs(w.day * DAY_MS + w.minutes * 60_000 + w.seconds * 1000);
}

/** The instant a wall-clock time names in `zone`. */
function toZoned(w: WallTime, zone: Zone): DateTime {
  const d = new Date(w.day * DAY_MS);
  return DateTime.fromObject(
    { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: Math.floor(w.minutes / 60), minute: w.minutes % 60, second: w.seconds },
    { zone },
  );
}

function pick<T>(rnd: () => number, list: readonly T[]): T {
  return list[Math.floor(rnd() * list.length)]!;
}

/** Rows per insert statement so that no statement exceeds ~30 000 bound parameters (SQLite's limit is 32 766). */
function chunkRows<T>(rows: T[], columns: number): T[][] {
  const size = Math.max(1, Math.floor(30_000 / columns));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

interface PostRow {
  type: string; status: string; slug: string; title: string; content: string; excerpt: string; author: number; parent: number;
  password: string; menu_order: number; date: string; date_gmt: string; modified: string; modified_gmt: string; image_url: string;
}

async function insertPosts(db: Db, rows: PostRow[]): Promise<number[]> {
  const ids: number[] = [];
  for (const chunk of chunkRows(rows, 15)) {
    const res = await db.insertInto('posts').values(chunk).returning('id').execute();
    // Both engines return inserted rows in VALUES order.
    for (const r of res) ids.push(Number(r.id));
  }
  return ids;
}

async function ensureTerms(db: Db, taxonomy: string, names: readonly string[]): Promise<number[]> {
  const existing = await db.selectFrom('terms').select(['id', 'slug']).where('taxonomy', '=', taxonomy).execute();
  const bySlug = new Map(existing.map((r) => [r.slug, Number(r.id)]));
  const missing = names.filter((n) => !bySlug.has(sanitizeTitle(n)));
  if (missing.length > 0) {
    const rows = await db
      .insertInto('terms')
      .values(missing.map((name) => ({ taxonomy, name, slug: sanitizeTitle(name), description: '', parent: 0, count: 0 })))
      .returning(['id', 'slug'])
      .execute();
    for (const r of rows) bySlug.set(r.slug, Number(r.id));
  }
  return names.map((n) => bySlug.get(sanitizeTitle(n))!);
}

/** Creates calendar data. See the module comment. */
export async function seedEvents(ctx: AppContext, options: SeedOptions): Promise<SeedResult> {
  const started = Date.now();
  const total = Math.max(0, Math.floor(options.events));
  const batchSize = Math.max(1, Math.min(options.batchSize ?? 1000, 5000));
  const rnd = seededRandom(options.seed ?? 1);
  const siteSetting = await siteTimeZoneSetting(ctx.options);
  const siteZone = await siteTimeZone(ctx.options);
  const author = options.authorId ?? Number((await ctx.db.selectFrom('users').select('id').orderBy('id').executeTakeFirst())?.id ?? 0);
  const now = DateTime.fromJSDate(ctx.now());
  const nowMs = now.toMillis();
  // Post dates are display-only here: the site offset of now is close enough for every row.
  const siteOffsetMs = now.setZone(siteZone).offset * 60_000;
  // Slug suffix unique per run (two runs in one second must not collide): the next post ID.
  const lastId = await ctx.db.selectFrom('posts').select((eb) => eb.fn.max('id').as('max')).executeTakeFirst();
  const run = (Number(lastId?.max ?? 0) + 1).toString(36);
  const stamp = (dt: DateTime) => ({ local: toDbDate(dt.setZone(siteZone)), gmt: toDbDate(dt.toUTC()) });

  // ---- Terms.
  const categoryIds = await ensureTerms(ctx.db, CATEGORY_TAXONOMY, CATEGORIES);
  const tagIds = await ensureTerms(ctx.db, TAG_TAXONOMY, TAGS);

  // ---- Venues and organizers.
  const venueCount = options.venues ?? Math.min(5000, Math.max(5, Math.ceil(total / 200)));
  const organizerCount = options.organizers ?? Math.min(3000, Math.max(5, Math.ceil(total / 300)));
  const venueIds: number[] = [];
  const organizerIds: number[] = [];
  await ctx.db.transaction().execute(async (trx) => {
    const created = stamp(now.minus({ days: 400 }));
    const venueRows: PostRow[] = [];
    const venueDetails: { city: string; state: string; country: string; zip: string; address: string; phone: string; website: string }[] = [];
    for (let i = 0; i < venueCount; i++) {
      const [city, state, country, zip] = pick(rnd, CITIES);
      const title = `${pick(rnd, ADJECTIVES)} ${pick(rnd, PLACES)}${i >= PLACES.length * ADJECTIVES.length ? ` ${i}` : ''}`;
      venueRows.push({
        type: VENUE_TYPE, status: 'publish', slug: `${sanitizeTitle(title)}-${run}-${i}`, title, content: `${title} in ${city}.`, excerpt: '',
        author, parent: 0, password: '', menu_order: 0, date: created.local, date_gmt: created.gmt, modified: created.local, modified_gmt: created.gmt, image_url: '',
      });
      venueDetails.push({
        city, state, country, zip, address: `${1 + Math.floor(rnd() * 200)} ${pick(rnd, STREETS)}`,
        phone: `+1 555 01${String(Math.floor(rnd() * 100)).padStart(2, '0')}`, website: rnd() < 0.5 ? `https://venue-${i}.example.org` : '',
      });
    }
    venueIds.push(...(await insertPosts(trx, venueRows)));
    const vd = venueIds.map((post_id, i) => ({
      post_id, ...venueDetails[i]!, province: '', stateprovince: venueDetails[i]!.state, show_map: 1, show_map_link: 1,
      geo_lat: null, geo_lng: null, image_id: 0, lineage: '[]',
    }));
    for (const chunk of chunkRows(vd, 16)) await trx.insertInto('venue_details').values(chunk).execute();

    const orgRows: PostRow[] = [];
    for (let i = 0; i < organizerCount; i++) {
      const title = i < ORGANISERS.length ? ORGANISERS[i]! : `${pick(rnd, ORGANISERS)} ${i}`;
      orgRows.push({
        type: ORGANIZER_TYPE, status: 'publish', slug: `${sanitizeTitle(title)}-${run}-${i}`, title, content: '', excerpt: '', author, parent: 0,
        password: '', menu_order: 0, date: created.local, date_gmt: created.gmt, modified: created.local, modified_gmt: created.gmt, image_url: '',
      });
    }
    organizerIds.push(...(await insertPosts(trx, orgRows)));
    const od = organizerIds.map((post_id, i) => ({
      post_id, phone: `+1 555 02${String(i % 100).padStart(2, '0')}`, website: `https://org-${i}.example.org`, email: `contact${i}@example.org`, image_id: 0, lineage: '[]',
    }));
    for (const chunk of chunkRows(od, 6)) await trx.insertInto('organizer_details').values(chunk).execute();
  });

  // ---- Events. Wall-clock times are picked directly; luxon only converts each one to UTC (zones
  // resolved once, abbreviations cached per zone and offset: per-event zone parsing dominates otherwise).
  const zoneCache = new Map<string, Zone>();
  const zoneOf = (name: string): Zone => {
    let z = zoneCache.get(name);
    if (!z) {
      z = Info.normalizeZone(normaliseZone(name) ?? 'UTC');
      zoneCache.set(name, z);
    }
    return z;
  };
  // UTC offsets per zone and local day (per hour only on the few days a DST change happens).
  const offsetCache = new Map<string, { offset: number; abbr: string } | null>();
  const exact = (tz: string, zone: Zone, w: WallTime) => {
    const key = `${tz}|${w.day}|${Math.floor(w.minutes / 60)}`;
    let info = offsetCache.get(key);
    if (!info) {
      const dt = toZoned(w, zone);
      info = { offset: dt.offset, abbr: zoneAbbr(dt) };
      offsetCache.set(key, info);
    }
    return info;
  };
  const zoneInfo = (tz: string, zone: Zone, w: WallTime) => {
    const key = `${tz}|${w.day}`;
    let info = offsetCache.get(key);
    if (info === undefined) {
      const first = exact(tz, zone, { day: w.day, minutes: 0, seconds: 0 });
      const last = exact(tz, zone, { day: w.day, minutes: 23 * 60 + 59, seconds: 0 });
      info = first.offset === last.offset ? first : null;
      offsetCache.set(key, info);
    }
    return info ?? exact(tz, zone, w);
  };
  const utcOf = (tz: string, zone: Zone, w: WallTime) => w.day * DAY_MS + w.minutes * 60_000 + w.seconds * 1000 - zoneInfo(tz, zone, w).offset * 60_000;
  const abbreviation = (tz: string, zone: Zone, w: WallTime) => zoneInfo(tz, zone, w).abbr;
  const firstDay = Math.floor(now.minus({ months: 6 }).toMillis() / DAY_MS);
  const spanDays = Math.ceil(now.plus({ months: 24 }).toMillis() / DAY_MS) - firstDay;
  for (let done = 0; done < total; ) {
    const n = Math.min(batchSize, total - done);
    await ctx.db.transaction().execute(async (trx) => {
      const posts: PostRow[] = [];
      const details: Omit<Record<string, unknown>, 'post_id'>[] = [];
      const links: { venue: number; organizers: number[]; categories: number[]; tags: number[] }[] = [];
      for (let i = 0; i < n; i++) {
        const seq = done + i;
        const tz = rnd() < 0.7 ? siteSetting : pick(rnd, ZONES);
        const zone = zoneOf(tz);
        const day = firstDay + Math.floor(rnd() * spanDays);
        const shape = rnd();
        const allDay = shape < 0.1;
        let start: WallTime = { day, minutes: (8 + Math.floor(rnd() * 13)) * 60 + pick(rnd, [0, 0, 15, 30, 30, 45]), seconds: 0 };
        let end: WallTime = shape < 0.15
          ? { day: day + 1 + Math.floor(rnd() * 3), minutes: Math.min(start.minutes + 120, 23 * 60 + 59), seconds: 0 }
          : addMinutes(start, 60 + Math.floor(rnd() * 8) * 30);
        if (allDay) {
          start = { day: start.day, minutes: 0, seconds: 0 };
          end = { day: end.day, minutes: 23 * 60 + 59, seconds: 59 };
        }
        const startUtcMs = utcOf(tz, zone, start);
        const endUtcMs = utcOf(tz, zone, end);
        const title = `${pick(rnd, ADJECTIVES)} ${pick(rnd, SUBJECTS)} ${pick(rnd, FORMATS)}`;
        const r = rnd();
        const status = r < 0.96 ? 'publish' : r < 0.98 ? 'draft' : r < 0.99 ? 'pending' : 'private';
        const createdMs = Math.min(startUtcMs, nowMs) - Math.floor(rnd() * 60 * DAY_MS);
        const created = { local: formatMs(createdMs + siteOffsetMs), gmt: formatMs(createdMs) };
        const costRoll = rnd();
        const price = String(5 * (1 + Math.floor(rnd() * 12)));
        const cost = costRoll < 0.3 ? { cost: 'Free', values: ['0'] } : costRoll < 0.9 ? { cost: price, values: [price] } : { cost: '', values: [] as string[] };
        posts.push({
          type: EVENT_TYPE, status, slug: `${sanitizeTitle(title)}-${run}-${seq}`, title,
          content: `Join us for the ${title.toLowerCase()}.\n\nEveryone is welcome; bring friends.`, excerpt: '', author, parent: 0, password: '',
          menu_order: rnd() < 0.01 ? -1 : 0, date: created.local, date_gmt: created.gmt, modified: created.local, modified_gmt: created.gmt, image_url: '',
        });
        details.push({
          status, start_local: formatWall(start), end_local: formatWall(end), start_utc: formatMs(startUtcMs), end_utc: formatMs(endUtcMs),
          timezone: tz, timezone_abbr: abbreviation(tz, zone, start), all_day: allDay ? 1 : 0, cost: cost.cost, cost_values: JSON.stringify(cost.values),
          currency_symbol: cost.values.length ? '$' : '', currency_code: cost.values.length ? 'USD' : '', currency_position: cost.values.length ? 'prefix' : '',
          website: null, show_map: 1, show_map_link: 1, hide_from_listings: rnd() < 0.01 ? 1 : 0, featured: rnd() < 0.05 ? 1 : 0, image_id: 0, lineage: '[]',
          content_html: renderContent(posts[posts.length - 1]!.content), excerpt_html: '',
        });
        const tagCount = Math.floor(rnd() * 3);
        const tags = new Set<number>();
        for (let t = 0; t < tagCount; t++) tags.add(pick(rnd, tagIds));
        links.push({
          venue: pick(rnd, venueIds),
          organizers: rnd() < 0.2 ? [...new Set([pick(rnd, organizerIds), pick(rnd, organizerIds)])] : [pick(rnd, organizerIds)],
          categories: [pick(rnd, categoryIds)],
          tags: [...tags],
        });
      }
      const ids = await insertPosts(trx, posts);
      const detailRows = ids.map((post_id, i) => ({ post_id, ...details[i]! })) as never[];
      for (const chunk of chunkRows(detailRows, 23)) await trx.insertInto('event_details').values(chunk).execute();
      const ev = ids.map((event_id, i) => ({ event_id, venue_id: links[i]!.venue, position: 0 }));
      for (const chunk of chunkRows(ev, 3)) await trx.insertInto('event_venues').values(chunk).execute();
      const eo = ids.flatMap((event_id, i) => links[i]!.organizers.map((organizer_id, position) => ({ event_id, organizer_id, position })));
      for (const chunk of chunkRows(eo, 3)) await trx.insertInto('event_organizers').values(chunk).execute();
      const tr = ids.flatMap((post_id, i) => [...links[i]!.categories, ...links[i]!.tags].map((term_id) => ({ post_id, term_id })));
      for (const chunk of chunkRows(tr, 2)) await trx.insertInto('term_relationships').values(chunk).execute();
    });
    done += n;
    options.onProgress?.(done, total);
  }

  // ---- Term counts, then planner statistics for the new data.
  await recountTaxonomy(ctx.db, CATEGORY_TAXONOMY);
  await recountTaxonomy(ctx.db, TAG_TAXONOMY);
  await refreshPlannerStatistics(ctx.db);

  return { events: total, venues: venueCount, organizers: organizerCount, categories: categoryIds.length, tags: tagIds.length, ms: Date.now() - started };
}
