/**
 * The vocabulary (src/vocabulary.ts): each condition worded once, numbers from the constants, the error
 * buttons mapped to their commands in one place, and the reasons the poller hands over as data worded by
 * the task store.
 */
import * as assert from 'assert';
import { LIMITS } from '../../src/api/requests';
import { PLATFORM_BODY_LIMIT_BYTES } from '../../src/api/uploads';
import { Commands } from '../../src/constants';
import { commandOfAction, describeProblem } from '../../src/errors';
import { formatBytes } from '../../src/format';
import type { TrackedTask } from '../../src/tasks/model';
import {
  Actions,
  type RateLimitScope,
  attachableFiles,
  endReason,
  fileTooLarge,
  promptTooLong,
  rateLimitPause,
  tooManyAttachments,
  tooManyUploads,
} from '../../src/vocabulary';
import { useExtensionWithEmulator } from './helpers';

describe('vocabulary', () => {
  const ctx = useExtensionWithEmulator();

  it('takes every size and count from the one constant', () => {
    const limit = formatBytes(LIMITS.maxUploadBytes);
    for (const use of ['send', 'upload'] as const) {
      const sentence = fileTooLarge('big.bin', LIMITS.maxUploadBytes + 1, use);
      assert.ok(sentence.includes(`up to ${limit}`), sentence);
      assert.match(sentence, /^big\.bin is 10\.0 MB/);
    }
    // An attachment goes in one request, which the platform caps (PLATFORM_BODY_LIMIT_BYTES).
    const attachLimit = `${PLATFORM_BODY_LIMIT_BYTES / 1e6} MB (${PLATFORM_BODY_LIMIT_BYTES.toLocaleString('en-US')} bytes)`;
    assert.ok(fileTooLarge('big.bin', LIMITS.maxUploadBytes + 1, 'attach').includes(`up to ${attachLimit}`));
    assert.ok(attachableFiles(1).includes(attachLimit) && attachableFiles(3).includes(attachLimit));
    assert.match(tooManyAttachments(4, 2), new RegExp(`^At most ${LIMITS.maxAttachments} files`));
    assert.match(tooManyUploads(), new RegExp(`^At most ${LIMITS.maxAttachments} attachments`));
    for (const context of ['instruction', 'selection', 'offerAttachment', 'chat', 'toolInput'] as const) {
      assert.ok(promptTooLong(12_345, context).includes(LIMITS.promptMaxChars.toLocaleString('en-US')), context);
    }
  });

  it('words a rate limit by its scope, the plan limit included', () => {
    const until = Date.now() + 60_000;
    const scopes: RateLimitScope[] = ['hourly', 'monthly', 'capacity', 'plan', 'unknown'];
    const pauses = scopes.map(scope => rateLimitPause(scope, until));
    assert.strictEqual(new Set(pauses).size, scopes.length, 'one sentence per scope');
    for (const pause of pauses) assert.ok(pause.includes(new Date(until).toLocaleTimeString()), pause);
    assert.match(describeProblem('rateLimit', 'Slow down', { retryAfterMs: 1500 }).message, /rate limit is reached: Slow down\. Try again in 2 s/);
    const plan = describeProblem('rateLimit', 'User rate limit exceeded', { scope: 'plan' });
    assert.strictEqual(plan.severity, 'warning');
    assert.match(plan.message, /plan's limit on new tasks.*will not help/);
    // Without the scope given, the service's verbatim text says it.
    assert.match(describeProblem('rateLimit', 'User rate limit exceeded').message, /plan's limit on new tasks.*resets at the full hour/);
  });

  it('maps each error button to its command in one place', () => {
    assert.deepStrictEqual(commandOfAction(Actions.setApiKey()), { title: 'Set API Key', command: Commands.setApiKey });
    assert.deepStrictEqual(commandOfAction(Actions.showLog()), { title: 'Show Log', command: Commands.showLog });
    assert.deepStrictEqual(commandOfAction(Actions.openSettings()), { title: 'Open Settings', command: 'workbench.action.openSettings', arguments: ['multiAgent'] });
    assert.deepStrictEqual(commandOfAction(Actions.selectModel()), { title: 'Select Model', command: Commands.selectModel });
    assert.strictEqual(commandOfAction('Something Else'), undefined);
    assert.strictEqual(commandOfAction(undefined), undefined);
  });

  it('the task store words the reasons the poller hands over as data; the service\'s own words come first', async () => {
    const now = Date.now();
    const add = async (id: string) => {
      const task: TrackedTask = { id, title: id, instruction: id, promptChars: 1, submittedAt: now, updatedAt: now, status: 'processing' };
      await ctx.api.store.add(task);
      ctx.api.poller.forget(id);
    };
    const errorOf = (id: string) => ctx.api.store.get(id)?.error;
    await add('task_v1');
    await ctx.api.store.finish('task_v1', { status: 'failed', reason: { kind: 'unknownTask', detail: 'Not found' } });
    // The service's words may name the raw task id: the sentence says what happened without them (issue 20).
    assert.strictEqual(errorOf('task_v1'), 'The service no longer knows this task: it was lost or removed there.');
    await add('task_v2');
    await ctx.api.store.finish('task_v2', { status: 'failed', error: 'Out of budget', reason: { kind: 'statusKeepsFailing', detail: 'x' } });
    assert.strictEqual(errorOf('task_v2'), 'Out of budget');
    await add('task_v3');
    await ctx.api.store.finish('task_v3', { status: 'completed' });
    assert.strictEqual(errorOf('task_v3'), endReason({ kind: 'noResult' }));
    await add('task_v4');
    await ctx.api.store.finish('task_v4', { status: 'failed' });
    assert.strictEqual(errorOf('task_v4'), 'The task failed on the service.');
    await add('task_v5');
    await ctx.api.store.finish('task_v5', { status: 'completed', reason: { kind: 'resultTooLarge' } });
    assert.match(errorOf('task_v5') ?? '', /too large to download inline/);
  });
});
