/**
 * @module area-state
 * Areas switched on or off at run time (the shop's plugin routes, the marketplace's `activate`) are
 * stored in the option `eventsuite_area_state` (`{ id: true|false }`) so the choice survives a restart
 * and reaches every process: each process applies the stored state at start and re-reads it (through
 * the options cache, so at most every couple of seconds) as requests come in. `DISABLED_AREAS` stays
 * the default for areas with no stored choice.
 */
import type { AppContext } from './app-context.js';

export const AREA_STATE_OPTION = 'eventsuite_area_state';

function storedState(value: unknown): Record<string, boolean> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, boolean>) : {};
}

async function stored(ctx: AppContext): Promise<Record<string, boolean>> {
  return storedState(await ctx.options.get<unknown>(AREA_STATE_OPTION, {}));
}

function apply(ctx: AppContext, state: Record<string, boolean>): void {
  const disabled = ctx.config.disabledAreas;
  for (const def of ctx.areas.all) {
    if (def.required) continue;
    const want = state[def.id] ?? !disabled.includes(def.id);
    if (ctx.areas.isSwitchedOff(def.id) === want) ctx.areas.setEnabled(def.id, want);
  }
}

/**
 * Applies the stored choices to this process (unknown or required areas are skipped). Runs every
 * request, so it answers synchronously (undefined, no promise) while the options cache holds the
 * value; a promise only when the value must be read again.
 */
export function syncAreaState(ctx: AppContext): Promise<void> | undefined {
  const cached = ctx.options.peek(AREA_STATE_OPTION);
  if (!cached) return stored(ctx).then((state) => apply(ctx, state));
  // The same stored value applied to the same switches changes nothing.
  const last = applied.get(ctx);
  if (last !== undefined && last.value === cached.value && last.generation === ctx.areas.generation) return undefined;
  apply(ctx, storedState(cached.value));
  applied.set(ctx, { value: cached.value, generation: ctx.areas.generation });
  return undefined;
}

/** The stored value last applied per app, and the areas' generation after it. */
const applied = new WeakMap<AppContext, { value: unknown; generation: number }>();

/** Switches an area on or off here and for every process, and remembers it. */
export async function switchArea(ctx: AppContext, id: string, on: boolean): Promise<void> {
  const state = await stored(ctx);
  await ctx.options.set(AREA_STATE_OPTION, { ...state, [id]: on });
  ctx.areas.setEnabled(id, on);
}
