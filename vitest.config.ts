import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // The integration suites drive the sandbox world: they run once on a Foundry 13 world and once on a 14 one.
    projects: [
      { extends: true, test: { name: 'foundry-13', include: ['test/**/*.test.ts'] } },
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
