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
    // Files share their worker's modules: re-evaluating the whole app for each of ~125 files cost
    // about 2 s of CPU per file. A file needing fresh modules calls vi.resetModules() itself.
    isolate: false,
    sequence: { sequencer: SlowFirstSequencer },
  },
});
