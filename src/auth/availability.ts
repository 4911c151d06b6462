/**
 * @module auth/availability
 * Whether application passwords are offered: over HTTPS, or on a `local` environment (as WordPress).
 */
import type { Config } from '../config.js';

export function applicationPasswordsAvailable(config: Pick<Config, 'baseUrl' | 'environment'>): boolean {
  return config.environment === 'local' || config.baseUrl.startsWith('https://');
}
