import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const tmp = fileURLToPath(new URL('./.tmp/', import.meta.url));

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Chromium leaves folders in TMPDIR: keep them in a folder the global setup cleans.
    env: { TMPDIR: tmp },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: two test files (each with its own browser) at a time.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
