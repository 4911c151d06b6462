/**
 * @module remote/spamfilter-client
 * A client for a spam-checking service speaking Akismet's REST protocol (version 1.1), at
 * `REMOTE_SPAMFILTER_URL` (`config.remotes.spamfilter`; the original service is
 * {@link DEFAULT_SPAMFILTER_URL}). Every call is a form-encoded POST to `{endpoint}/1.1/{call}`:
 *
 * - `verify-key` (`key`, `blog`) → `valid` | `invalid`
 * - `comment-check` (`api_key`, `blog`, `user_ip`, `user_agent`, `comment_*` …) → `true` | `false`
 *   (`invalid` for a bad key), `X-akismet-pro-tip: discard` for blatant spam, `X-akismet-guid`
 * - `submit-spam` / `submit-ham` (same fields) → a thank-you text
 * - `get-stats` (`key`, `blog`, `from`; `api_key` too, as the original sends it on every call) → JSON
 *
 * Replies to `verify-key`, `comment-check` and `get-stats` say what the service's current alert is
 * (`X-akismet-alert-code` / `X-akismet-alert-msg`, absent when there is none); they are handed to
 * `onAlert` (the original's `update_alert`). Other replies, and calls that got no reply, say nothing.
 */

export const DEFAULT_SPAMFILTER_URL = 'https://rest.akismet.com';

/** How long one call may take. */
export const SPAMFILTER_TIMEOUT_MS = 8_000;

/** Largest reply read (get-stats answers are small). */
const MAX_REPLY_BYTES = 1024 * 1024;

export class SpamfilterRemoteError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = 'SpamfilterRemoteError';
  }
}

/** The service's alert as one reply states it: a header it did not send is null. */
export interface SpamfilterAlert {
  code: string | null;
  message: string | null;
}

/** Calls whose replies state the current alert (the original's `$alert_code_check_paths`). */
const ALERT_CALLS: ReadonlySet<string> = new Set(['verify-key', 'comment-check', 'get-stats']);

/** The fields of one submission as the protocol names them (`comment_author`, `user_ip`, …). */
export type SpamfilterFields = Record<string, string>;

export interface SpamfilterVerdict {
  spam: boolean;
  /** The service says the spam is blatant (`X-akismet-pro-tip: discard`). */
  discard: boolean;
  /** The service's id of this check ('' when it gave none). */
  guid: string;
}

export interface SpamfilterClientOptions {
  endpoint: string;
  /** The site's home URL (`blog`). */
  blog: string;
  timeoutMs?: number;
  /** Called with the alert each reply to `verify-key`, `comment-check` or `get-stats` states. */
  onAlert?: (alert: SpamfilterAlert) => void | Promise<void>;
  fetchImpl?: typeof fetch;
}

export interface SpamfilterClient {
  /** True only for the literal answer `valid`; unreachable or anything else is false. */
  verifyKey(key: string): Promise<boolean>;
  commentCheck(key: string, fields: SpamfilterFields): Promise<SpamfilterVerdict>;
  submit(kind: 'spam' | 'ham', key: string, fields: SpamfilterFields): Promise<void>;
  /**
   * The decoded stats; null when the reply is not JSON (PHP's `json_decode` gives null, e.g. for
   * `invalid`); undefined when there is no reply or it is empty (PHP's `empty()`: `''` or `'0'`).
   */
  getStats(key: string, interval: string): Promise<unknown>;
}

interface Reply {
  status: number;
  body: string;
  headers: Headers;
}

export function createSpamfilterClient(options: SpamfilterClientOptions): SpamfilterClient {
  const base = options.endpoint.replace(/\/+$/, '');
  const fetchImpl = options.fetchImpl ?? fetch;
  const timeout = options.timeoutMs ?? SPAMFILTER_TIMEOUT_MS;

  async function call(name: string, params: Record<string, string>): Promise<Reply> {
    let res: Response;
    try {
      res = await fetchImpl(`${base}/1.1/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8', 'user-agent': 'EventSuite | Akismet/5.3' },
        body: new URLSearchParams(params).toString(),
        signal: AbortSignal.timeout(timeout),
        redirect: 'error',
      });
    } catch (e) {
      throw new SpamfilterRemoteError(`The spam filter service could not be reached: ${e instanceof Error ? e.message : String(e)}`);
    }
    const buf = Buffer.from(await res.arrayBuffer().catch(() => new ArrayBuffer(0)));
    const body = buf.subarray(0, MAX_REPLY_BYTES).toString('utf8');
    if (ALERT_CALLS.has(name) && options.onAlert) {
      await options.onAlert({ code: res.headers.get('x-akismet-alert-code'), message: res.headers.get('x-akismet-alert-msg') });
    }
    return { status: res.status, body, headers: res.headers };
  }

  return {
    async verifyKey(key) {
      try {
        const reply = await call('verify-key', { key, blog: options.blog });
        return reply.body === 'valid';
      } catch {
        return false;
      }
    },
    async commentCheck(key, fields) {
      const reply = await call('comment-check', { ...fields, api_key: key, blog: options.blog });
      const answer = reply.body.trim();
      if (answer !== 'true' && answer !== 'false') {
        const help = reply.headers.get('x-akismet-debug-help');
        throw new SpamfilterRemoteError(`The spam filter service answered ${JSON.stringify(answer.slice(0, 80))}${help ? ` (${help})` : ''}.`, reply.status);
      }
      return {
        spam: answer === 'true',
        discard: reply.headers.get('x-akismet-pro-tip') === 'discard',
        guid: reply.headers.get('x-akismet-guid') ?? '',
      };
    },
    async submit(kind, key, fields) {
      const reply = await call(kind === 'spam' ? 'submit-spam' : 'submit-ham', { ...fields, api_key: key, blog: options.blog });
      if (reply.status >= 400) throw new SpamfilterRemoteError(`The spam filter service answered ${reply.status}.`, reply.status);
    },
    async getStats(key, interval) {
      let reply: Reply;
      try {
        reply = await call('get-stats', { blog: options.blog, key, from: interval, api_key: key });
      } catch {
        return undefined;
      }
      if (reply.body === '' || reply.body === '0') return undefined;
      try {
        return JSON.parse(reply.body) as unknown;
      } catch {
        return null;
      }
    },
  };
}
