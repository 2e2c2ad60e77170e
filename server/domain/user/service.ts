import type { Kysely } from 'kysely'
import type { User, UserData, UserDataPatch } from '../../../contract/user.ts'
import type { DB } from '../../infra/db/schema.ts'
import { supportedCountries } from '../kyc/repository.ts'
import { isKnownCountry } from '../location/countries.ts'
import type { Owner } from '../owner.ts'
import { UserError } from './errors.ts'
import * as repo from './repository.ts'
import { checkUserDataPatch, countryAccepted } from './rules.ts'

type UserDataRow = NonNullable<Awaited<ReturnType<typeof repo.findUserData>>>

const toUserData = (row: UserDataRow): UserData => ({
  ...row,
  updated_at: row.updated_at.toISOString(),
})

export class UserService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * The user; `known` when the caller has the row already (the session check reads it).
   * @throws UserError USER_NOT_FOUND
   */
  async getUser(owner: Owner, known?: repo.UserRow | null): Promise<User> {
    const row = known ?? (await repo.findUser(this.db, owner))
    if (!row) throw new UserError({ kind: 'USER_NOT_FOUND' })
    return { ...row, created_at: row.created_at.toISOString() }
  }

  /** @throws UserError USER_NOT_FOUND */
  async getUserData(owner: Owner): Promise<UserData> {
    const row = await repo.findUserData(this.db, owner)
    if (!row) throw new UserError({ kind: 'USER_NOT_FOUND' })
    return toUserData(row)
  }

  /**
   * Changes only the fields sent (null clears one) and answers the whole
   * profile as it now is. The tenant's country list is checked only once the
   * body passes its rules, so a form's field mistakes all come in one answer.
   * @throws UserError USER_DATA_INVALID, COUNTRY_NOT_SUPPORTED, USER_NOT_FOUND
   */
  async updateUserData(owner: Owner, patch: UserDataPatch): Promise<UserData> {
    const now = this.clock()
    // Ages are reckoned on the UTC date: the server does not know the person's zone.
    const verdict = checkUserDataPatch(patch, {
      today: now.toISOString().slice(0, 10),
      isKnownCountry,
    })
    if (!verdict.ok) throw new UserError({ kind: 'USER_DATA_INVALID', errors: verdict.errors })
    return this.db.transaction().execute(async (trx) => {
      const country = verdict.changes.address?.country
      if (country) {
        const supported = await supportedCountries(trx, owner.tenantId)
        const saved = await repo.lockSavedCountry(trx, owner)
        if (!countryAccepted(country, supported, saved)) {
          throw new UserError({
            kind: 'COUNTRY_NOT_SUPPORTED',
            country,
            supported: supported ?? [],
          })
        }
      }
      const row = await repo.updateUserData(trx, owner, verdict.changes, now)
      if (!row) throw new UserError({ kind: 'USER_NOT_FOUND' })
      return toUserData(row)
    })
  }
}
