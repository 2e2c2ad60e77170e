/**
 * A person's e-mail or phone as shown to whoever should recognise it but not
 * harvest it: a security alert, the person a transfer reaches. Kernel: the
 * codes (otp) that change a contact and the transfers that find one both mask.
 */

/** "ada@example.com" → "a***@example.com": enough to recognise, not to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@')
  if (at <= 0) return '***'
  return `${email[0]}***${email.slice(at)}`
}

/** "+4915112345678" → "+49 *** 78". */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '')
  if (digits.length < 5) return '***'
  return `+${digits.slice(0, 2)} *** ${digits.slice(-2)}`
}
