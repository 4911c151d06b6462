/**
 * @module areas
 * The areas of one running app: which are on, what they contribute to each other, and the route
 * table built from the enabled ones. Switching an area on or off rebuilds the table, so its routes
 * enter or leave dispatch and discovery at once, without a restart.
 */
import type { AreaDef, ExtensionPoint, ExtensionPoints } from './area.js';
import { CORE_POST_TYPES, PostTypes } from './content/post-types.js';
import type { NamespaceRoutes } from './rest/route.js';

/** The areas of the app and their on/off state. */
export class Areas {
  readonly all: readonly AreaDef[];
  readonly postTypes: PostTypes;
  readonly #byId = new Map<string, AreaDef>();
  readonly #off = new Set<string>();
  #generation = 0;
  #extensions = new Map<ExtensionPoint, unknown[]>();
  #extensionsGeneration = -1;

  /**
   * @param defs every area, in mounting order.
   * @param disabled ids switched off by configuration; unknown ids are an error, required areas cannot be off.
   */
  constructor(defs: readonly AreaDef[], disabled: readonly string[] = []) {
    for (const def of defs) {
      if (this.#byId.has(def.id)) throw new Error(`area ${def.id} is declared twice`);
      this.#byId.set(def.id, def);
    }
    for (const def of defs) for (const dep of def.requires ?? []) if (!this.#byId.has(dep)) throw new Error(`area ${def.id} requires unknown area ${dep}`);
    this.all = Object.freeze([...defs]);
    // Post types are declared whether or not the area is on: stored rows keep their meaning.
    this.postTypes = new PostTypes([...CORE_POST_TYPES, ...defs.flatMap((d) => d.postTypes ?? [])]);
    for (const id of disabled) this.#switch(id, false);
  }

  get(id: string): AreaDef | undefined {
    return this.#byId.get(id);
  }

  /** Changes every time an area is switched. */
  get generation(): number {
    return this.#generation;
  }

  /** True when the area and every area it requires are on. */
  isEnabled(id: string): boolean {
    const def = this.#byId.get(id);
    if (!def || this.#off.has(id)) return false;
    return (def.requires ?? []).every((dep) => this.isEnabled(dep));
  }

  /** True when the area itself is switched off (it may also be off because an area it requires is). */
  isSwitchedOff(id: string): boolean {
    return this.#off.has(id);
  }

  /** The areas that are on, in mounting order. */
  enabled(): AreaDef[] {
    return this.all.filter((d) => this.isEnabled(d.id));
  }

  /** Switches an area on or off (at once, in this process). Returns false when nothing changed. */
  setEnabled(id: string, on: boolean): boolean {
    const before = this.isEnabled(id);
    this.#switch(id, on);
    return before !== this.isEnabled(id);
  }

  #switch(id: string, on: boolean): void {
    const def = this.#byId.get(id);
    if (!def) throw new Error(`unknown area ${JSON.stringify(id)} (known: ${[...this.#byId.keys()].join(', ')})`);
    if (!on && def.required) throw new Error(`area ${id} cannot be switched off`);
    const had = this.#off.has(id);
    if (on) this.#off.delete(id);
    else this.#off.add(id);
    if (had !== !on) this.#generation++;
  }

  /** Namespaces of the enabled areas, ordered by `order` (unlisted ones last, in mounting order). */
  namespaces(order: readonly string[] = []): NamespaceRoutes[] {
    const list = this.enabled().flatMap((d) => d.namespaces);
    const rank = (ns: string) => {
      const i = order.indexOf(ns);
      return i === -1 ? order.length : i;
    };
    return list.map((ns, i) => ({ ns, i })).sort((a, b) => rank(a.ns.namespace) - rank(b.ns.namespace) || a.i - b.i).map((x) => x.ns);
  }

  /** The values the enabled areas contribute to one extension point, in mounting order. */
  contributions<K extends ExtensionPoint>(point: K): readonly ExtensionPoints[K][] {
    if (this.#extensionsGeneration !== this.#generation) {
      this.#extensions = new Map();
      for (const def of this.enabled()) {
        for (const [key, value] of Object.entries(def.contributes ?? {}) as [ExtensionPoint, unknown][]) {
          const list = this.#extensions.get(key) ?? [];
          list.push(...(Array.isArray(value) ? value : [value]));
          this.#extensions.set(key, list);
        }
      }
      this.#extensionsGeneration = this.#generation;
    }
    return (this.#extensions.get(point) ?? []) as ExtensionPoints[K][];
  }

  /** Defaults of every area's settings (declared whether or not the area is on). */
  settingDefaults(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const def of this.all) for (const [name, setting] of Object.entries(def.settings ?? {})) {
      if (name in out) throw new Error(`setting ${name} is declared twice (area ${def.id})`);
      out[name] = setting.default;
    }
    return out;
  }

  /** Capabilities the enabled areas add to `role`. */
  roleCapabilities(role: string): string[] {
    return this.enabled().flatMap((d) => [...(d.capabilities?.[role] ?? [])]);
  }
}
