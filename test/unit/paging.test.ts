import * as assert from 'node:assert/strict';
import { type Page, PagedList } from '../../src/stores/paging';

/** A service list of `count` items, answering pages as `answer` says; records every request. */
function service(count: number, answer: (items: string[], request: { limit: number; offset: number }) => Page<string>) {
  const all = Array.from({ length: count }, (_, i) => `item${i}`);
  const requests: { limit: number; offset: number }[] = [];
  const read = async (request: { limit: number; offset: number }) => {
    requests.push(request);
    return answer(all, request);
  };
  return { read, requests };
}

describe('paging: one way to page a service list', () => {
  it('reads the first page once, then the next ones on request, until the total', async () => {
    const s = service(25, (all, r) => ({ items: all.slice(r.offset, r.offset + r.limit), total: all.length }));
    const list = new PagedList(10, s.read, id => id);
    assert.equal((await list.first()).items.length, 10);
    assert.equal((await list.first()).hasMore, true);
    assert.equal(s.requests.length, 1, 'the first page is cached');
    assert.equal(await list.more(), true);
    assert.equal(await list.more(), true);
    const all = await list.first();
    assert.deepEqual([all.items.length, all.hasMore], [25, false]);
    assert.equal(await list.more(), false, 'nothing more is asked once the total is reached');
    assert.deepEqual(s.requests.map(r => r.offset), [0, 10, 20]);
  });

  it('reload reads again as many items as were shown, so a new item at the top folds nothing back', async () => {
    const s = service(35, (all, r) => ({ items: all.slice(r.offset, r.offset + r.limit), total: all.length }));
    const list = new PagedList(10, s.read, id => id);
    await list.first();
    await list.more();
    await list.more();
    list.reload();
    const again = await list.first();
    assert.deepEqual([again.items.length, again.hasMore], [30, true]);
    assert.deepEqual(s.requests.at(-1), { limit: 30, offset: 0 });
    const fresh = new PagedList(10, s.read, id => id);
    fresh.reload();
    assert.equal((await fresh.first()).items.length, 10, 'nothing shown yet: the first page as usual');
  });

  it('without a total or a flag, a full page means there may be more', async () => {
    const s = service(20, (all, r) => ({ items: all.slice(r.offset, r.offset + r.limit) }));
    const list = new PagedList(10, s.read, id => id);
    await list.first();
    assert.equal(await list.more(), true);
    assert.equal((await list.first()).hasMore, true, 'the second page was full too');
    assert.equal(await list.more(), true);
    assert.deepEqual([(await list.first()).items.length, (await list.first()).hasMore], [20, false]);
  });

  it('a page with nothing new ends the list, whatever the service says (it may ignore paging)', async () => {
    const s = service(20, all => ({ items: all.slice(0, 20), hasMore: true }));
    const list = new PagedList(20, s.read, id => id);
    assert.equal((await list.first()).hasMore, true);
    assert.equal(await list.more(), true);
    const pages = await list.first();
    assert.deepEqual([pages.items.length, pages.hasMore], [20, false], 'no item twice, and no endless "Load more"');
  });

  it('does not cache a failed read, and drops a page that arrives after a reset', async () => {
    let fail = true;
    let release: (() => void) | undefined;
    const s = service(30, (all, r) => ({ items: all.slice(r.offset, r.offset + r.limit), total: all.length }));
    const list = new PagedList(
      10,
      async request => {
        if (fail) throw new Error('offline');
        if (request.offset > 0) await new Promise<void>(resolve => (release = resolve));
        return s.read(request);
      },
      id => id,
    );
    await assert.rejects(list.first(), /offline/);
    assert.equal(await list.known(), undefined);
    fail = false;
    assert.equal((await list.first()).items.length, 10, 'read again after the failure');
    const more = list.more();
    await new Promise(resolve => setImmediate(resolve));
    list.reset();
    release?.();
    assert.equal(await more, false, 'the page read before the reset is dropped');
    assert.equal(await list.known(), undefined);
  });
});
