/**
 * Suites that check what the whole run left behind (no key at rest after every other suite used it) run last,
 * whatever their file's name: `describeLast` marks them and index.ts's one root hook moves them to the end
 * before the first suite runs. A MOCHA_GREP run keeps the order among the suites it selects.
 */
const marked = new WeakSet<Mocha.Suite>();

export function describeLast(title: string, fn: (this: Mocha.Suite) => void): Mocha.Suite {
  const suite = describe(title, fn);
  marked.add(suite);
  return suite;
}

/** Moves the marked suites of `root` after the others, each group in its file order (mocha reads the array as it goes). */
export function runMarkedLast(root: Mocha.Suite): void {
  const last = root.suites.filter(s => marked.has(s));
  const first = root.suites.filter(s => !marked.has(s));
  root.suites.splice(0, root.suites.length, ...first, ...last);
}
