// The Stream Deck integrations the relay hands out for download, as the admin API and the settings UI share them.

export const INTEGRATION_PACKAGE_NAMES = ['stream-deck', 'companion'] as const;

/** `stream-deck`: Elgato's Stream Deck app plugin; `companion`: the Bitfocus Companion module. */
export type IntegrationPackageName = (typeof INTEGRATION_PACKAGE_NAMES)[number];

/** One package (GET /admin/downloads): whether its file was built, and where to download it. */
export interface IntegrationPackageView {
  name: IntegrationPackageName;
  /** What the settings UI calls it, e.g. "Elgato Stream Deck plugin". */
  title: string;
  /** The admin route that sends the file as an attachment. */
  path: string;
  /** The command that builds the file in the project folder. */
  buildCommand: string;
  /** The file's name and size and when it was built; absent when it was not built. */
  file?: { name: string; bytes: number; builtAt: string };
}
