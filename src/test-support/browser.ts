/**
 * @module test-support/browser
 * Headless Debian Chromium for browser tests, driven by playwright-core (never a browser download).
 * Suites skip themselves, saying why, where `/usr/bin/chromium` is absent.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);

/** Flags that keep Chromium off the (closed) network and quick to start. */
const LAUNCH_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A `describe.each` title (`%s` is the engine) that says why the suite is skipped. */
export function browserSuiteTitle(name: string): string {
  return HAS_CHROMIUM ? `${name} in Chromium on %s` : `${name} in Chromium on %s — skipped: ${CHROMIUM} is absent (apt-get install chromium)`;
}

let shared: Promise<Browser> | undefined;

/**
 * Chromium for a suite. One browser per test process is started and shared (a launch costs seconds
 * of CPU; test files share their worker process, see vitest.config.ts): suites get a view of it whose
 * `close()` closes only the contexts and pages opened since, so no cookie or page outlives its suite.
 * Playwright kills the browser when the process exits.
 */
export async function launchChromium(): Promise<Browser> {
  shared ??= chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS }).then((b) => {
    b.once('disconnected', () => (shared = undefined));
    return b;
  }, (err: unknown) => {
    shared = undefined;
    throw err;
  });
  const browser = await shared;
  const before = new Set(browser.contexts());
  const close = async () => {
    for (const c of browser.contexts()) if (!before.has(c)) await c.close();
  };
  return new Proxy(browser, {
    get(target, prop) {
      if (prop === 'close') return close;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
