import type { Kysely, Transaction } from 'kysely'
import type { DB } from '../../infra/db/schema.ts'
import type { DefaultProgram } from './default-programs.ts'

type Executor = Kysely<DB> | Transaction<DB>

/** Adds the programs the tenant does not have yet (by id); existing ones stay as they are. */
export async function insertProgramsIfMissing(
  db: Executor,
  tenantId: string,
  programs: readonly (DefaultProgram & { id: string; sortOrder: number })[],
): Promise<void> {
  if (programs.length === 0) return
  await db
    .insertInto('card_programs')
    .values(
      programs.map((program) => ({
        id: program.id,
        tenant_id: tenantId,
        name: program.name,
        status: program.status,
        currency_uuid: program.currencyUuid,
        form_factors: JSON.stringify(program.formFactors),
        card_type: program.cardType,
        sub_account_type: program.subAccountType,
        bin: program.bin,
        fee_issue_minor: program.feeIssueMinor.toString(),
        fee_monthly_minor: program.feeMonthlyMinor.toString(),
        fee_top_up_percent: program.feeTopUpPercent,
        sort_order: program.sortOrder,
      })),
    )
    .onConflict((oc) => oc.column('id').doNothing())
    .execute()
}
