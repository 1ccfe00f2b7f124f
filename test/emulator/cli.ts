// node out/test/emulator/cli.js [--port N] [--task-ms N] [--host 127.0.0.1] [--plan P] [--json] [--quiet] [--kinder]
import { KINDER_OPTIONS, PLANS, startEmulator, type Plan } from './server';

function parseArgs(argv: string[]): { port: number; taskMs?: number; host: string; plan?: Plan; json: boolean; quiet: boolean; kinder: boolean } {
  const args = { port: Number(process.env.EMULATOR_PORT ?? 0), taskMs: undefined as number | undefined, host: '127.0.0.1', plan: undefined as Plan | undefined, json: false, quiet: false, kinder: false };
  for (let i = 0; i < argv.length; i++) {
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) {
        throw new Error(`${argv[i - 1]} needs a value`);
      }
      return next;
    };
    switch (argv[i]) {
      case '--port':
        args.port = Number(value());
        break;
      case '--task-ms':
        args.taskMs = Number(value());
        break;
      case '--host':
        args.host = value();
        break;
      case '--plan': {
        // The plan of every key (default 'unlimited', the emulator's own; see the README).
        const plan = value();
        if (!PLANS.includes(plan as Plan)) {
          throw new Error(`--plan must be one of ${PLANS.join(', ')}`);
        }
        args.plan = plan as Plan;
        break;
      }
      case '--json':
        args.json = true;
        break;
      case '--quiet':
        args.quiet = true;
        break;
      case '--kinder':
        // Every kinder-than-live switch at once (KINDER_OPTIONS); the default is the live behaviour.
        args.kinder = true;
        break;
      default:
        throw new Error(`Unknown argument ${argv[i]}`);
    }
  }
  if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535) {
    throw new Error('--port must be an integer between 0 and 65535');
  }
  if (args.taskMs !== undefined && !(args.taskMs >= 0)) {
    throw new Error('--task-ms must be a number >= 0');
  }
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const emulator = await startEmulator({
    ...(args.kinder ? KINDER_OPTIONS : {}),
    port: args.port,
    host: args.host,
    taskDurationMs: args.taskMs,
    defaultPlan: args.plan,
    quiet: args.quiet,
  });
  if (args.json) {
    const { origin, baseUrl, legacyBaseUrl, apiKey } = emulator;
    process.stdout.write(JSON.stringify({ origin, baseUrl, legacyBaseUrl, apiKey }) + '\n');
  } else {
    process.stdout.write(
      [
        'Multi-Agent Tasks emulator listening',
        `base URL:     ${emulator.baseUrl}`,
        `earlier form: ${emulator.legacyBaseUrl}`,
        `platform URL: ${emulator.origin}`,
        `API key:      ${emulator.apiKey}`,
      ].join('\n') + '\n',
    );
  }
  let stopping = false;
  const shutdown = (): void => {
    if (stopping) {
      return;
    }
    stopping = true;
    void emulator.close().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err: Error) => {
  process.stderr.write(`emulator: ${err.message}\n`);
  process.exit(1);
});
