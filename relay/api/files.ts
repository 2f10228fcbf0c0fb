import { z } from 'zod';
import { flag, oneOf, text } from '../routing/parameters.ts';
import { worldRoute, type Route } from '../routing/route.ts';

const source = text().default('data').describe('data, public, systems or modules');
const DATA_URL = /^data:[^;,]*(;[^;,]*)*;base64,/;

export const fileRoutes: Route[] = [
  worldRoute({
    method: 'GET',
    path: '/file-system',
    summary: 'List a folder of the file store',
    access: { scope: 'file:read' },
    playerView: {
      passes: 'the world lets only a user allowed to browse files (Trusted Player and up) list or read them',
    },
    parameters: z.object({
      path: z.string({ error: 'must be a string' }).default('').describe('Folder path'),
      source,
      recursive: flag().default(false).describe('List subfolders too'),
    }),
    operation: 'file-system',
    timeoutMs: 15_000,
  }),
  worldRoute({
    method: 'GET',
    path: '/download',
    summary: 'Download a file: its bytes, or JSON with a base64 data URL',
    access: { scope: 'file:read' },
    playerView: {
      passes: 'the world lets only a user allowed to browse files (Trusted Player and up) list or read them',
    },
    parameters: z.object({
      path: text().describe('File path'),
      source,
      format: oneOf(['binary', 'base64']).default('binary').describe('Answer as bytes or as JSON'),
    }),
    operation: 'download-file',
    timeoutMs: 45_000,
    reply: 'file',
  }),
  worldRoute({
    method: 'POST',
    path: '/upload',
    summary: 'Upload a file: a JSON body with fileData (data URL) or binaryData (bytes), or the raw bytes as the body',
    access: { scope: 'file:write' },
    playerView: { passes: 'the world lets only a user allowed to upload files write one' },
    parameters: z
      .object({
        path: text().describe('Folder to upload into'),
        filename: text().describe('File name'),
        source,
        mimeType: text().optional().describe('Content type'),
        overwrite: flag().optional().describe('Replace an existing file'),
        skipIfExists: flag().optional().describe('Keep an existing file and report it'),
        fileData: z
          .string({ error: 'must be a data URL' })
          .regex(DATA_URL, { error: 'must be a base64 data URL (data:<type>;base64,…)' })
          .optional(),
        binaryData: z
          .array(z.number().int().min(0).max(255), { error: 'must be an array of byte values 0 to 255' })
          .optional(),
      })
      .refine((p) => (p.fileData === undefined) !== (p.binaryData === undefined), {
        error: "Send the file as exactly one of 'fileData', 'binaryData' or the raw request body",
      }),
    operation: 'upload-file',
    timeoutMs: 30_000,
    rawBodyAsFileData: true,
    takesUploads: true,
    changes: {
      notUndoable:
        "the module can neither delete a file nor give back one it overwrote; remove or replace it in Foundry's file browser",
      recorded: true,
    },
  }),
];
