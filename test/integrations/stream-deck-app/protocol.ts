// The messages between the Stream Deck app and a plugin, as Elgato publishes them for SDK 2:
// - Registration, Events received, Commands sent: https://docs.elgato.com/streamdeck/sdk/references/websocket/plugin
// - Settings (who is told of a change): https://docs.elgato.com/streamdeck/sdk/guides/settings
// - Manifest (CodePath, Nodejs, Actions, States, Controllers): https://docs.elgato.com/streamdeck/sdk/references/manifest
// The field names and types below are the pages' (and @elgato/streamdeck's `api/` types, which mirror them).

export type Controller = 'Keypad' | 'Encoder';

export interface Coordinates {
  column: number;
  row: number;
}

/** "Devices": the `type` numbers of the DeviceType table. */
export const DEVICE_TYPE = { streamDeck: 0, streamDeckPlus: 7 } as const;

export interface DeviceInfo {
  name: string;
  type: number;
  /** Keys only: a Stream Deck + has 4 × 2 keys, and its 4 dials on the touch strip are counted apart. */
  size: { columns: number; rows: number };
}

/** The `-info` argument ("RegistrationInfo"). */
export interface RegistrationInfo {
  application: {
    font: string;
    language: string;
    platform: 'mac' | 'windows';
    platformVersion: string;
    version: string;
  };
  colors: {
    buttonMouseOverBackgroundColor: string;
    buttonPressedBackgroundColor: string;
    buttonPressedBorderColor: string;
    buttonPressedTextColor: string;
    highlightColor: string;
  };
  devicePixelRatio: number;
  devices: Array<DeviceInfo & { id: string }>;
  plugin: { uuid: string; version: string };
}

/** What every action event carries ("willAppear", "keyDown", "dialRotate", ...): action, context, device, payload. */
export interface ActionEventMessage {
  event: string;
  action: string;
  context: string;
  device: string;
  payload: Record<string, unknown>;
  id?: string;
}

/**
 * A command the plugin sends ("Commands sent"): `setTitle`, `setImage`, `setState`, `showAlert`, `showOk`,
 * `setFeedback`, `setFeedbackLayout`, `setTriggerDescription`, `setSettings`, `getSettings`, `setGlobalSettings`,
 * `getGlobalSettings`, `getSecrets`, `openUrl`, `logMessage`, `sendToPropertyInspector`, `switchToProfile`.
 */
export interface PluginCommand {
  event: string;
  context?: string;
  device?: string;
  id?: string;
  payload?: any;
}

/** The commands the page documents; anything else is a plugin bug the app would ignore. */
export const DOCUMENTED_COMMANDS = new Set([
  'setTitle',
  'setImage',
  'setState',
  'showAlert',
  'showOk',
  'setFeedback',
  'setFeedbackLayout',
  'setTriggerDescription',
  'setSettings',
  'getSettings',
  'setGlobalSettings',
  'getGlobalSettings',
  'getSecrets',
  'setResources',
  'getResources',
  'openUrl',
  'logMessage',
  'sendToPropertyInspector',
  'switchToProfile',
]);

/** `target` of setTitle and setImage: 0 hardware and software, 1 hardware only, 2 software only. */
export const TARGET_BOTH = 0;

/** A manifest's action, as far as the app reads it to place and drive the action. */
export interface ManifestAction {
  UUID: string;
  Name: string;
  Controllers?: Controller[];
  States: Array<{ Image: string; Title?: string }>;
  DisableAutomaticStates?: boolean;
  Encoder?: { layout?: string };
}

export interface PluginManifest {
  UUID: string;
  Name: string;
  Version: string;
  SDKVersion: number;
  CodePath: string;
  CodePathMac?: string;
  CodePathWin?: string;
  Nodejs?: { Version: string; Debug?: string };
  Software: { MinimumVersion: string };
  Actions: ManifestAction[];
}
