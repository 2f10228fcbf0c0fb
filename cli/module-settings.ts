// The module settings `npm run demo -- --module-settings <names>` turns on in the sandbox world. Each is off by default,
// as the module ships; only the type comes from the sandbox, so reading these names loads no sandbox code.
import type { ModuleSettings } from '../sandbox/index.ts';

export const DEMO_MODULE_SETTINGS = {
  'allow-macro-write': 'allowMacroWrite',
  'allow-macro-execute': 'allowMacroExecute',
  'allow-execute-js': 'allowExecuteJs',
} as const satisfies Record<string, keyof ModuleSettings>;

export type DemoModuleSetting = keyof typeof DEMO_MODULE_SETTINGS;

/** The settings a comma-separated list names, or the first name that is not one of them. */
export function readModuleSettings(list: string): { settings: DemoModuleSetting[] } | { unknown: string } {
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.find((name) => !Object.hasOwn(DEMO_MODULE_SETTINGS, name));
  return unknown === undefined ? { settings: names as DemoModuleSetting[] } : { unknown };
}

/** The sandbox world's settings with the named ones on. */
export function moduleSettingsOn(names: readonly DemoModuleSetting[]): Partial<ModuleSettings> {
  return Object.fromEntries(names.map((name) => [DEMO_MODULE_SETTINGS[name], true]));
}
