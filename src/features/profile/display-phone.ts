/** How the app writes a stored phone: the server keeps digits only (docs/product.md §3). */
export const displayPhone = (digits: string) => `+${digits}`
