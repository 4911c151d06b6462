/**
 * @module storage/invalidation
 * Keeps the per-process caches of every instance on one PostgreSQL database honest: a revoked
 * credential or session (auth epoch) and any write (public read cache generation) are announced with
 * NOTIFY, and the other processes drop what they cached at once. A listener that lost its connection
 * drops everything when it is back (it may have missed messages). Nothing happens on SQLite.
 */
import crypto from 'node:crypto';
import type { AppContext } from '../app-context.js';
import { bumpLocalAuthEpoch, setAuthAnnouncer } from '../auth/auth-state.js';
import { noteRemoteWrite, onWrite } from '../rest/write-generation.js';
import { listen, notify } from './notify.js';

const CHANNEL = 'invalidate';

/** Sends one message at a time; calls made meanwhile collapse into one more send. */
function coalesced(send: () => Promise<void>, onError: (err: unknown) => void): () => void {
  let running = false;
  let again = false;
  const run = async () => {
    running = true;
    do {
      again = false;
      await send().catch(onError);
    } while (again);
    running = false;
  };
  return () => {
    if (running) again = true;
    else void run();
  };
}

/** Starts listening and announcing for this application; returns `stop`. */
export async function startInvalidation(ctx: AppContext): Promise<() => Promise<void>> {
  const me = crypto.randomBytes(8).toString('hex');
  const warn = (err: unknown) => ctx.log.warn({ err }, 'invalidation: could not notify the other processes');
  const stopListening = await listen(
    ctx.db,
    CHANNEL,
    (payload) => {
      const [from, what] = payload.split(' ');
      if (from === me) return;
      if (what === 'auth') bumpLocalAuthEpoch(ctx);
      else if (what === 'write') noteRemoteWrite();
    },
    () => {
      bumpLocalAuthEpoch(ctx);
      noteRemoteWrite();
    },
  );
  setAuthAnnouncer(ctx, coalesced(() => notify(ctx.db, CHANNEL, `${me} auth`), warn));
  const unsubscribe = onWrite(coalesced(() => notify(ctx.db, CHANNEL, `${me} write`), warn));
  return async () => {
    unsubscribe();
    setAuthAnnouncer(ctx, () => {});
    await stopListening();
  };
}
