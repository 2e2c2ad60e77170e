/** How the app writes a stored phone: the server keeps digits only (SPEC.md §3). */
export const displayPhone = (digits: string) => `+${digits}`
