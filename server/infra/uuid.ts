const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A UUID in its text form (any version, any letter case): safe to compare with a uuid column. */
export function isUuid(value: string): boolean {
  return UUID.test(value)
}
