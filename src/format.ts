/** Small text formatters shared by the views, the poller and the error words. Pure: no vscode. */

/** The message of anything thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `1.2 MB`, `340 KB`, `12 B`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** `45s`, `3m 05s`, `1h 02m`, from a duration in ms. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/** How long a run took: `0.4s`, `9.7s` under ten seconds (a check's run is often under one), else as `formatDuration`. */
export function formatRunTime(ms: number): string {
  return ms < 10_000 ? `${(Math.max(0, ms) / 1000).toFixed(1)}s` : formatDuration(ms);
}

/** A short local date and time; today's dates show the time only. */
export function formatWhen(date: Date, now = new Date()): string {
  if (Number.isNaN(date.getTime())) return '';
  const sameDay = date.toDateString() === now.toDateString();
  return sameDay
    ? date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

export function firstLine(text: string | null | undefined, max = 80): string {
  const line = (text ?? '').trim().split(/\r?\n/).find(l => l.trim())?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

/** `$0.03`, `$0.035`, `$1.50`: US dollars with 2 to 4 decimals, as the service counts them. */
export function formatUsd(amount: number): string {
  const rounded = Math.round(amount * 10_000) / 10_000;
  const decimals = Math.min(4, Math.max(2, (String(rounded).split('.')[1] ?? '').length));
  return `$${rounded.toFixed(decimals)}`;
}

/**
 * How much of a file an upload has sent, from the request's own counts: its body is the file wrapped in a form
 * (`sent` of `total` bytes, the headers and boundaries included), so the file's share of it, never past its size.
 * The upload toast said "205 KB of 205 KB" for a 200 KB file (issue 35).
 */
export function fileBytesSent(sent: number, total: number | undefined, fileBytes: number): number {
  if (!total || total <= 0) return Math.min(sent, fileBytes);
  return Math.min(fileBytes, Math.round((sent / total) * fileBytes));
}

/**
 * Server text shown as plain text: VS Code turns `[label](target)` in a notification into a link (and a
 * `command:` target runs a command); bare URLs stay text. A zero-width space between `]` and `(` keeps
 * any such pair from being read as a link, and changes nothing a user reads.
 */
export function inert(text: string): string {
  return text.replace(/\](\s*)\(/g, ']\u200B$1(');
}
