// The sample workspace's tests: `npm test` runs them with node --test (Node's own runner, nothing to install).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { words, truncate } = require('../src/text');

test('words splits a text at any white space', () => {
  assert.deepEqual(words(' one  two\tthree\n'), ['one', 'two', 'three']);
});

test('truncate keeps a short text as it is', () => {
  assert.equal(truncate('short', 10), 'short');
});

test('truncate keeps a text of exactly max characters', () => {
  assert.equal(truncate('exact', 5), 'exact');
});

test('truncate cuts a long text to max characters, the ellipsis included', () => {
  const cut = truncate('a rather long sentence', 10);
  assert.equal(cut, 'a rather …');
  assert.equal(cut.length, 10);
});
