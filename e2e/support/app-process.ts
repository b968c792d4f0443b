import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'

export const ROOT = join(import.meta.dirname, '../..')

export type RunningApp = {
  url: string
  output: () => string
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>
  /**
   * Ctrl-C, as in a terminal: SIGINT to the whole process group. Resolves when npm has
   * exited (npm itself ends by the signal, so its exit code says nothing about the app).
   */
  interrupt: () => Promise<void>
  child: ChildProcess
}

/**
 * Runs `npm start` the way a new user does, in its own process group, with only the data
 * folder and ports chosen (no DATABASE_URL: the embedded default is what is under test).
 */
export async function startApp(
  dataDir: string,
  timeoutMs = 240_000,
  /** More settings, as a user would export them (SENTRY_DSN_WEB, say). */
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<RunningApp> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...extraEnv,
    DATA_DIR: dataDir,
    PORT: '0',
    EMULATOR_PORT: '0',
    LOG_LEVEL: 'warn',
  }
  delete env.DATABASE_URL
  delete env.DEMO_SECRET
  delete env.SHOPIFY_API_KEY
  delete env.SHOPIFY_API_SECRET
  const child = spawn('npm', ['start'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const listeners = new Set<() => void>()
  const collect = (chunk: Buffer) => {
    output += chunk.toString()
    for (const listener of listeners) listener()
  }
  child.stdout!.on('data', collect)
  child.stderr!.on('data', collect)
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))

  const waitFor = (pattern: RegExp, ms = timeoutMs) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = output.match(pattern)
        if (match) {
          listeners.delete(check)
          clearTimeout(timer)
          resolve(match)
        }
      }
      const timer = setTimeout(() => {
        listeners.delete(check)
        reject(new Error(`timed out waiting for ${pattern}; output so far:\n${output}`))
      }, ms)
      listeners.add(check)
      void exited.then((code) => {
        if (listeners.has(check)) reject(new Error(`app exited (${code}) before ${pattern}:\n${output}`))
      })
      check()
    })

  const [url] = await waitFor(/http:\/\/127\.0\.0\.1:\d+\/\?shop=[^\s]+/)
  return {
    url,
    output: () => output,
    waitFor,
    child,
    interrupt: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      try {
        process.kill(-child.pid!, 'SIGINT')
      } catch {
        return // the group is already gone
      }
      await exited
    },
  }
}
