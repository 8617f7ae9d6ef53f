// Numbers as the page writes them, in its language (i18n.js): counts with digit groups, durations and short axis
// numbers. A figure that is missing (or not a number) is written '–', never 'NaN'.
//
//   formatCount(181440)     // '181,440' (BigInts too)
//   formatLarge(12345678)   // '12.35 M': counts in a narrow readout
//   formatSeconds(0.25)     // '250 ms', '1.25 s': a finished search's time
//   formatElapsed(1.234)    // '1.2 s': a running clock
//   formatDuration(4000)    // '67 min': a time left, as the command line says it ('45 s', '67 min', '1.6 h')
//   compact(15000)          // '15k': axes and bar ends

import { MISSING, formatCount, t } from './i18n.js';

export { MISSING, formatCount };  // defined with the language, which also writes the catalogue's numbers

/** A count that may run into the millions, kept short: '950,123', then '12.35 M' and '123 M'. */
export function formatLarge(n) {
  if (!Number.isFinite(n) || n < 1e6) return formatCount(n);
  return t('unit.millions', { n: (n / 1e6).toFixed(n < 1e8 ? 2 : 0) });
}

/** A duration: '250 ms' under a second, else '1.25 s'. */
export function formatSeconds(s) {
  if (!Number.isFinite(s)) return MISSING;
  return s < 1 ? t('unit.ms', { n: Math.round(s * 1000) }) : t('unit.s', { n: s.toFixed(2) });
}

/** The time a task has run so far, to a tenth of a second: '1.2 s'. */
export const formatElapsed = s => (Number.isFinite(s) ? t('unit.s', { n: s.toFixed(1) }) : MISSING);

/** A time left, rounded as the command line's progress line rounds it. */
export function formatDuration(s) {
  if (!Number.isFinite(s)) return MISSING;
  if (s >= 5400) return t('unit.h', { n: (s / 3600).toFixed(1) });
  return s >= 90 ? t('unit.min', { n: Math.round(s / 60) }) : t('unit.s', { n: Math.round(s) });
}

/** 950, 12k, 1.5M: short numbers for axes and bar ends. */
export function compact(n) {
  if (n < 1000) return String(Math.round(n * 100) / 100);
  if (n < 1e6) return `${+(n / 1e3).toPrecision(3)}k`;
  if (n < 1e9) return `${+(n / 1e6).toPrecision(3)}M`;
  return `${+(n / 1e9).toPrecision(3)}G`;
}

