/**
 * Collects a stream's bytes up to a cap, keeping the beginning and the end: the middle of longer
 * output is dropped and counted, so a long build log still shows how it started and how it failed.
 */
export class CappedOutput {
  readonly #head: Buffer[] = [];
  #headBytes = 0;
  #tail: Buffer[] = [];
  #tailBytes = 0;
  #dropped = 0;

  constructor(readonly capBytes: number) {}

  /** Adds a chunk. */
  push(chunk: Buffer): void {
    const headRoom = Math.ceil(this.capBytes / 2) - this.#headBytes;
    if (headRoom > 0) {
      const head = chunk.subarray(0, headRoom);
      this.#head.push(head);
      this.#headBytes += head.length;
      chunk = chunk.subarray(head.length);
    }
    if (chunk.length === 0) return;
    this.#tail.push(chunk);
    this.#tailBytes += chunk.length;
    const tailCap = Math.floor(this.capBytes / 2);
    while (this.#tailBytes > tailCap) {
      const first = this.#tail[0];
      if (first === undefined) break;
      const excess = this.#tailBytes - tailCap;
      if (first.length <= excess) {
        this.#tail.shift();
        this.#tailBytes -= first.length;
        this.#dropped += first.length;
      } else {
        this.#tail[0] = first.subarray(excess);
        this.#tailBytes -= excess;
        this.#dropped += excess;
      }
    }
  }

  /** Bytes left out of the middle. */
  get droppedBytes(): number {
    return this.#dropped;
  }

  /** The kept text (UTF-8), with a line saying how much was cut when something was. */
  text(): string {
    const head = Buffer.concat(this.#head).toString('utf8');
    const tail = Buffer.concat(this.#tail).toString('utf8');
    if (this.#dropped === 0) return head + tail;
    return `${head}\n[… output truncated: ${this.#dropped} bytes dropped …]\n${tail}`;
  }
}
