/**
 * The CPU PostgreSQL itself spends on a load — every process of the cluster:
 * the backends serving it and the cluster's own workers — read from Linux's
 * /proc. A backend lives as long as its connection (pgbench's end with its
 * run), so the processes are sampled while the load runs and each counts what
 * it used since the load began, or since it started: one that ends loses at
 * most its last SAMPLE_MS.
 */
import { readdirSync, readFileSync } from 'node:fs'

const SAMPLE_MS = 50

/** Clock ticks a second of /proc/<pid>/stat's times: 100 on every Linux that matters here. */
const TICK_MS = 10

/** utime + stime of every process whose command is PostgreSQL's, by pid, in ms. */
function postgresProcesses(): Map<number, number> {
  const used = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')[0] ?? ''
      if (!/(^|\/)postgres(:|$)/.test(command)) continue
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // The fields after the command's name, which may hold spaces: state is the first.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      used.set(Number(entry), (Number(fields[11]) + Number(fields[12])) * TICK_MS)
    } catch {
      // Ended between the listing and the read: what it used was counted at the last sample.
    }
  }
  return used
}

/** `work`'s answer, and the ms of CPU PostgreSQL spent meanwhile (undefined without /proc). */
export async function postgresCpuDuring<T>(
  work: () => Promise<T>,
): Promise<{ result: T; cpuMs: number | undefined }> {
  let before: Map<number, number>
  try {
    before = postgresProcesses()
  } catch {
    return { result: await work(), cpuMs: undefined }
  }
  const last = new Map(before)
  const sample = () => {
    for (const [pid, ms] of postgresProcesses()) last.set(pid, ms)
  }
  const sampler = setInterval(sample, SAMPLE_MS)
  try {
    const result = await work()
    sample()
    let cpuMs = 0
    for (const [pid, ms] of last) cpuMs += ms - (before.get(pid) ?? 0)
    return { result, cpuMs }
  } finally {
    clearInterval(sampler)
  }
}
