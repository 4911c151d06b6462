/**
 * @module http/request-logger
 * Fastify gives every request a child logger bound to its ID. Most requests never log through it
 * (the request line is written through the app's logger with the ID first, which pino writes byte for
 * byte as the child would), so the child is made only when something logs through `request.log`.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type LevelMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

class LazyChildLogger {
  #made: FastifyBaseLogger | undefined;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  get #log(): FastifyBaseLogger {
    return (this.#made ??= this.#parent.child(this.#bindings, this.#options));
  }

  get level(): string {
    return this.#made?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#log.level = level;
  }

  fatal(...args: unknown[]): void {
    this.#call('fatal', args);
  }

  error(...args: unknown[]): void {
    this.#call('error', args);
  }

  warn(...args: unknown[]): void {
    this.#call('warn', args);
  }

  info(...args: unknown[]): void {
    this.#call('info', args);
  }

  debug(...args: unknown[]): void {
    this.#call('debug', args);
  }

  trace(...args: unknown[]): void {
    this.#call('trace', args);
  }

  silent(...args: unknown[]): void {
    this.#call('silent', args);
  }

  #call(level: LevelMethod, args: unknown[]): void {
    const log = this.#log;
    (log[level] as (...a: unknown[]) => void).apply(log, args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#log.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: the request's logger, made on its first use. */
export function lazyChildLogger(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyChildLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}
