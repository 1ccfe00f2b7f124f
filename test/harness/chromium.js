// Headless Debian Chromium (via playwright-core) as the VS Code workbench client.
'use strict';
const fs = require('fs');
const path = require('path');
const { makeRunDir } = require('./codeserver');

const CHROMIUM = process.env.CHROMIUM_BIN || '/usr/bin/chromium';

// --no-sandbox: we run as root; the rest keeps Chromium from reaching out to the network or
// showing first-run UI. --disable-dev-shm-usage: small /dev/shm in containers.
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-dev-shm-usage'];

/**
 * Launches Chromium with a fresh profile. opts.profileDir: where to put the profile (else a new
 * /tmp/mat-chrome-XXXX). Returns { context, page, close() } (close also removes the profile).
 */
async function launchChromium(opts = {}) {
  const { chromium } = require('playwright-core');
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: run \`bash scripts/install-vscode.sh\``);
  const profile = opts.profileDir || makeRunDir('mat-chrome-');
  fs.mkdirSync(profile, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: opts.viewport || { width: 1400, height: 900 },
    args: CHROMIUM_ARGS,
    // Crashpad and caches would otherwise land in ~/.config/chromium and ~/.cache/chromium.
    env: { ...process.env, XDG_CONFIG_HOME: path.join(profile, 'xdg-config'), XDG_CACHE_HOME: path.join(profile, 'xdg-cache') },
  });
  const page = context.pages()[0] || await context.newPage();
  const close = async () => {
    await context.close().catch(() => {});
    fs.rmSync(profile, { recursive: true, force: true });
  };
  return { context, page, profile, close };
}

module.exports = { launchChromium, CHROMIUM, CHROMIUM_ARGS };
