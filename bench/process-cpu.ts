/**
 * The CPU each party to a load spends on it, read from Linux's /proc:
 * PostgreSQL (every process of the cluster: the backends serving the load and
 * the cluster's own workers), pgbench, the server under test (its process
 * group), and the bench's own client. A backend lives as long as its
 * connection (pgbench's end with its run), so the processes are sampled while
 * the load runs and each counts what it used since the load began, or since it
 * started: one that ends loses at most its last SAMPLE_MS.
 */
import { readdirSync, readFileSync } from 'node:fs'

const SAMPLE_MS = 50

/** Clock ticks a second of /proc/<pid>/stat's times: 100 on every Linux that matters here. */
const TICK_MS = 10

/** The parties whose CPU a load is charged with. */
export type Party = 'postgres' | 'pgbench' | 'server' | 'client'

/** Milliseconds of CPU by party. */
export type CpuMs = Record<Party, number>

/** Whose a process is: by its command, or by its process group (the server's). */
function partyOf(
  command: string,
  group: number,
  serverGroup: number | undefined,
): Party | undefined {
  if (/(^|\/)postgres(:|$)/.test(command)) return 'postgres'
  if (/(^|\/)pgbench$/.test(command)) return 'pgbench'
  if (serverGroup !== undefined && group === serverGroup) return 'server'
  return undefined
}

interface Sample {
  party: Party
  ms: number
}

/** utime + stime of every process of a party, by pid, in ms. */
function processes(serverGroup: number | undefined): Map<number, Sample> {
  const used = new Map<number, Sample>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')[0] ?? ''
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // The fields after the command's name, which may hold spaces: state is the first.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const party = partyOf(command, Number(fields[2]), serverGroup)
      if (party) {
        used.set(Number(entry), { party, ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS })
      }
    } catch {
      // Ended between the listing and the read: what it used was counted at the last sample.
    }
  }
  return used
}

/**
 * `work`'s answer, and the ms of CPU each party spent meanwhile (undefined
 * without /proc). `server` is the process group of the server under test; the
 * client is this process, which runs the load (and little else meanwhile).
 */
export async function cpuDuring<T>(
  work: () => Promise<T>,
  server?: number,
): Promise<{ result: T; cpuMs: CpuMs | undefined }> {
  let before: Map<number, Sample>
  try {
    before = processes(server)
  } catch {
    return { result: await work(), cpuMs: undefined }
  }
  const client = process.cpuUsage()
  const last = new Map(before)
  // What sampling costs this process is not the client's: it is kept apart.
  let samplingUs = 0
  const sample = () => {
    const started = process.cpuUsage()
    for (const [pid, used] of processes(server)) last.set(pid, used)
    const spent = process.cpuUsage(started)
    samplingUs += spent.user + spent.system
  }
  const sampler = setInterval(sample, SAMPLE_MS)
  try {
    const result = await work()
    sample()
    const own = process.cpuUsage(client)
    const clientMs = (own.user + own.system - samplingUs) / 1000
    const cpuMs: CpuMs = { postgres: 0, pgbench: 0, server: 0, client: clientMs }
    for (const [pid, { party, ms }] of last) cpuMs[party] += ms - (before.get(pid)?.ms ?? 0)
    return { result, cpuMs }
  } finally {
    clearInterval(sampler)
  }
}
