/**
 * The result view's page script (views/pages/resultPageScript.ts) is JavaScript assembled from text: it must
 * parse, run its clicks and ticks in a page, and read durations as the extension does.
 */
import * as assert from 'assert';
import { formatDuration } from '../../src/format';
import { resultPageScript } from '../../src/views/pages/resultPageScript';

describe('the result page script', () => {
  it('parses as one script, with the task id kept inert', () => {
    const script = resultPageScript('</script><script>alert(1)</script>');
    assert.doesNotThrow(() => new Function(script));
    assert.ok(!script.includes('</script>'), 'no closing tag from a task id');
  });

  it('runs in a page: a click on an offer posts it with the task id, and the running time ticks in the extension\'s words', () => {
    const posted: unknown[] = [];
    const listeners: Record<string, ((e: unknown) => void)[]> = {};
    const elapsed = { dataset: { running: 'true', start: String(Date.now() - 75_000) }, textContent: '' };
    const offer = { getAttribute: (name: string) => (name === 'data-offer' ? 'review' : null) };
    const page = {
      acquireVsCodeApi: () => ({ postMessage: (m: unknown) => posted.push(m), getState: () => undefined, setState: () => undefined }),
      document: {
        addEventListener: (type: string, fn: (e: unknown) => void) => (listeners[type] ??= []).push(fn),
        getElementById: (id: string) => (id === 'elapsed' ? elapsed : null),
        querySelectorAll: () => [],
      },
      window: { addEventListener: () => undefined, scrollY: 0, scrollTo: () => undefined },
      Element: class {},
      setTimeout: () => 0,
      requestAnimationFrame: () => 0,
    };
    class Clicked extends page.Element {
      closest() {
        return offer;
      }
    }
    page.Element = Clicked;
    new Function(...Object.keys(page), resultPageScript('task-7'))(...Object.values(page));
    assert.strictEqual(elapsed.textContent, formatDuration(75_000));
    listeners.click[0]({ target: new Clicked(), preventDefault: () => undefined });
    assert.deepStrictEqual(posted, [{ type: 'offer', offer: 'review', taskId: 'task-7' }]);
  });
});
