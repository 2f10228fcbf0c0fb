// A stand-in for an unpacked Electron release for linux-x64, so electron-builder can package the app without downloading
// Electron. Its files are those of Electron's own release manifest
// (https://github.com/electron/electron/blob/main/script/zip_manifests/dist_zip.linux.x64.manifest); electron-builder
// copies such a folder when `electronDist` names one (https://www.electron.build/configuration: electronDist), renames
// `electron` to the executable name and moves LICENSE to LICENSE.electron.txt. Only the app's own archive is checked,
// so the binaries are placeholders; `electron` says so when run.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createPackage } from '@electron/asar';

const LOCALES = [
  'af',
  'am',
  'ar',
  'bg',
  'bn',
  'ca',
  'cs',
  'da',
  'de',
  'el',
  'en-GB',
  'en-US',
  'es-419',
  'es',
  'et',
  'fa',
  'fi',
  'fil',
  'fr',
  'gu',
  'he',
  'hi',
  'hr',
  'hu',
  'id',
  'it',
  'ja',
  'kn',
  'ko',
  'lt',
  'lv',
  'ml',
  'mr',
  'ms',
  'nb',
  'nl',
  'pl',
  'pt-BR',
  'pt-PT',
  'ro',
  'ru',
  'sk',
  'sl',
  'sr',
  'sv',
  'sw',
  'ta',
  'te',
  'th',
  'tr',
  'uk',
  'ur',
  'vi',
  'zh-CN',
  'zh-TW',
];

const PLACEHOLDER_FILES = [
  'LICENSE',
  'LICENSES.chromium.html',
  'chrome-sandbox',
  'chrome_100_percent.pak',
  'chrome_200_percent.pak',
  'chrome_crashpad_handler',
  'icudtl.dat',
  'libEGL.so',
  'libGLESv2.so',
  'libffmpeg.so',
  'libvk_swiftshader.so',
  'libvulkan.so.1',
  'resources.pak',
  'snapshot_blob.bin',
  'v8_context_snapshot.bin',
  'vk_swiftshader_icd.json',
  ...LOCALES.map((locale) => `locales/${locale}.pak`),
];

const STAND_IN_EXECUTABLE =
  '#!/bin/sh\necho "This is a stand-in for the Electron binary, made to check the package; it cannot run the app." >&2\nexit 1\n';

/**
 * The fuse wire every Electron binary carries (https://www.electronjs.org/docs/latest/tutorial/fuses): a sentinel, the
 * wire's version (1) and length, then one byte per fuse, '1' on and '0' off, in the order of @electron/fuses'
 * FuseV1Options, as Electron ships them: RunAsNode on, cookie encryption off, NODE_OPTIONS on, --inspect on, ASAR
 * integrity validation off, only-load-app-from-ASAR off, the browser-process V8 snapshot off, file:// privileges on.
 * electron-builder flips it in place (`electronFuses`); the shell never reads past `exit`.
 */
const FUSE_WIRE = Buffer.concat([
  Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX', 'latin1'),
  Buffer.from([1, 8]),
  Buffer.from('10110001', 'latin1'),
]);

function writeFile(path: string, contents: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, contents);
}

/**
 * Electron's default app. electron-builder hashes every archive in resources/ for the asar integrity record, so this one
 * has to be a real archive, as it is in a release.
 */
async function writeDefaultApp(resources: string): Promise<void> {
  const source = mkdtempSync(join(tmpdir(), 'electron-default-app-'));
  try {
    writeFile(join(source, 'package.json'), JSON.stringify({ name: 'electron', main: 'main.js' }));
    writeFile(join(source, 'main.js'), "console.log('Electron default app (stand-in)');\n");
    await createPackage(source, join(resources, 'default_app.asar'));
  } finally {
    rmSync(source, { recursive: true, force: true });
  }
}

/** Lays out an unpacked Electron release for linux-x64 of the given version in `folder`. */
export async function makeElectronDistStandIn(folder: string, version: string): Promise<void> {
  for (const file of PLACEHOLDER_FILES) writeFile(join(folder, file), `stand-in for Electron ${version}: ${file}\n`);
  writeFile(join(folder, 'version'), version);
  writeFile(join(folder, 'electron'), Buffer.concat([Buffer.from(STAND_IN_EXECUTABLE), FUSE_WIRE]));
  chmodSync(join(folder, 'electron'), 0o755);
  await writeDefaultApp(join(folder, 'resources'));
}
