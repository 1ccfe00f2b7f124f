/**
 * The one list of files that may hold secrets (keys, passwords, tokens), declared once (issue 35): Attach
 * Files… asks before such a file joins the next task (`attachments.ts`); a tool call, which cannot answer a
 * question, refuses it (`delegate.ts`: the MCP server's run_task, the `#multiAgent` tool). Each segment of the
 * path is judged as Windows opens it (trailing dots and spaces dropped, an alternate data stream cut off, any
 * letter case), on every platform. No vscode: unit-tested in plain Node.
 */
import { join } from 'node:path';

/** A file name (the last segment) that holds secrets. */
const SENSITIVE_NAMES: readonly RegExp[] = [
  /^\.env(\..*)?$/,
  /^\.envrc$/,
  /\.(pem|key|p12|pfx|keystore|jks|ppk|kdbx)$/,
  /^id_(rsa|dsa|ecdsa|ed25519)(\.pub)?$/,
  /^(\.|_)(npmrc|netrc|pgpass|htpasswd|pypirc|git-credentials|dockercfg|s3cfg|boto|vault-token)$/,
  /^(credentials|secrets?)(\.[a-z]+)?$/,
];

/** A folder whose every file may hold secrets: a repository's settings (remote URLs with tokens), SSH, cloud CLIs. */
const SENSITIVE_FOLDERS: ReadonlySet<string> = new Set(['.git', '.ssh', '.aws', '.gnupg', '.docker', '.kube', '.azure']);

/** A segment as Windows resolves it: no trailing dots or spaces, no `:stream`, one letter case. */
function asOpened(segment: string): string {
  const colon = segment.indexOf(':');
  return (colon >= 0 ? segment.slice(0, colon) : segment).replace(/[. ]+$/, '').toLowerCase();
}

/** Whether a path (workspace-relative, `/` or `\` separated, or a bare name) names a file that may hold secrets. */
export function isSensitivePath(path: string): boolean {
  const segments = path.split(/[\\/]+/).map(asOpened).filter(s => s && s !== '.');
  const name = segments.pop();
  if (!name) return false;
  return SENSITIVE_NAMES.some(p => p.test(name)) || segments.some(s => SENSITIVE_FOLDERS.has(s));
}

/**
 * The secret places of a home folder (credentials, keys, tokens, browser profiles) that a check's sandbox hides
 * (issue 44): the folders above, and the files and folders credentials live in there.
 */
export function secretPlaces(home: string): string[] {
  const inHome = [
    ...[...SENSITIVE_FOLDERS].filter(f => f !== '.git'),
    '.netrc',
    '.npmrc',
    '.yarnrc',
    '.yarnrc.yml',
    '.pypirc',
    '.git-credentials',
    '.config/gh',
    '.config/hub',
    '.config/git/credentials',
    '.config/gcloud',
    '.config/doctl',
    '.config/op',
    '.oci',
    '.terraform.d',
    '.cargo/credentials',
    '.cargo/credentials.toml',
    '.gem/credentials',
    '.m2/settings.xml',
    '.gradle/gradle.properties',
    '.password-store',
    '.local/share/keyrings',
    '.mozilla',
    '.config/google-chrome',
    '.config/chromium',
    '.config/BraveSoftware',
    '.config/microsoft-edge',
    'Library/Keychains',
    'Library/Application Support/Google/Chrome',
    'Library/Application Support/Firefox',
    'Library/Cookies',
  ];
  return inHome.map(p => join(home, ...p.split('/')));
}
