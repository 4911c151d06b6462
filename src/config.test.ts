import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('loadConfig: ENVIRONMENT', () => {
  it.each([
    [{}, 'local'],
    [{ HOST: '127.0.0.1' }, 'local'],
    [{ HOST: '::1' }, 'local'],
    [{ HOST: 'localhost', BASE_URL: 'http://localhost:8080' }, 'local'],
    [{ HOST: '127.0.0.1', BASE_URL: 'http://127.0.0.1:9000' }, 'local'],
    [{ HOST: '0.0.0.0' }, 'production'],
    [{ HOST: '::' }, 'production'],
    [{ HOST: '192.168.1.5' }, 'production'],
    [{ HOST: '127.0.0.1', BASE_URL: 'http://127.0.0.1.nip.io:8080' }, 'production'],
    [{ HOST: '127.0.0.1', BASE_URL: 'https://events.example.com' }, 'production'],
    [{ HOST: '0.0.0.0', BASE_URL: 'http://localhost:8080' }, 'production'],
    [{ HOST: '127.0.0.1.nip.io' }, 'production'],
    [{ HOST: '0.0.0.0', ENVIRONMENT: 'local' }, 'local'],
    [{ ENVIRONMENT: 'development' }, 'development'],
    [{ ENVIRONMENT: 'nonsense', HOST: '0.0.0.0' }, 'production'],
  ] as const)('%j → %s', (env, expected) => {
    expect(loadConfig({ ...env }).environment).toBe(expected);
  });
});
