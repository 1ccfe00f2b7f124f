// Issue 28 item 3: the thread, file and model stores follow a new key and a new service address by themselves
// (stores/follow.ts), not through the composition root.
import * as assert from 'assert';
import { SECOND_API_KEY } from '../emulator/server';
import { setSetting, useExtensionWithEmulator, waitFor } from './helpers';

describe('stores follow their own inputs', () => {
  const ctx = useExtensionWithEmulator();
  /** GETs of a list (`/threads`, `/files`), whatever their query. */
  const reads = (list: string) => ctx.emulator.requests.filter(r => r.method === 'GET' && new RegExp(`${list}(\\?|$)`).test(r.path)).length;

  it('a new API key makes the thread and file stores read again; the model catalog keeps its list', async () => {
    const { threads, files, models } = ctx.api;
    await Promise.all([threads.list(), files.list(), models.list()]);
    const before = { threads: reads('/threads'), files: reads('/files') };
    await Promise.all([threads.list(), files.list()]);
    assert.deepStrictEqual({ threads: reads('/threads'), files: reads('/files') }, before, 'read once, then cached');

    const fired = { threads: 0, files: 0 };
    const subs = [threads.onDidChange(() => fired.threads++), files.onDidChange(() => fired.files++)];
    try {
      await ctx.api.keys.setApiKey(SECOND_API_KEY);
      await waitFor(() => fired.threads > 0 && fired.files > 0, 'both stores to say their lists changed');
      await Promise.all([threads.list(), files.list()]);
      assert.deepStrictEqual({ threads: reads('/threads'), files: reads('/files') }, { threads: before.threads + 1, files: before.files + 1 }, 'the new account is read');
      assert.ok(models.loaded, 'the catalog does not depend on the account');
    } finally {
      subs.forEach(s => s.dispose());
      await ctx.api.keys.setApiKey(ctx.emulator.apiKey);
    }
  });

  it('a new service address makes the model catalog forget its list and the thread store read again', async () => {
    const { threads, models } = ctx.api;
    await Promise.all([threads.list(), models.list()]);
    assert.ok(models.loaded);
    const listed = reads('/threads');
    await setSetting('baseUrl', ctx.emulator.legacyBaseUrl);
    try {
      await waitFor(() => !models.loaded, 'the catalog to forget the other service’s models');
      assert.deepStrictEqual(await threads.list(), { kind: 'unavailable' }, 'the earlier form: no threads, nothing asked');
    } finally {
      await setSetting('baseUrl', ctx.emulator.baseUrl);
    }
    await waitFor(async () => (await threads.list()).kind === 'loaded', 'the threads of the service back again');
    assert.strictEqual(reads('/threads'), listed + 1, 'read again after the address came back');
  });
});
