/**
 * Why polling waits, as state the status bar renders: a rate-limit pause (until when), a rejected key,
 * a bad setting, a refused account, a lost connection. Each distinct problem is reported once (not at
 * every poll), until the key or the settings change.
 */
import * as vscode from 'vscode';
import { Disposable } from '../../disposable';
import { type Described, describeProblem } from '../../errors';
import { accessRefusedPause, keyRejectedPause, rateLimitPause, settingPause, unreachable } from '../../vocabulary';
import type { PollerEvent } from './poller';

export class PollerStatus extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  /** The paused reason changed. */
  readonly onDidChange = this.changed.event;
  private readonly problem = this._register(new vscode.EventEmitter<Described>());
  /** A problem the user should hear about; fired once per distinct problem. */
  readonly onDidFindProblem = this.problem.event;

  private reason: string | undefined;
  private rateLimitedUntil = 0;
  private readonly reported = new Set<string>();
  private pauseTimer: NodeJS.Timeout | undefined;

  constructor() {
    super();
    this._register({ dispose: () => clearTimeout(this.pauseTimer) });
  }

  /** Set while polling waits, in words for the status bar. */
  get pausedReason(): string | undefined {
    return this.reason;
  }

  handle(event: PollerEvent): void {
    switch (event.kind) {
      case 'rateLimited': {
        this.reason = rateLimitPause(event.scope, event.untilMs);
        if (event.scope === 'monthly') this.reportOnce('monthly', 'rateLimit', this.reason);
        this.rateLimitedUntil = event.untilMs;
        clearTimeout(this.pauseTimer);
        this.pauseTimer = setTimeout(() => {
          this.rateLimitedUntil = 0;
          this.set(undefined);
        }, Math.min(Math.max(0, event.untilMs - Date.now()), 2 ** 31 - 1));
        break;
      }
      case 'authenticationFailed':
        this.reason = keyRejectedPause();
        this.reportOnce('authentication', 'authentication', event.message);
        break;
      case 'configurationError':
        this.reason = settingPause(event.message);
        this.reportOnce(`configuration:${event.message}`, 'configuration', event.message);
        break;
      case 'permissionDenied':
        this.reason = accessRefusedPause(event.message);
        this.reportOnce(`permission:${event.message}`, 'permission', event.message);
        break;
      case 'connectionTrouble':
        this.reason = unreachable(event.message, 'polling');
        break;
      case 'recovered':
        this.reason = undefined;
        break;
      case 'streamUnavailable':
        return;
    }
    this.changed.fire();
  }

  /**
   * The key or the settings changed: a problem that is still there is reported again by the next poll.
   * Only a new key ends a rate-limit pause (the limit is per key), as in the poller.
   */
  reset(options: { keyChanged?: boolean } = {}): void {
    this.reported.clear();
    if (!options.keyChanged && this.rateLimitedUntil > Date.now()) return;
    this.rateLimitedUntil = 0;
    clearTimeout(this.pauseTimer);
    this.pauseTimer = undefined;
    this.set(undefined);
  }

  private set(reason: string | undefined): void {
    if (this.reason === reason) return;
    this.reason = reason;
    this.changed.fire();
  }

  private reportOnce(key: string, kind: 'authentication' | 'configuration' | 'permission' | 'rateLimit', message: string): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.problem.fire(describeProblem(kind, message));
  }
}
