-- Issue 34: a profile may choose any of the ten languages of contract/languages.ts.
-- What the server cannot word yet in a language it words in English.
alter table user_profiles drop constraint user_profiles_language;
alter table user_profiles add constraint user_profiles_language
  check (language in ('en', 'ru', 'uk', 'de', 'es', 'pt-BR', 'tr', 'id', 'fa', 'ar'));
