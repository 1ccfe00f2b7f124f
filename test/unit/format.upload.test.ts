// Issue 35: the upload toast counted the request body (the file wrapped in a form), not the user's file.
import * as assert from 'node:assert/strict';
import { fileBytesSent } from '../../src/format';

describe('issue 35: an upload\'s progress counts the file\'s bytes', () => {
  const file = 200 * 1024;
  const body = file + 5 * 1024; // the form's headers and boundaries around it

  it('the whole body sent is the whole file, never more', () => {
    assert.equal(fileBytesSent(body, body, file), file);
  });

  it('half the body is half the file; without a known total, the bytes sent up to the file\'s size', () => {
    assert.equal(fileBytesSent(body / 2, body, file), file / 2);
    assert.equal(fileBytesSent(body, undefined, file), file);
    assert.equal(fileBytesSent(1000, undefined, file), 1000);
  });
});
