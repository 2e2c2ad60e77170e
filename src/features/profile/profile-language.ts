import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { type Language, useI18n } from '../../i18n/i18n.tsx'
import { userDataQuery } from '../../queries/user.ts'
import { useUpdateUserData } from './mutations.ts'

/**
 * A language the person chose is kept on their profile, so every device and
 * the server (codes, pushes, bot messages) agree: signed in, the app takes
 * the profile's language once, and from then on a choice made here (the
 * shell's picker, the profile's form) is saved to it. A profile without one
 * stays without: what the device detects (Telegram's, the browser's
 * languages) is not a choice, and two devices reading two languages must not
 * overwrite each other. Renders nothing.
 */
export function useProfileLanguage(): void {
  const { language, setLanguage } = useI18n()
  const profile = useQuery(userDataQuery()).data
  const save = useUpdateUserData()
  const saving = save.isPending
  // The language on screen when this last looked, and the profile's it is switching to.
  const previous = useRef<Language | undefined>(undefined)
  const adopting = useRef<Language | undefined>(undefined)

  useEffect(() => {
    if (!profile || saving) return
    const before = previous.current
    previous.current = language
    if (before === undefined) {
      if (profile.language && profile.language !== language) {
        adopting.current = profile.language
        setLanguage(profile.language)
      }
      return
    }
    if (language === before) return
    if (language === adopting.current) {
      adopting.current = undefined
      return
    }
    adopting.current = undefined
    if (profile.language !== language) save.mutate({ language })
  }, [profile, language, saving, setLanguage, save.mutate])
}
