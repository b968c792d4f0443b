import { readdirSync, readFileSync } from 'node:fs'

/**
 * CPU ticks (1/100 s) used so far by the server process, the PostgreSQL processes (only those
 * serving `database` when given) and this process, from /proc: the CPU scripts read it around
 * a load run (bench/cpu-per-request.ts, bench/cpu-reports.ts).
 */
export function processTicks(serverPid: number | undefined, database?: string) {
  const out = { server: 0, postgres: 0, loader: 0 }
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const used = Number(fields[11]) + Number(fields[12])
      if (Number(pid) === serverPid) out.server += used
      else if (Number(pid) === process.pid) out.loader += used
      else if (
        command.startsWith('postgres') &&
        (!database || readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(database))
      )
        out.postgres += used
    } catch {
      // the process ended between readdir and read
    }
  }
  return out
}
