-- Issue 34: statements and receipts are worded in all ten languages of contract/languages.ts.
alter table statements drop constraint statements_language_check;
alter table statements add constraint statements_language_check
  check (language in ('en', 'ru', 'uk', 'de', 'es', 'pt-BR', 'tr', 'id', 'fa', 'ar'));
