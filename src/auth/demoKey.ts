/**
 * The demo (npm run demo) starts VS Code with MULTI_AGENT_TASKS_DEMO_KEY and the emulator's loopback
 * address. Only then is that key used (stored when no key is set, like the user typing it in).
 */

/** The demo key when the base URL (the setting) is the emulator's loopback address. */
export function demoKey(baseUrl: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const key = env.MULTI_AGENT_TASKS_DEMO_KEY;
  if (!key) return undefined;
  try {
    const host = new URL(baseUrl).hostname;
    return host === '127.0.0.1' || host === 'localhost' ? key : undefined;
  } catch {
    return undefined; // not a URL: the demo key is not for this configuration
  }
}
