import { useQuery } from '@tanstack/react-query'
import { useI18n } from '../../i18n/i18n.tsx'
import { ltrIsland } from '../../i18n/money.ts'
import { meQuery, userDataQuery } from '../../queries/user.ts'
import { telegramLaunch } from '../../telegram/launch.ts'
import { displayPhone } from './display-phone.ts'

/**
 * The top of the home screen: "Hello, Mia" by the first name the person gave
 * (a Telegram account's comes from Telegram at sign-up, and from the launch
 * data before the server has answered), and how they are signed in.
 */
export function ProfileGreeting() {
  const { t, language } = useI18n()
  const me = useQuery(meQuery())
  const details = useQuery(userDataQuery())
  const launch = telegramLaunch()
  const name = details.data?.first_name?.trim() || launch?.firstName

  const user = me.data
  // A phone number reads left to right inside an Arabic or Persian sentence too.
  const who =
    user?.email ?? (user?.phone ? ltrIsland(language, displayPhone(user.phone)) : undefined)
  const how = who
    ? t('home.signedInAs', { email: who })
    : user?.telegram_id || launch
      ? t('home.signedInTelegram')
      : undefined
  return (
    <div className="greeting">
      <h1 id="home-title">{name ? t('home.greetingName', { name }) : t('home.greeting')}</h1>
      <p className="muted greeting-who" data-testid="signed-in-as">
        {how ?? '\u00a0'}
      </p>
    </div>
  )
}
