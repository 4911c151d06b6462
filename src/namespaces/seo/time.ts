/** `YYYY-MM-DD HH:MM:SS` in UTC, the form the tables store. */
export function toGmt(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}
