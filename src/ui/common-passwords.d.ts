/** zxcvbn-ts's list of common passwords alone, without the rest of its language pack. */
declare module '@zxcvbn-ts/language-common/dist/passwords.json.mjs' {
  const passwords: string[]
  export default passwords
}
