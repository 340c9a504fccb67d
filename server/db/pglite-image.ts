/**
 * A dump of a data dir (`dumpDataDir`) as the Blob PGlite's `loadDataDir` takes. PGlite reads it
 * back whole (`arrayBuffer()`), and Node 20's own Blob gives its bytes back in 64 kB pieces: 0.45 s
 * of CPU for the test harness's 42 MB image, at every test file's start. This one hands over the
 * bytes it holds. Only `arrayBuffer()` and `size` answer them, which is what PGlite reads: its
 * `stream()`, `text()` and `slice()` are an empty Blob's.
 */
export function imageBlob(bytes: Uint8Array<ArrayBuffer>): Blob {
  return new ImageBlob(bytes);
}

/** `bytes` on a buffer of their own: as they are when they span theirs, else a copy. */
export function ownBuffer(bytes: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  return bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}

class ImageBlob extends Blob {
  readonly #bytes: Uint8Array<ArrayBuffer>;

  constructor(bytes: Uint8Array<ArrayBuffer>) {
    super([]);
    this.#bytes = bytes;
    Object.defineProperty(this, 'size', { value: bytes.byteLength });
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(ownBuffer(this.#bytes).buffer);
  }
}
