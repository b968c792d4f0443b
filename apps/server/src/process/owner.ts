import { hostname } from 'node:os'
import { isAlive } from './runtime.ts'

/**
 * This process as the owner of what it claims in the database (a billing run, a mail it is
 * sending): `host:pid`. Another process on the same host can tell at once that the owner is
 * gone; owners on other hosts are judged by how old their claim is.
 */
export const PROCESS_OWNER = `${hostname()}:${process.pid}`

/**
 * The owners among `owners` whose process is gone: on this host, a pid that no longer runs.
 * `atStart`: this process's own pid counts too (a restarted container often gets the pid its
 * killed predecessor had, and a process that has just started owns nothing yet).
 */
export function deadOwners(owners: readonly string[], opts: { atStart: boolean }): string[] {
  const host = hostname()
  return owners.filter((owner) => {
    const at = owner.lastIndexOf(':')
    if (at < 0 || owner.slice(0, at) !== host) return false
    const pid = Number(owner.slice(at + 1))
    if (pid === process.pid) return opts.atStart
    return !isAlive(pid)
  })
}
