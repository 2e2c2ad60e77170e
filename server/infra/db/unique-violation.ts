/** The error is a unique violation of the named constraint or index (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const {
    code,
    constraint: name,
    message,
  } = (error ?? {}) as {
    code?: string
    constraint?: string
    message?: string
  }
  // node-postgres names the constraint; PGlite only puts it in the message.
  return code === '23505' && (name === constraint || Boolean(message?.includes(constraint)))
}
