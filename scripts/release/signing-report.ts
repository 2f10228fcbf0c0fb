// Says in the release log which signing secrets the repository has for this system, and what an installer built
// without them lacks: a GM must be able to tell from the release notes whether a download is signed.
//   node scripts/release/signing-report.ts <Linux|Windows|macOS>
const system = process.argv[2] ?? '';
const has = (name: string) => (process.env[name] ?? '') !== '';

const lines: string[] = [];
if (system === 'Windows') {
  lines.push(
    has('WIN_CSC_LINK') || has('CSC_LINK')
      ? 'Windows: a code-signing certificate is set; the installer will be signed.'
      : 'Windows: NO code-signing certificate (secrets WIN_CSC_LINK or CSC_LINK): the installer will be UNSIGNED, SmartScreen will warn GMs, and the updater cannot check the publisher.',
  );
} else if (system === 'macOS') {
  lines.push(
    has('CSC_LINK')
      ? 'macOS: a Developer ID certificate is set; the app will be signed.'
      : 'macOS: NO Developer ID certificate (secret CSC_LINK): the app will be UNSIGNED, Gatekeeper will refuse to open it, and updates cannot be installed.',
    has('APPLE_ID') && has('APPLE_APP_SPECIFIC_PASSWORD') && has('APPLE_TEAM_ID')
      ? 'macOS: notarization credentials are set; the app will be notarized.'
      : 'macOS: NO notarization credentials (secrets APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD, APPLE_TEAM_ID): the app will NOT be notarized.',
  );
} else {
  lines.push('Linux: AppImage and deb are not code-signed; the update feed (latest-linux.yml) carries their SHA-512.');
}
for (const line of lines) console.log(line);
