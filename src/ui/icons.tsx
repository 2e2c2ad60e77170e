import type { ReactNode } from 'react'

/**
 * The app's icons: 24 px line drawings in the text colour (currentColor), so
 * they follow every theme. Decorative: whatever carries one also carries its
 * words (a label beside it, or an aria-label on the control).
 *
 * Here the shell's own (the navigation, sign-out, the bell), which the first
 * download needs; the screens' icons are in ./screen-icons.tsx, so they come
 * with the screens (issue 16: a module the entry imports ships whole in it).
 * One that points a way along the line of reading (back, forward, out) is
 * `mirror`ed: right to left, ui.css turns it round.
 */
export function Icon(props: { children: ReactNode; size?: number; mirror?: boolean }) {
  const size = props.size ?? 24
  return (
    <svg
      className={props.mirror ? 'icon icon-mirror' : 'icon'}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {props.children}
    </svg>
  )
}

export type IconProps = { size?: number }

export const HomeIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 10.5 12 3l9 7.5" />
    <path d="M5 9.5V20h5v-6h4v6h5V9.5" />
  </Icon>
)

export const CardIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="2.5" y="5" width="19" height="14" rx="2.5" />
    <path d="M2.5 10h19" />
    <path d="M6.5 15h4" />
  </Icon>
)

export const MoveMoneyIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 8h14" />
    <path d="m14 4 4 4-4 4" />
    <path d="M20 16H6" />
    <path d="m10 12-4 4 4 4" />
  </Icon>
)

export const ActivityIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 2" />
  </Icon>
)

export const ProfileIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21c1.5-4 4.5-6 8-6s6.5 2 8 6" />
  </Icon>
)

export const AccountsIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 9.5 12 4l9 5.5" />
    <path d="M5 10v8M9.5 10v8M14.5 10v8M19 10v8" />
    <path d="M3 20h18" />
  </Icon>
)

export const PeopleIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="9" cy="8" r="3.5" />
    <path d="M2.5 20c1-3.5 3.5-5.5 6.5-5.5s5.5 2 6.5 5.5" />
    <path d="M16 4.7a3.5 3.5 0 0 1 0 6.6" />
    <path d="M18 14.8c1.7.8 2.9 2.5 3.5 5.2" />
  </Icon>
)

export const ShieldIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M12 3 4.5 6v5.5c0 4.5 3.2 8.2 7.5 9.5 4.3-1.3 7.5-5 7.5-9.5V6z" />
    <path d="m8.5 12 2.5 2.5 4.5-5" />
  </Icon>
)

/** A padlock: sign-in and security (issue 21). */
export const CodeIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="m8 7-5 5 5 5" />
    <path d="m16 7 5 5-5 5" />
    <path d="m13.5 4-3 16" />
  </Icon>
)

export const SignOutIcon = (p: IconProps) => (
  <Icon {...p} mirror>
    <path d="M15 4h3.5A1.5 1.5 0 0 1 20 5.5v13a1.5 1.5 0 0 1-1.5 1.5H15" />
    <path d="M10 16.5 14.5 12 10 7.5" />
    <path d="M14.5 12H4" />
  </Icon>
)

/** Amounts shown: an open eye (the control hides them). */
export const EyeIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z" />
    <circle cx="12" cy="12" r="3" />
  </Icon>
)

/** Amounts hidden: the eye struck through (the control shows them). */
export const EyeOffIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M9.9 5.2A10.6 10.6 0 0 1 12 5c6.4 0 10 7 10 7a17.7 17.7 0 0 1-3 3.9" />
    <path d="M6.3 6.3C3.6 8.1 2 12 2 12s3.6 7 10 7a9.8 9.8 0 0 0 5.7-1.7" />
    <path d="M9.9 9.9a3 3 0 0 0 4.2 4.2" />
    <path d="m3 3 18 18" />
  </Icon>
)

/** Insights: a ring and bars. */
export const ChartIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 20V10M10 20V4M16 20v-7M21 20H3" />
  </Icon>
)
