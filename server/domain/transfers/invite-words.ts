import type { Language } from '../../../contract/languages.ts'

/** The phrases of a claimable transfer's invitation, in one language. */
export interface InviteWords {
  /** "this e-mail address", as the sign-up sentence takes it. */
  contact: { email: string; phone: string }
  lead: (sender: string, amount: string, note: string | null) => string
  how: (contact: string, by: string, signUpUrl: string) => string
  after: string
  subject: (sender: string, amount: string) => string
}

/**
 * The invitation in every language the product speaks. A sentence never
 * needs the sender's gender, which the invitation does not know (the
 * Russian one's "отправил(а)" was written so before).
 */
export const INVITE_WORDS: Record<Language, InviteWords> = {
  en: {
    contact: { email: 'this e-mail address', phone: 'this phone number' },
    lead: (sender, amount, note) =>
      `${sender} sent you ${amount} on Finplatform${note ? ` — “${note}”` : ''}.`,
    how: (contact, by, url) => `Sign up with ${contact} by ${by} and the money is yours: ${url}`,
    after: 'If nobody claims it, it goes back to the sender.',
    subject: (sender, amount) => `${sender} sent you ${amount}`,
  },
  ru: {
    contact: { email: 'этот e-mail', phone: 'этот номер' },
    lead: (sender, amount, note) =>
      `${sender} отправил(а) вам ${amount} в Finplatform${note ? ` — «${note}»` : ''}.`,
    how: (contact, by, url) =>
      `Зарегистрируйтесь на ${contact} до ${by}, и деньги будут ваши: ${url}`,
    after: 'Если перевод никто не получит, он вернётся отправителю.',
    subject: (sender, amount) => `${sender}: ${amount} для вас`,
  },
  uk: {
    contact: { email: 'цією адресою ел. пошти', phone: 'цим номером телефону' },
    lead: (sender, amount, note) =>
      `${sender} надсилає вам ${amount} у Finplatform${note ? ` — «${note}»` : ''}.`,
    how: (contact, by, url) => `Зареєструйтеся з ${contact} до ${by}, і гроші будуть ваші: ${url}`,
    after: 'Якщо переказ ніхто не отримає, він повернеться відправникові.',
    subject: (sender, amount) => `${sender}: ${amount} для вас`,
  },
  de: {
    contact: { email: 'dieser E-Mail-Adresse', phone: 'dieser Telefonnummer' },
    lead: (sender, amount, note) =>
      `${sender} hat dir ${amount} über Finplatform gesendet${note ? ` – „${note}“` : ''}.`,
    how: (contact, by, url) =>
      `Registriere dich bis zum ${by} mit ${contact}, dann gehört das Geld dir: ${url}`,
    after: 'Wenn es niemand annimmt, geht es an den Absender zurück.',
    subject: (sender, amount) => `${sender} hat dir ${amount} gesendet`,
  },
  es: {
    contact: { email: 'este correo electrónico', phone: 'este número de teléfono' },
    lead: (sender, amount, note) =>
      `${sender} te ha enviado ${amount} en Finplatform${note ? ` — «${note}»` : ''}.`,
    how: (contact, by, url) =>
      `Regístrate con ${contact} antes del ${by} y el dinero será tuyo: ${url}`,
    after: 'Si nadie lo reclama, vuelve a quien lo envió.',
    subject: (sender, amount) => `${sender} te ha enviado ${amount}`,
  },
  'pt-BR': {
    contact: { email: 'este e-mail', phone: 'este número de celular' },
    lead: (sender, amount, note) =>
      `${sender} enviou ${amount} para você no Finplatform${note ? ` — “${note}”` : ''}.`,
    how: (contact, by, url) => `Crie sua conta com ${contact} até ${by} e o dinheiro é seu: ${url}`,
    after: 'Se ninguém resgatar, o dinheiro volta para quem enviou.',
    subject: (sender, amount) => `${sender} enviou ${amount} para você`,
  },
  tr: {
    contact: { email: 'bu e-posta adresiyle', phone: 'bu telefon numarasıyla' },
    lead: (sender, amount, note) =>
      `${sender} size Finplatform üzerinden ${amount} gönderdi${note ? ` — “${note}”` : ''}.`,
    how: (contact, by, url) => `${by} tarihine kadar ${contact} kaydolun, para sizin olsun: ${url}`,
    after: 'Kimse almazsa para gönderene geri döner.',
    subject: (sender, amount) => `${sender} size ${amount} gönderdi`,
  },
  id: {
    contact: { email: 'alamat email ini', phone: 'nomor telepon ini' },
    lead: (sender, amount, note) =>
      `${sender} mengirimi Anda ${amount} di Finplatform${note ? ` — “${note}”` : ''}.`,
    how: (contact, by, url) =>
      `Daftar dengan ${contact} paling lambat ${by} dan uangnya jadi milik Anda: ${url}`,
    after: 'Jika tidak ada yang mengambilnya, uang akan kembali ke pengirim.',
    subject: (sender, amount) => `${sender} mengirimi Anda ${amount}`,
  },
  fa: {
    contact: { email: 'همین ایمیل', phone: 'همین شمارهٔ تلفن' },
    lead: (sender, amount, note) =>
      `${sender} در Finplatform برایتان ${amount} فرستاد${note ? ` — «${note}»` : ''}.`,
    how: (contact, by, url) => `تا ${by} با ${contact} ثبت‌نام کنید تا پول مال شما شود: ${url}`,
    after: 'اگر کسی آن را دریافت نکند، به فرستنده برمی‌گردد.',
    subject: (sender, amount) => `${sender} برایتان ${amount} فرستاد`,
  },
  ar: {
    contact: { email: 'هذا البريد الإلكتروني', phone: 'هذا الرقم' },
    lead: (sender, amount, note) =>
      `أرسل إليك ${sender} مبلغ ${amount} عبر Finplatform${note ? ` — «${note}»` : ''}.`,
    how: (contact, by, url) => `سجّل باستخدام ${contact} حتى ${by} ليصبح المبلغ لك: ${url}`,
    after: 'إذا لم يستلمه أحد، يعود إلى المرسل.',
    subject: (sender, amount) => `أرسل إليك ${sender} مبلغ ${amount}`,
  },
}
