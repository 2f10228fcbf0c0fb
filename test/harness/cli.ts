// The CLI as users run it: `npm run serve`, `npm run demo` and `npx tabletop-relay` start the compiled dist/cli/index.js,
// so the tests build it (about half a second) and run that, not the sources.
import { buildCli } from '../../scripts/build.ts';

let built: Promise<string> | undefined;

/** The compiled CLI's path, built once per test file. */
export function compiledCli(): Promise<string> {
  built ??= buildCli();
  return built;
}
