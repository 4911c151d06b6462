import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './src/test-support/sequencer.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['src/storage/test-global-setup.ts'],
    setupFiles: ['src/test-support/vitest-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    isolate: false,
    sequence: { sequencer: SlowFirstSequencer },
  },
});
