import { readdirSync, readFileSync, readlinkSync } from 'node:fs'

/**
 * The TCP ports process `pid` listens on (Linux /proc): its socket inodes matched against the
 * kernel's TCP tables, state 0A (LISTEN). Other processes' listeners are not counted.
 */
export function tcpListenPorts(pid: number | 'self' = 'self'): number[] {
  const inodes = new Set<string>()
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))
      if (socket) inodes.add(socket[1]!)
    } catch {
      // closed meanwhile
    }
  }
  const ports = new Set<number>()
  for (const table of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/)
      if (cols[3] === '0A' && inodes.has(cols[9] ?? ''))
        ports.add(Number.parseInt(cols[1]!.split(':')[1]!, 16))
    }
  }
  return [...ports].sort((a, b) => a - b)
}
