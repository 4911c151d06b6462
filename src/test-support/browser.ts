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

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
}
