import { z } from 'zod';
import { text } from '../routing/parameters.ts';
import { localRoute, type Route } from '../routing/route.ts';
import type { CaptureService } from '../capture/capture-service.ts';
import { captureHttpError } from '../capture/capture-errors.ts';
import { HttpError } from '../errors.ts';
import type { RelayServices } from '../services.ts';

const admin = 'admin' as const;

function captureOf(services: RelayServices): CaptureService {
  if (!services.capture) throw new HttpError(503, 'Browser capture is turned off in this relay');
  return services.capture;
}

/** The settings UI's browser capture panel: the Foundry URL, the capture user and its password (never shown back). */
export const captureRoutes: Route[] = [
  localRoute({
    method: 'GET',
    path: '/admin/capture',
    summary: 'Browser capture settings: Foundry URL, capture user, whether a password is stored',
    access: admin,
    parameters: z.object({}),
    handle: ({ services }) => ({ body: captureOf(services).view() }),
  }),
  localRoute({
    method: 'PUT',
    path: '/admin/capture',
    summary: 'Set the browser capture settings; the password is stored encrypted, and kept when omitted',
    access: admin,
    parameters: z.object({
      foundryUrl: text()
        .regex(/^https?:\/\/[^\s]+$/, { error: 'must be an http(s) URL such as http://localhost:30000' })
        .describe('The Foundry server the capture session logs in to'),
      username: text().max(200).describe('The Foundry user to log in as (an Assistant GM is recommended)'),
      password: z
        .string({ error: 'must be a string' })
        .max(1000)
        .optional()
        .describe("The user's password; omit to keep the stored one"),
    }),
    handle: async ({ parameters, services }) => ({ body: await captureOf(services).configure(parameters) }),
  }),
  localRoute({
    method: 'POST',
    path: '/admin/capture/test',
    summary: 'Log in with the capture settings and capture the first visible sheet (PNG bytes)',
    access: admin,
    parameters: z.object({}),
    produces: 'image/png',
    handle: async ({ services }) => {
      const capture = captureOf(services);
      try {
        const { bytes, mimeType, width, height } = await capture.testCapture();
        return { kind: 'image', bytes, mimeType, width, height };
      } catch (error) {
        throw captureHttpError(error, 'The test capture');
      }
    },
  }),
];
