/** A minimal Server-Sent Events reader: yields the `data` of each event, joined across `data:` lines. */
import type { Readable } from 'node:stream';

/** `onChunk` is called for every chunk, comments (keep-alives) included: a sign of life. */
export async function* sseData(stream: Readable, onChunk?: () => void): AsyncGenerator<string> {
  let buffer = '';
  let data: string[] = [];
  stream.setEncoding('utf8');
  for await (const chunk of stream as AsyncIterable<string>) {
    onChunk?.();
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (data.length) yield data.join('\n');
        data = [];
      } else if (line.startsWith('data:')) {
        data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      }
      // Comments (":"), event names, ids and retry hints carry nothing we use.
    }
  }
  if (data.length) yield data.join('\n');
}
