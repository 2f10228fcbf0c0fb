import { z } from 'zod';
import { flag, optionalShownText, text, textList } from '../routing/parameters.ts';
import { localRoute, type Route } from '../routing/route.ts';
import { knownScopes, knownToolsets } from '../auth/scope-list.ts';
import { keyRequestView, keyRequestViews } from './status.ts';

const admin = 'admin' as const;
const keyRequestCode = text().describe('The key request code the tool shows, e.g. K7P-4QX');

/** The GM's side of tools' key requests (POST /auth/key-request): list, approve (perhaps narrowing), deny. */
export const keyRequestAdminRoutes: Route[] = [
  localRoute({
    method: 'GET',
    path: '/admin/key-requests',
    summary: "Tools' key requests waiting for a decision (never their polling secrets)",
    access: admin,
    parameters: z.object({}),
    handle: ({ services }) => ({ body: { keyRequests: keyRequestViews(services) } }),
  }),
  localRoute({
    method: 'POST',
    path: '/admin/key-requests/{code}/approve',
    summary:
      'Approve a key request, granting what the tool asked or less (anything more is a 400); the tool collects the new key with its next poll',
    access: admin,
    parameters: z.object({
      code: keyRequestCode,
      name: optionalShownText(100).describe("The key's name; the tool's appName by default"),
      scopes: textList()
        .pipe(knownScopes())
        .optional()
        .describe(
          'Some or all of the scopes the tool asked for; by default all of them but execute-js and world:link, which are granted only when named',
        ),
      userId: z
        .string({ error: 'must be a string' })
        .trim()
        .max(200)
        .optional()
        .describe('The tabletop user the key acts as; may replace the user the tool asked for, never remove it'),
      clientIds: textList()
        .optional()
        .describe('The worlds the key reaches: some of those asked for, or any when the tool asked for every world'),
      toolsets: textList()
        .pipe(knownToolsets())
        .optional()
        .describe(
          "An AI assistant's toolsets: some of those asked for; by default those of play and prepare it asked for. Its scopes follow, unless named",
        ),
      readOnly: z
        .boolean({ error: 'must be true or false' })
        .optional()
        .describe(
          "An AI assistant's key only reads: its scopes are those of its toolsets' reads, and it lists only them",
        ),
      askBeforeChanges: flag()
        .optional()
        .describe("Each change the key asks of a world waits for the GM's approval (an AI assistant's, say)"),
    }),
    handle: ({ parameters: { code, ...grant }, services }) => ({
      body: keyRequestView(services.keyRequests.approve(code, grant)),
    }),
  }),
  localRoute({
    method: 'POST',
    path: '/admin/key-requests/{code}/deny',
    summary: 'Deny a key request; the tool is told with its next poll',
    access: admin,
    parameters: z.object({ code: keyRequestCode }),
    handle: ({ parameters, services }) => ({ body: keyRequestView(services.keyRequests.deny(parameters.code)) }),
  }),
];
