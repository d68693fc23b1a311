/** At most `limit` tasks run at once; the rest wait in arrival order. */
export class Limiter {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    if (this.running < this.limit) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const start = () => {
        signal?.removeEventListener("abort", abandon);
        this.running++;
        resolve();
      };
      const abandon = () => {
        const index = this.waiting.indexOf(start);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(signal?.reason ?? new Error("aborted"));
      };
      if (signal?.aborted) return abandon();
      signal?.addEventListener("abort", abandon, { once: true });
      this.waiting.push(start);
    });
  }

  private release(): void {
    this.running--;
    this.waiting.shift()?.();
  }
}
