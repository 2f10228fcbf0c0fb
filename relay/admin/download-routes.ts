import { z } from 'zod';
import { localRoute, type Route } from '../routing/route.ts';
import { INTEGRATION_PACKAGE_NAMES } from '../../contracts/integration-packages.ts';
import { packageDownload, packageView } from './integration-packages.ts';

// The Stream Deck integrations' files, for the settings UI's Stream Deck page: read-only, admin only.

const admin = 'admin' as const;
const none = z.object({});

export const downloadRoutes: Route[] = [
  localRoute({
    method: 'GET',
    path: '/admin/downloads',
    summary: 'The Stream Deck plugin and the Companion module package: whether each was built, its file name and size',
    access: admin,
    parameters: none,
    handle: async ({ services }) => {
      const folders = services.integrationPackages ?? {};
      return {
        body: { packages: await Promise.all(INTEGRATION_PACKAGE_NAMES.map((name) => packageView(name, folders))) },
      };
    },
  }),
  localRoute({
    method: 'GET',
    path: '/admin/downloads/stream-deck',
    summary:
      "Download the Elgato Stream Deck plugin (org.tabletoprelay.deck.streamDeckPlugin; opening it installs it in Elgato's Stream Deck app); 404 until npm run build:streamdeck built it",
    access: admin,
    parameters: none,
    produces: 'application/octet-stream',
    handle: ({ services }) => packageDownload('stream-deck', services.integrationPackages ?? {}),
  }),
  localRoute({
    method: 'GET',
    path: '/admin/downloads/companion',
    summary:
      'Download the Bitfocus Companion module package (.tgz, for Companion 4.3+: Modules, Import); 404 until npm run build:companion built it',
    access: admin,
    parameters: none,
    produces: 'application/gzip',
    handle: ({ services }) => packageDownload('companion', services.integrationPackages ?? {}),
  }),
];
