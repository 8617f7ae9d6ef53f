// The page's language: every text the page shows comes from one message catalogue per language (i18n/en.json,
// i18n/ja.json; docs/user-guide.md, "Language"). The first choice follows the browser's languages, a choice made
// in the picker is remembered, and `lang` on the document follows it. Changing it reloads the page (the position
// is in the link, so it stays): every module then writes its texts once, in one language.
//
//   t('result.moves-count', { count: 25 })   // '25 moves' / '25 手'; numbers are written the language's way
//   translate(document)                 // data-i18n="key" sets the text, data-i18n-attr="aria-label:key title:key"
//   errorText(answer.error)             // an engine error, by its reason (or code) and details
//
// Loading this module writes the page's own texts (index.html) and fills the language picker, before any other
// module runs.
//
// A message is a string with {name} placeholders, or, where a count decides the words, an object of
// Intl.PluralRules categories ({"one": "{count} move", "other": "{count} moves"}; Japanese has only "other").

/** The languages the page speaks, each named in itself (the picker's options). */
export const LANGUAGES = { en: 'English', ja: '日本語' };
const STORED = 'slidelab.language';

function stored() {
  try { return localStorage.getItem(STORED); } catch { return null; }  // storage may be off: the browser decides
}

/** The language to speak: the one chosen before, else the first of the browser's languages the page speaks. */
function chooseLanguage() {
  const choices = [stored(), ...(navigator.languages ?? []), navigator.language];
  for (const choice of choices) {
    const code = String(choice ?? '').toLowerCase().split('-')[0];
    if (code in LANGUAGES) return code;
  }
  return 'en';
}

async function catalogue(code) {
  const answer = await fetch(new URL(`../i18n/${code}.json`, import.meta.url));
  if (!answer.ok) throw new Error(`the ${code} messages did not load (HTTP ${answer.status})`);
  return answer.json();
}

// One catalogue is fetched (tests/test_i18n.py keeps them equal); English if the chosen one cannot load, so the page
// still works and says which language it speaks.
const chosen = chooseLanguage();
const loaded = await catalogue(chosen).then(messages => ({ code: chosen, messages }),
  async () => ({ code: 'en', messages: await catalogue('en') }));
/** The language the page speaks ('en' or 'ja'). */
export const language = loaded.code;
const { messages } = loaded;
document.documentElement.lang = language;
const numbers = new Intl.NumberFormat(language);
const plurals = new Intl.PluralRules(language);

/** Choose a language: remembered, then the page reloads in it. */
export function chooseAndReload(code) {
  if (!(code in LANGUAGES) || code === language) return;
  try { localStorage.setItem(STORED, code); } catch { /* not remembered: still switch for this visit */ }
  location.reload();
}

/** What the page writes for a figure that is missing (or not a number), never 'NaN'. */
export const MISSING = '–';

/** A count written the language's way, with digit groups ('181,440'; BigInts too), or MISSING. */
export const formatCount = n => (typeof n === 'bigint' || Number.isFinite(n) ? numbers.format(n) : MISSING);

/** Whether the catalogue has `key` (engine facts fall back to the engine's English when it does not). */
export const has = key => key in messages;

/** The message `key` with its {placeholders} filled: numbers are formatted, a message with plural forms is chosen
 * by params.count. */
export function t(key, params = {}) {
  let message = messages[key];
  if (message === undefined) return key;
  if (typeof message === 'object') message = message[plurals.select(Number(params.count))] ?? message.other;
  return message.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return typeof value === 'number' || typeof value === 'bigint' ? formatCount(value) : String(value);
  });
}

/** An engine fact's text in the page's language: the catalogue's `key`, else the English the engine gave. */
export const fact = (key, inEnglish) => (has(key) ? t(key) : inEnglish);

/** An engine error ({code, message, reason?, details?}) in the page's language. English is the engine's own
 * message; another language says it by its reason when the catalogue has it, else by its code with the engine's
 * words added. */
export function errorText(error) {
  if (!error) return '';
  if (language === 'en') return error.message;
  if (error.reason && has(`error.${error.reason}`)) return t(`error.${error.reason}`, error.details ?? {});
  return has(`error.${error.code}`) ? t(`error.${error.code}`, { message: error.message }) : error.message;
}

/** Write the texts of `root`'s marked elements: data-i18n="key" is the text, data-i18n-attr="name:key ..." the
 * attributes. */
export function translate(root) {
  for (const element of root.querySelectorAll('[data-i18n]')) element.textContent = t(element.dataset.i18n);
  for (const element of root.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of element.dataset.i18nAttr.split(/\s+/)) {
      const [name, key] = pair.split(':');
      element.setAttribute(name, t(key));
    }
  }
}

/** Fill the language picker (each language named in itself) and switch on a choice. */
function offerLanguages(select) {
  select.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) => {
    const option = new Option(name, code, false, code === language);
    option.lang = code;
    return option;
  }));
  select.addEventListener('change', () => chooseAndReload(select.value));
}

export const escapeHTML = text => String(text).replace(/[&<>"']/g, ch => `&#${ch.charCodeAt(0)};`);

/** A text as HTML: escaped, with `backquoted` words as <code> (names a reader types). */
export const withCode = text => escapeHTML(text).replace(/`([^`]+)`/g, '<code>$1</code>');

/** The message as HTML for a template: withCode, and **starred** words as <strong>. */
export const tHTML = (key, params) => withCode(t(key, params)).replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');

/** A text given in several languages ({en, ja, ...}: an exercise's, a lesson's) in the page's, else in English. */
export const inLanguage = texts => (texts ? texts[language] ?? texts.en ?? '' : '');

translate(document);
const picker = document.getElementById('language');  // absent where a test imports a module on another page
if (picker) offerLanguages(picker);
