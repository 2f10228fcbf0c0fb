import { z } from 'zod';
import { OVERLAY_NAMES, OVERLAYS, type OverlayName } from '../../contracts/overlays.ts';
import { HttpError } from '../errors.ts';
import { overlayAsset } from '../overlays/assets.ts';
import { OVERLAY_FEEDS } from '../overlays/feeds.ts';
import { overlayPage, pageConfig, pageParameters, PAGE_HEADERS, type PageParameters } from '../overlays/page.ts';
import { overlaySheet } from '../overlays/sheet.ts';
import { overlayStream } from '../overlays/stream.ts';
import { number, oneOf, text } from '../routing/parameters.ts';
import { localRoute, type LocalContext, type Route } from '../routing/route.ts';

/** The link of an overlay route's call: the pipeline lets no call in without one. */
function linkOf(context: LocalContext<unknown>) {
  if (!context.link || context.linkSecret === undefined) throw new HttpError(401, 'Overlay link is required');
  return { link: context.link, secret: context.linkSecret };
}

const NO_STORE = { 'Cache-Control': 'no-store' };

function routesOf(overlay: OverlayName): Route[] {
  const access = { overlay };
  const { title } = OVERLAYS[overlay];
  const routes = [
    localRoute({
      method: 'GET',
      path: `/overlays/${overlay}`,
      summary: `The ${title} overlay: a page for an OBS browser source (transparent, live)`,
      access,
      parameters: pageParameters(overlay),
      produces: 'text/html',
      handle: (context) => {
        const { link, secret } = linkOf(context);
        const config = pageConfig(overlay, context.parameters as PageParameters, secret, link.customCss);
        return { kind: 'html', html: overlayPage(config), headers: PAGE_HEADERS };
      },
    }),
    localRoute({
      method: 'GET',
      path: `/overlays/${overlay}/state`,
      summary: `What the ${title} overlay shows now, as its link's user sees it`,
      access,
      parameters: z.object({}),
      handle: async (context) => ({
        body: await OVERLAY_FEEDS[overlay].view(context.services, linkOf(context).link),
        headers: NO_STORE,
      }),
    }),
    localRoute({
      method: 'GET',
      path: `/overlays/${overlay}/events`,
      summary: `The ${title} overlay's live changes: ${OVERLAY_FEEDS[overlay].sends} events (Server-Sent Events)`,
      access,
      parameters: z.object({}),
      produces: 'text/event-stream',
      handle: (context) => overlayStream(overlay, linkOf(context).link, context.services),
    }),
  ];
  if (overlay === 'character-card') {
    routes.push(
      localRoute({
        method: 'GET',
        path: `/overlays/${overlay}/sheet`,
        summary: "An image of the character card's actor's sheet (PNG or JPEG bytes), as GET /sheet captures it",
        access,
        parameters: z.object({
          format: oneOf(['png', 'jpeg']).default('png').describe('Image format'),
          scale: number({ min: 0.1, max: 4 }).default(1).describe('Device pixel ratio of the capture'),
        }),
        produces: 'image/png',
        handle: (context) => overlaySheet(linkOf(context).link, context.parameters, context.key, context.services),
      }),
    );
  }
  return routes;
}

export const overlayRoutes: Route[] = [
  ...OVERLAY_NAMES.flatMap(routesOf),
  localRoute({
    method: 'GET',
    path: '/overlays/assets/{file}',
    summary: "The overlay pages' script and style sheet (overlay.js, overlay.css)",
    access: 'public',
    parameters: z.object({ file: text().describe('overlay.js or overlay.css') }),
    handle: ({ parameters, services }) => overlayAsset(services.settingsUiDir, parameters.file),
  }),
];
