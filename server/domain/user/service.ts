import type { Kysely } from 'kysely'
import type { User, UserData, UserDataPatch } from '../../../contract/user.ts'
import type { DB } from '../../infra/db/schema.ts'
import { supportedCountries } from '../kyc/repository.ts'
import { isKnownCountry } from '../location/countries.ts'
import type { Owner } from './repository.ts'
import * as repo from './repository.ts'
import { checkUserDataPatch, countryAccepted, type FieldError } from './rules.ts'

export class UserNotFoundError extends Error {
  constructor() {
    super('USER_NOT_FOUND')
    this.name = 'UserNotFoundError'
  }
}

/** A profile change broke the rules of rules.ts; `errors` names every bad field. */
export class UserDataInvalidError extends Error {
  constructor(readonly errors: FieldError[]) {
    super('VALIDATION_FAILED')
    this.name = 'UserDataInvalidError'
  }
}

/**
 * The address is in a country the tenant does not serve (and not the one
 * already saved): the same refusal as a KYC submission's (kyc/routes.ts).
 */
export class UserCountryNotSupportedError extends Error {
  constructor(
    readonly country: string,
    readonly supported: readonly string[],
  ) {
    super('COUNTRY_NOT_SUPPORTED')
    this.name = 'UserCountryNotSupportedError'
  }
}

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
   * @throws UserNotFoundError
   */
  async getUser(owner: Owner, known?: repo.UserRow | null): Promise<User> {
    const row = known ?? (await repo.findUser(this.db, owner))
    if (!row) throw new UserNotFoundError()
    return { ...row, created_at: row.created_at.toISOString() }
  }

  /** @throws UserNotFoundError */
  async getUserData(owner: Owner): Promise<UserData> {
    const row = await repo.findUserData(this.db, owner)
    if (!row) throw new UserNotFoundError()
    return toUserData(row)
  }

  /**
   * Changes only the fields sent (null clears one) and answers the whole
   * profile as it now is. The tenant's country list is checked only once the
   * body passes its rules, so a form's field mistakes all come in one answer.
   * @throws UserDataInvalidError, UserCountryNotSupportedError, UserNotFoundError
   */
  async updateUserData(owner: Owner, patch: UserDataPatch): Promise<UserData> {
    const now = this.clock()
    // Ages are reckoned on the UTC date: the server does not know the person's zone.
    const verdict = checkUserDataPatch(patch, {
      today: now.toISOString().slice(0, 10),
      isKnownCountry,
    })
    if (!verdict.ok) throw new UserDataInvalidError(verdict.errors)
    return this.db.transaction().execute(async (trx) => {
      const country = verdict.changes.address?.country
      if (country) {
        const supported = await supportedCountries(trx, owner.tenantId)
        const saved = await repo.lockSavedCountry(trx, owner)
        if (!countryAccepted(country, supported, saved)) {
          throw new UserCountryNotSupportedError(country, supported ?? [])
        }
      }
      const row = await repo.updateUserData(trx, owner, verdict.changes, now)
      if (!row) throw new UserNotFoundError()
      return toUserData(row)
    })
  }
}
