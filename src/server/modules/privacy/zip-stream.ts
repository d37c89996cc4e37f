import { setImmediate as nextTurn } from 'node:timers/promises';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { ExportEntry } from './export-format.js';

/** Deflate input is handed over this much at a time, with a turn of the event loop in between. */
const ZIP_CHUNK_BYTES = 64 * 1024;

/**
 * The ZIP of `entries` as a stream of chunks (decision 0308): fflate's streaming `Zip`, the JSON, CSV and
 * text files deflated (`ZipDeflate`, level 6) a chunk at a time, attachments stored as they are
 * (`ZipPassThrough`: already compressed images and PDFs) chunk by chunk from their file. The consumer
 * pulls: the next entry is not read until what came before has been taken (written to the file), and
 * every chunk gives the event loop a turn, so other requests are served while an export is built.
 */
export async function* zipStream(entries: AsyncIterable<ExportEntry>, mtime: Date): AsyncGenerator<Uint8Array> {
  const ready: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((err, chunk) => {
    if (err) failure ??= err;
    else if (chunk.length > 0) ready.push(chunk);
  });
  function* take(): Generator<Uint8Array> {
    if (failure) throw failure;
    while (ready.length > 0) yield ready.shift()!;
  }
  for await (const entry of entries) {
    if ('data' in entry) {
      const file = new ZipDeflate(entry.name, { level: 6 });
      file.mtime = mtime;
      zip.add(file);
      let at = 0;
      do {
        const end = Math.min(at + ZIP_CHUNK_BYTES, entry.data.length);
        file.push(entry.data.subarray(at, end), end === entry.data.length);
        at = end;
        yield* take();
        await nextTurn();
      } while (at < entry.data.length);
    } else {
      const file = new ZipPassThrough(entry.name);
      file.mtime = mtime;
      zip.add(file);
      for await (const chunk of entry.stream) {
        file.push(chunk as Uint8Array);
        yield* take();
      }
      file.push(new Uint8Array(0), true);
      yield* take();
    }
  }
  zip.end();
  yield* take();
}
