/**
 * @module auth/auth-state
 * Per-application authentication state held in memory: short-lived bounded caches (verified
 * application passwords, users behind sign-in cookies), the failed-sign-in limiter, and an epoch that
 * revocations bump so this process stops honouring cached credentials at once. On PostgreSQL the
 * other processes hear of it over LISTEN/NOTIFY and bump theirs (`storage/invalidation.ts`); without
 * that channel (SQLite) they stop within {@link AUTH_CACHE_TTL_MS}.
 */
import type { Selectable } from 'kysely';
import type { AppContext } from '../app-context.js';
import type { UsersTable } from '../storage/tables/core.js';
import { SignInLimiter } from './rate-limit.js';

/** How long a verified credential or a loaded user is reused without asking the database. */
export const AUTH_CACHE_TTL_MS = 10_000;
/** Entries per cache; the oldest go first. */
export const AUTH_CACHE_MAX = 1_000;

/** A small map whose entries expire and whose size is bounded (oldest insertion evicted first). */
export class TtlCache<K, V> {
  readonly #map = new Map<K, { value: V; expires: number; epoch: number }>();

  constructor(
    readonly ttlMs: number,
    readonly max: number,
  ) {}

  get(key: K, now: number, epoch: number): V | undefined {
    const hit = this.#map.get(key);
    if (!hit) return undefined;
    if (hit.expires <= now || hit.epoch !== epoch) {
      this.#map.delete(key);
      return undefined;
    }
    return hit.value;
  }

  set(key: K, value: V, now: number, epoch: number): void {
    this.#map.delete(key);
    this.#map.set(key, { value, expires: now + this.ttlMs, epoch });
    while (this.#map.size > this.max) {
      const oldest = this.#map.keys().next().value;
      if (oldest === undefined) break;
      this.#map.delete(oldest);
    }
  }

  delete(key: K): void {
    this.#map.delete(key);
  }

  get size(): number {
    return this.#map.size;
  }
}

/** What a verified application password is cached as. */
export interface VerifiedCredential {
  userId: number;
  uuid: string;
  /** Epoch milliseconds of the stored `last_used`, 0 when never used. */
  lastUsedMs: number;
}

export interface AuthState {
  /** Bumped whenever a credential or session is revoked. */
  epoch: number;
  /** Keyed by a digest of the presented login and password. */
  readonly verified: TtlCache<string, VerifiedCredential>;
  /** Users by id, as stored (sessions and credentials resolve their user through it). */
  readonly users: TtlCache<number, Selectable<UsersTable>>;
  readonly limiter: SignInLimiter;
}

const states = new WeakMap<AppContext, AuthState>();

/** The state of one application (created on first use). */
export function authState(ctx: AppContext): AuthState {
  let s = states.get(ctx);
  if (!s) {
    s = {
      epoch: 0,
      verified: new TtlCache(AUTH_CACHE_TTL_MS, AUTH_CACHE_MAX),
      users: new TtlCache(AUTH_CACHE_TTL_MS, AUTH_CACHE_MAX),
      limiter: new SignInLimiter(),
    };
    states.set(ctx, s);
  }
  return s;
}

const announcers = new WeakMap<AppContext, () => void>();

/** Forget every cached credential and user (after a revocation), here and, when told how, elsewhere. */
export function bumpAuthEpoch(ctx: AppContext): void {
  authState(ctx).epoch++;
  announcers.get(ctx)?.();
}

/** A revocation made by another process: forget here, tell nobody. */
export function bumpLocalAuthEpoch(ctx: AppContext): void {
  authState(ctx).epoch++;
}

/** How this application tells the other processes of a revocation (`storage/invalidation.ts`). */
export function setAuthAnnouncer(ctx: AppContext, announce: () => void): void {
  announcers.set(ctx, announce);
}
