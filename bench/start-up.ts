/**
 * Start-up: `npm start` until GET /healthz answers, on a data directory that
 * exists (a restart: migrated, seeded), against the server as it was before
 * issue 15 (BENCH_START_BASELINE, a commit: its files from git, run the way
 * its own `npm start` ran them, on a data directory of its own), interleaved
 * round by round. The first start on a fresh data directory is shown too.
 */
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import {
  dataDir,
  goalRow,
  ROUNDS,
  type Row,
  run,
  skippedRow,
  startServer,
  valueRow,
} from './lib.ts'

/** The last commit before issue 15's work (docs/decisions.md, Issue 15). */
const BASELINE = process.env.BENCH_START_BASELINE ?? '95d949a'

/** The baseline's files in a directory of their own, sharing this checkout's packages and app. */
async function checkOut(commit: string): Promise<string | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-baseline-'))
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  try {
    await run('sh', ['-c', `git archive ${commit} | tar -x -C ${JSON.stringify(dir)}`])
  } catch {
    return undefined
  }
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'))
  if (existsSync('dist')) symlinkSync(resolve('dist'), join(dir, 'dist'))
  return dir
}

const npmStart = (cwd: string, directory: string) =>
  startServer({ dataDir: directory, executable: 'npm', command: ['start', '--silent'], cwd })

export async function measureStartUp(): Promise<Row[]> {
  const baseline = BASELINE === 'none' ? undefined : await checkOut(BASELINE)
  const ours = dataDir('start')
  const theirs = dataDir('start-baseline')
  const first = await npmStart(process.cwd(), ours)
  await first.stop()
  const rows: Row[] = [
    valueRow('npm start, fresh data directory, until /healthz', [first.startMs], 'ms', {
      goal: 'info',
    }),
  ]
  if (!baseline) {
    rows.push(skippedRow('npm start ÷ before issue 15', `no baseline commit ${BASELINE} here`))
  } else {
    await (await npmStart(baseline, theirs)).stop()
  }

  const now: number[] = []
  const before: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    if (baseline) {
      const server = await npmStart(baseline, theirs)
      before.push(server.startMs)
      await server.stop()
    }
    const server = await npmStart(process.cwd(), ours)
    now.push(server.startMs)
    await server.stop()
  }
  rows.push(
    valueRow('npm start, existing data directory, until /healthz', now, 'ms', {
      goal: 'see ratio',
    }),
  )
  if (baseline) {
    rows.push(
      valueRow(`the same before issue 15 (${BASELINE})`, before, 'ms', { goal: 'yardstick' }),
      goalRow(
        'ratio start-up now ÷ before issue 15',
        now.map((value, round) => value / before[round]!),
        { at: 'most', bound: 0.33 },
      ),
    )
  }
  return rows
}
