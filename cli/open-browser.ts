import { spawn } from 'node:child_process';

interface Opener {
  command: string;
  args: string[];
}

/**
 * How this system opens a URL in the default browser, or undefined where none can be seen: CI, or a Linux session
 * without a display (SSH, a server), where a browser would open nowhere useful or in a text terminal.
 */
export function browserOpener(
  url: string,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): Opener | undefined {
  if (env.CI && env.CI !== 'false') return undefined;
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // `start` is built into cmd; its first quoted argument is the window title, hence the empty one.
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  return { command: 'xdg-open', args: [url] };
}

/**
 * Asks the system to open the URL in the default browser. Resolves whether the opener started; never rejects, because
 * the link is printed anyway and a missing browser must not fail the command.
 */
export function openInBrowser(url: string): Promise<boolean> {
  const opener = browserOpener(url);
  if (!opener) return Promise.resolve(false);
  return new Promise((resolve) => {
    const child = spawn(opener.command, opener.args, {
      detached: true,
      stdio: 'ignore',
      windowsVerbatimArguments: true,
    });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}
