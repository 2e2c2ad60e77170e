/**
 * Whose records a use case reads or writes: a signed-in person within their
 * tenant (request.auth carries it; an API key's calls carry its owner's).
 * Every repository scopes its rows by both ids.
 */
export interface Owner {
  tenantId: string
  userId: string
}

/** The signed-in session of an owner (a contact change, a sign-out of the others). */
export interface OwnerSession extends Owner {
  sessionId: string
}
