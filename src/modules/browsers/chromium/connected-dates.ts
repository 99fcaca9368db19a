// When a connection was made, from the text the connections page shows. LinkedIn's server-driven
// connections page carries no `<time datetime>`: each card says "Connected on November 20, 2026" or, for
// recent ones, "Connected 2 weeks ago", in the ACCOUNT's language (reference R7). Parsed here for en, de, fr
// and es (English from tools' reports, the others guesses); a relative date is only as precise as its unit
// ("2 weeks ago" is 14 days before `now`). Anything else answers null (the card is skipped, as before).

const MONTHS: Record<string, string[]> = {
  en: [
    'january',
    'february',
    'march',
    'april',
    'may',
    'june',
    'july',
    'august',
    'september',
    'october',
    'november',
    'december',
  ],
  de: [
    'januar',
    'februar',
    'märz',
    'april',
    'mai',
    'juni',
    'juli',
    'august',
    'september',
    'oktober',
    'november',
    'dezember',
  ],
  fr: [
    'janvier',
    'février',
    'mars',
    'avril',
    'mai',
    'juin',
    'juillet',
    'août',
    'septembre',
    'octobre',
    'novembre',
    'décembre',
  ],
  es: [
    'enero',
    'febrero',
    'marzo',
    'abril',
    'mayo',
    'junio',
    'julio',
    'agosto',
    'septiembre',
    'octubre',
    'noviembre',
    'diciembre',
  ],
};

/** Word stems of relative units (any locale) and their length in ms. */
const DAY = 86_400_000;
const UNITS: Array<[RegExp, number]> = [
  [/^(second|sekunde|seconde|segundo)/, 1000],
  [/^(minute|minuto)/, 60_000],
  [/^(hour|stunde|heure|hora)/, 3_600_000],
  [/^(day|tag|jour|día|dia)/, DAY],
  [/^(week|woche|semaine|semana)/, 7 * DAY],
  [/^(month|monat|mois|mes)/, 30 * DAY],
  [/^(year|jahr|ans?$|año|ano)/, 365 * DAY],
];

const monthIndex = (word: string) => {
  for (const names of Object.values(MONTHS)) {
    const i = names.findIndex((m) => word.startsWith(m.slice(0, 3)) && m.startsWith(word.slice(0, 3)));
    if (i >= 0) return i;
  }
  return -1;
};

/** The moment a "Connected ..." text names, or null. */
export function connectedAt(text: string, now: Date): Date | null {
  const t = text.toLowerCase().replace(/\s+/g, ' ');
  // Only a text that speaks of connecting (a card's headline may hold numbers and dates of its own).
  if (!/connected|vernetzt|relation|connecté|conectad/.test(t)) return null;
  if (/\b(today|heute|aujourd’hui|aujourd'hui|hoy)\b/.test(t)) return now;
  if (/\b(yesterday|gestern|hier|ayer)\b/.test(t)) return new Date(now.getTime() - DAY);
  // "2 weeks ago", "vor 2 Wochen", "il y a 2 semaines", "hace 2 semanas"
  if (/\bago\b|\bvor\b|il y a|\bhace\b/.test(t) && !/\d{4}/.test(t)) {
    // The first number followed by a unit (names and headlines may hold other numbers).
    for (const [, n, word] of t.matchAll(/(\d+) ?([a-zäöüéèíóúñ]+)/g)) {
      const unit = UNITS.find(([stem]) => stem.test(word!));
      if (unit) return new Date(now.getTime() - Number(n) * unit[1]);
    }
  }
  // "November 20, 2026" (en), "20. November 2026" (de), "20 novembre 2026" (fr), "20 de noviembre de 2026" (es)
  const monthFirst = /([a-zäöüéèíóúñ]{3,})\.? (\d{1,2}),? (\d{4})/.exec(t);
  const dayFirst = /(\d{1,2})\.? (?:de )?([a-zäöüéèíóúñ]{3,})\.?,? (?:de )?(\d{4})/.exec(t);
  const [day, month, year] = dayFirst
    ? [dayFirst[1], dayFirst[2], dayFirst[3]]
    : monthFirst
      ? [monthFirst[2], monthFirst[1], monthFirst[3]]
      : [];
  if (!day || !month || !year) return null;
  const m = monthIndex(month);
  return m < 0 ? null : new Date(Date.UTC(Number(year), m, Number(day)));
}
