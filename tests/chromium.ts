import { existsSync } from 'node:fs';

/** Debian's Chromium (`apt-get install chromium`); override with AYAH_CHROMIUM. */
export const CHROMIUM_PATH = process.env.AYAH_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Launch options for Playwright with the machine's own Chromium. The background-networking flags keep
 * it from dialling out (this machine's network is closed, and tests must not depend on it).
 */
export function chromiumLaunchOptions() {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}. Install it with 'apt-get install -y chromium' ` +
        `(or set AYAH_CHROMIUM). Tests never download a browser.`,
    );
  }
  return {
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  };
}
