import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'

export const ROOT = join(import.meta.dirname, '..')

/** Starts the real server entry (apps/server/src/main.ts) in its own process. */
export async function startServer(
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<{ port: number; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', join(ROOT, 'apps/server/src/main.ts')],
    {
      cwd: ROOT,
      // An empty value unsets the variable (e.g. DATABASE_URL: '' runs the embedded default).
      env: Object.fromEntries(
        // The benches send no customer's mail: the file outbox is asked for (start refuses it
        // otherwise against the real platform, mail-route.ts).
        Object.entries({
          ...process.env,
          PORT: '0',
          LOG_LEVEL: 'warn',
          MAIL_FILE_OUTBOX: 'true',
          ...env,
        }).filter(([, v]) => v !== ''),
      ),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let output = ''
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 120_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = output.match(/http:\/\/127\.0\.0\.1:(\d+)/)
      if (match) {
        clearTimeout(timer)
        // The output is still read (a full pipe would stop the server) but no longer kept.
        output = ''
        child.stdout!.off('data', onData).resume()
        child.stderr!.off('data', onData).resume()
        resolve(Number(match[1]))
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)))
  })
  return {
    port,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}
