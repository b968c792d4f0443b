/**
 * Timers and in-flight work the emulator starts on its own (billing outcomes, bulk operations,
 * webhook deliveries and retries). Tracking them lets tests await `idle()` instead of sleeping,
 * and lets `close()` cancel what is still scheduled.
 */
export class Tasks {
  private readonly timers = new Set<NodeJS.Timeout>()
  private readonly running = new Set<Promise<unknown>>()
  private closed = false

  later(ms: number, fn: () => unknown): void {
    if (this.closed) return
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      this.run(fn)
    }, ms)
    // Long webhook back-offs must not keep a test process or a CLI exit waiting.
    timer.unref()
    this.timers.add(timer)
  }

  run(fn: () => unknown): void {
    try {
      const result = fn()
      if (result instanceof Promise) this.track(result)
    } catch (e) {
      console.error('emulator task failed', e)
    }
  }

  track(p: Promise<unknown>): void {
    const tracked = p
      .catch((e: unknown) => console.error('emulator task failed', e))
      .finally(() => this.running.delete(tracked))
    this.running.add(tracked)
  }

  get pending(): number {
    return this.timers.size + this.running.size
  }

  /** Resolves once nothing is scheduled or running (work may schedule more work; that is waited for too). */
  async idle(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs
    while (this.pending > 0) {
      if (Date.now() > deadline) throw new Error(`emulator still busy after ${timeoutMs} ms`)
      await Promise.race([...this.running, new Promise((r) => setTimeout(r, 2))])
    }
  }

  close(): void {
    this.closed = true
    for (const t of this.timers) clearTimeout(t)
    this.timers.clear()
  }
}
