// Text helpers of the sample workspace. `npm test` runs their tests (test/text.test.js) with node --test.
'use strict';

/** The words of a text, split at any white space. */
function words(text) {
  return text.split(/\s+/).filter(Boolean);
}

/** The text cut to at most `max` characters, ending with an ellipsis (…) when something was cut. */
function truncate(text, max) {
  if (text.length <= max) {
    return text;
  }
  return `${text.slice(0, max - 1)}…`;
}

module.exports = { words, truncate };
