/** `YYYY-MM-DD HH:MM:SS` UTC of the app's clock. */
export function gmtNow(ctx: { now(): Date }): string {
  return ctx.now().toISOString().slice(0, 19).replace('T', ' ');
}
