// Where Chrome or Chromium is installed, on Linux, macOS and Windows.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

function windowsCandidates(): string[] {
  const roots = [process.env.PROGRAMFILES, process.env['PROGRAMFILES(X86)'], process.env.LOCALAPPDATA].filter(
    (root): root is string => !!root,
  );
  const suffixes = [
    ['Google', 'Chrome', 'Application', 'chrome.exe'],
    ['Chromium', 'Application', 'chrome.exe'],
    ['Microsoft', 'Edge', 'Application', 'msedge.exe'],
  ];
  return roots.flatMap((root) => suffixes.map((parts) => join(root, ...parts)));
}

const MAC_CANDIDATES = [
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
];

const LINUX_CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/usr/bin/microsoft-edge',
];

export function chromeCandidates(platform: NodeJS.Platform = process.platform): string[] {
  if (platform === 'win32') return windowsCandidates();
  if (platform === 'darwin') return MAC_CANDIDATES;
  return LINUX_CANDIDATES;
}

/**
 * The browser to drive: the configured path, else TABLETOP_RELAY_CHROME, else the first installed candidate.
 * Undefined when none is found; nothing is ever downloaded.
 */
export function findChrome(configured?: string): string | undefined {
  const explicit = configured ?? process.env.TABLETOP_RELAY_CHROME;
  if (explicit) return existsSync(explicit) ? explicit : undefined;
  return chromeCandidates().find((candidate) => existsSync(candidate));
}
