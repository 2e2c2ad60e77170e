import type { Kysely } from 'kysely'
import type { User, UserData } from '../../../contract/user.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Owner } from './repository.ts'
import * as repo from './repository.ts'

export class UserNotFoundError extends Error {
  constructor() {
    super('USER_NOT_FOUND')
    this.name = 'UserNotFoundError'
  }
}

export class UserService {
  constructor(private readonly db: Kysely<DB>) {}

  /** @throws UserNotFoundError */
  async getUser(owner: Owner): Promise<User> {
    const row = await repo.findUser(this.db, owner)
    if (!row) throw new UserNotFoundError()
    return { ...row, created_at: row.created_at.toISOString() }
  }

  /** @throws UserNotFoundError */
  async getUserData(owner: Owner): Promise<UserData> {
    const row = await repo.findUserData(this.db, owner)
    if (!row) throw new UserNotFoundError()
    return { ...row, updated_at: row.updated_at.toISOString() }
  }
}
