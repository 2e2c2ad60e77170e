import type { FastifyInstance } from 'fastify'
import { type Kysely, sql } from 'kysely'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { Config } from '../../config.ts'
import type { DB } from '../../infra/db/schema.ts'
import { checkDemoPassword } from './demo-person.ts'
import { DEMO_EMAIL, DEMO_TIMELINE } from './demo-plan.ts'
import { type DemoDeps, DemoRunner } from './demo-runner.ts'
import { demoTime } from './demo-time.ts'

export { DEMO_EMAIL, DEMO_PERSON } from './demo-plan.ts'
export type { DemoDeps } from './demo-runner.ts'

/**
 * The demo user of the demo tenant and her five weeks (demo-plan.ts), played
 * through the use cases with each step's time as their clock. The times are
 * counted back from `now`; a run that finds the demo made already replays
 * every step into nothing, and one after a run that died finishes it.
 */
export async function seedDemo(
  deps: DemoDeps,
  now = new Date(),
): Promise<{ email: string; password: string }> {
  const { password } = deps.config.demo
  checkDemoPassword(password)
  const runner = new DemoRunner(deps)
  for (const step of DEMO_TIMELINE) await runner.play(step, demoTime(step.when, now))
  return { email: DEMO_EMAIL, password }
}

/** The demo's deps from the app: its database, job queue, services and the sandbox bank. */
export const demoDeps = (app: FastifyInstance, config: Config): DemoDeps => ({
  db: app.db,
  jobs: app.jobs,
  bank: app.providers.bank,
  services: app.services,
  config,
  log: app.log,
})

/**
 * What the demo seed is: bump it when seedDemo changes what it makes, and
 * every sandbox seeds once more at its next start (seedDemo converges, so
 * that only adds what is new). 2: the activity feed's demo (issue 14).
 * 3: the demo played through the use cases over five weeks (issue 27).
 */
export const DEMO_SEED_VERSION = 3

/**
 * Demos before version 3 were written around the use cases: their rows do not
 * converge with the use cases' (a deposit posted to the ledger straight is not
 * an order). Such a demo is retired — its user keeps everything under another
 * e-mail — and the demo is seeded anew under DEMO_EMAIL.
 */
const FIRST_PLAYED_VERSION = 3

async function retireOldDemo(db: Kysely<DB>) {
  await db
    .updateTable('users')
    .set({ email: sql<string>`'demo-retired-' || id::text || '@finplatform.local'` })
    .where('tenant_id', '=', DEMO_TENANT_ID)
    .where('email', '=', DEMO_EMAIL)
    .execute()
}

/**
 * The demo at start (sandbox only): seeded when the demo tenant has not had
 * this version of it whole yet, then marked. A later start reads the mark and
 * seeds nothing — the walk over every demo step is the work of a second or
 * two. A start that dies half-way leaves no mark, so the next one finishes
 * the job. The start banner prints its sign-in (server/banner.ts).
 */
export default async function demoSeed(app: FastifyInstance, opts: { config: Config }) {
  // A DEMO_PASSWORD the policy refuses stops the start, seeded or not.
  checkDemoPassword(opts.config.demo.password)
  const seeded = await app.db
    .selectFrom('demo_seeds')
    .select('version')
    .where('tenant_id', '=', DEMO_TENANT_ID)
    .executeTakeFirst()
  if (seeded?.version === DEMO_SEED_VERSION) return
  if (seeded && seeded.version < FIRST_PLAYED_VERSION) await retireOldDemo(app.db)
  await seedDemo(demoDeps(app, opts.config))
  await app.db
    .insertInto('demo_seeds')
    .values({ tenant_id: DEMO_TENANT_ID, version: DEMO_SEED_VERSION })
    .onConflict((oc) =>
      oc.column('tenant_id').doUpdateSet({ version: DEMO_SEED_VERSION, seeded_at: new Date() }),
    )
    .execute()
}
