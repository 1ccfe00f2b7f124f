/**
 * The one way a store pages a service list: the first page read on demand and cached until `reset()` (a
 * failed read is not cached), more pages appended on request without repeating an item, and one rule for
 * whether more may follow. Pure (no vscode): unit-tested in Node.
 */

/** One page as the service answered it: the items, and `hasMore` or `total` when it says so. */
export interface Page<T> {
  items: T[];
  hasMore?: boolean;
  total?: number;
}

/** Everything read so far. */
export interface Pages<T> {
  items: T[];
  hasMore: boolean;
}

export class PagedList<T> {
  private pages: Promise<Pages<T>> | undefined;
  /** Bumped by reset(): a page that arrives after it is dropped. */
  private generation = 0;

  constructor(
    private readonly pageSize: number,
    private readonly read: (request: { limit: number; offset: number }) => Promise<Page<T>>,
    private readonly idOf: (item: T) => string,
  ) {}

  /** Forgets what was read; the next `first()` asks the service again. */
  reset(): void {
    this.generation++;
    this.pages = undefined;
  }

  /**
   * Forgets what was read, and reads again as many items as were shown (at least a page): a new item at the
   * top (a task's new thread) does not fold back what the user loaded with "Load more…".
   */
  reload(): void {
    const shown = this.pages;
    this.reset();
    if (!shown) return;
    const generation = this.generation;
    const pending = shown
      .catch(() => undefined)
      .then(known => this.read({ limit: Math.max(this.pageSize, known?.items.length ?? 0), offset: 0 }))
      .then(page => this.join([], page));
    this.pages = pending;
    pending.catch(() => {
      if (this.pages === pending && this.generation === generation) this.pages = undefined;
    });
  }

  /** The pages read so far, reading the first one when none is. */
  first(): Promise<Pages<T>> {
    if (!this.pages) {
      const pending = this.read({ limit: this.pageSize, offset: 0 }).then(page => this.join([], page));
      this.pages = pending;
      pending.catch(() => {
        if (this.pages === pending) this.pages = undefined;
      });
    }
    return this.pages;
  }

  /** The pages read so far without reading anything; undefined when none is (or the read failed). */
  async known(): Promise<Pages<T> | undefined> {
    return this.pages?.catch(() => undefined);
  }

  /** Reads the next page; false when there is none to read, or the list was reset meanwhile. */
  async more(): Promise<boolean> {
    const current = await this.known();
    if (!current?.hasMore) return false;
    const generation = this.generation;
    const page = await this.read({ limit: this.pageSize, offset: current.items.length });
    if (generation !== this.generation) return false;
    this.pages = Promise.resolve(this.join(current.items, page));
    return true;
  }

  /**
   * Appends the page's new items. More may follow when the page brought something new and the service says
   * so (`hasMore`), or has not reached its `total`, or (saying neither) sent a full page. A page with nothing
   * new ends the list: the live service ignores paging for threads and answers the newest 20 every time.
   */
  private join(known: T[], page: Page<T>): Pages<T> {
    const seen = new Set(known.map(this.idOf));
    const fresh = page.items.filter(item => !seen.has(this.idOf(item)));
    const items = [...known, ...fresh];
    const hasMore = fresh.length > 0 && (page.hasMore ?? (page.total !== undefined ? items.length < page.total : fresh.length >= this.pageSize));
    return { items, hasMore };
  }
}
