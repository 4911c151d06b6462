/**
 * @module app-context
 * What every handler receives besides its request: storage, configuration, URLs, logger, settings,
 * mail and the clock. Areas reach other areas only through their exported services.
 */
import type { Logger } from 'pino';
import type { Areas } from './areas.js';
import type { RoleTable } from './auth/roles.js';
import type { Config, SiteUrls } from './config.js';
import type { Options } from './content/options.js';
import type { Db } from './storage/db.js';
import type { Mailer } from './remote/mailer.js';
import type { Jobs } from './jobs/index.js';

export interface AppContext {
  readonly db: Db;
  readonly config: Readonly<Config>;
  readonly urls: SiteUrls;
  readonly log: Logger;
  readonly options: Options;
  readonly mailer: Mailer;
  /** The areas, their on/off state, post types and what they contribute to each other. */
  readonly areas: Areas;
  /** Roles and capabilities, including what the areas add. */
  readonly roles: RoleTable;
  /** Background jobs: `enqueue`, `schedule`, and the runner every server process starts. */
  readonly jobs: Jobs;
  /** The clock (tests may replace it). */
  now(): Date;
}
