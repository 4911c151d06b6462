/**
 * @module content/post-types
 * The post-type registry: every content type an area stores in `posts`, declared once
 * ({@link PostTypeDef}) and read by permalinks, oEmbed, public listings (user post counts) and the
 * role table. Adding a content type is one declaration in its area.
 *
 * @example
 * const types = new PostTypes([{ type: 'tribe_events', label: 'Events', public: true, permalinkBase: 'event', capabilityType: 'tribe_event' }]);
 * types.byPermalinkBase('event')?.type; // 'tribe_events'
 */

/** How a role holds the capabilities of a post type (WordPress's levels for the built-in roles). */
export type PostCapLevel = 'all' | 'author' | 'contributor' | 'read';

/** One content type. */
export interface PostTypeDef {
  /** The stored type (`tribe_events`). */
  readonly type: string;
  readonly label: string;
  /** Visible to visitors: counted in public listings and may have public pages. */
  readonly public: boolean;
  /** URL base of its pages (`/event/<slug>/`); without one a post's URL is `/?p=<id>`. */
  readonly permalinkBase?: string;
  /**
   * May be embedded (oEmbed, the framed embed page). Defaults to `public`: every publicly viewable
   * post is embeddable in the original, posts and pages (`/?p=<id>`) as much as events.
   */
  readonly embeddable?: boolean;
  /**
   * Singular capability base (`tribe_event` → `edit_tribe_events`, `publish_tribe_events`, …), granted
   * to the built-in roles at WordPress's levels; omitted for types that use the `post` capabilities.
   */
  readonly capabilityType?: string;
}

/** The post capabilities of `base` at one of WordPress's role levels. */
export function postCapabilities(base: string, level: PostCapLevel): string[] {
  const p = `${base}s`;
  if (level === 'read') return ['read'];
  if (level === 'contributor') return [`edit_${p}`, `delete_${p}`, 'read'];
  if (level === 'author') return [`edit_${p}`, `edit_published_${p}`, `publish_${p}`, `delete_${p}`, `delete_published_${p}`, 'read'];
  return [
    `edit_${p}`,
    `edit_others_${p}`,
    `publish_${p}`,
    `read_private_${p}`,
    `delete_${p}`,
    `delete_others_${p}`,
    `delete_published_${p}`,
    `edit_published_${p}`,
    `delete_private_${p}`,
    `edit_private_${p}`,
    'read',
  ];
}

/** WordPress core's own public types. */
export const CORE_POST_TYPES: readonly PostTypeDef[] = Object.freeze([
  { type: 'post', label: 'Posts', public: true },
  { type: 'page', label: 'Pages', public: true },
]);

/** Every declared post type, frozen at boot. */
export class PostTypes {
  readonly #byType = new Map<string, PostTypeDef>();
  readonly #byBase = new Map<string, PostTypeDef>();

  constructor(defs: readonly PostTypeDef[]) {
    for (const def of defs) {
      if (this.#byType.has(def.type)) throw new Error(`post type ${def.type} is declared twice`);
      if (def.permalinkBase !== undefined && this.#byBase.has(def.permalinkBase)) throw new Error(`permalink base ${def.permalinkBase} is used twice`);
      const frozen = Object.freeze({ ...def });
      this.#byType.set(def.type, frozen);
      if (def.permalinkBase !== undefined) this.#byBase.set(def.permalinkBase, frozen);
    }
    Object.freeze(this);
  }

  get(type: string): PostTypeDef | undefined {
    return this.#byType.get(type);
  }

  all(): PostTypeDef[] {
    return [...this.#byType.values()];
  }

  /** The type whose pages live under `/<base>/`. */
  byPermalinkBase(base: string): PostTypeDef | undefined {
    return this.#byBase.get(base);
  }

  /** Types shown to visitors. */
  publicTypes(): string[] {
    return this.all().filter((d) => d.public).map((d) => d.type);
  }

  /** Types that may be embedded. */
  embeddable(): PostTypeDef[] {
    return this.all().filter((d) => d.embeddable ?? d.public);
  }

  /** Capability bases of the types that declare their own capabilities. */
  capabilityTypes(): string[] {
    return this.all().flatMap((d) => (d.capabilityType ? [d.capabilityType] : []));
  }
}
