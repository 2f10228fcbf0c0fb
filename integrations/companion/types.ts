import type { CompanionVariableValues } from '@companion-module/base';
import type { ActionsSchema } from './actions.ts';
import type { ModuleConfig, ModuleSecrets } from './config.ts';
import type { FeedbacksSchema } from './feedbacks.ts';

/** The module's types as module-base 2 takes them (`InstanceTypes`), so definitions and presets are checked. */
export type ModuleTypes = {
  config: ModuleConfig;
  secrets: ModuleSecrets;
  actions: ActionsSchema;
  feedbacks: FeedbacksSchema;
  variables: CompanionVariableValues;
};
