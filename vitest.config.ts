import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Most files wait on sockets, Chromium and timers rather than the CPU: one worker more than the cores keeps both busy.
    maxWorkers: availableParallelism() + 1,
    // In CI a failed test runs once more: a real browser on a loaded 2-core machine now and then misses a deadline that
    // holds on every other run. Locally a failure stands at once, so a flaky test shows where it is written.
    retry: process.env.CI ? 1 : 0,
    projects: [
      // The kernel's modules on their own, on fakes, in seconds: `npm run test:unit` runs only these.
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      // The integration suites drive the sandbox world: they run once on a Foundry 13 world and once on a 14 one.
      {
        extends: true,
        test: {
          name: 'foundry-13',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/unit/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'foundry-14',
          include: ['test/integration/**/*.test.ts'],
          env: { SANDBOX_FOUNDRY_VERSION: '14.366' },
        },
      },
    ],
  },
});
