// How a seat's browser presents itself: like the Chromium it is, not like an automated one. Measured on
// Chromium 156 (Debian) with playwright-core 1.65, headless by default:
//   plain headless:            UA "HeadlessChrome/156.0.0.0", navigator.webdriver = true;
//   headed under Xvfb:         UA "Chrome/156.0.0.0", webdriver = true (the automation flag stays);
//   --disable-blink-features=AutomationControlled (headless or headed): webdriver = false;
//   + userAgent derived from the installed version: UA "Chrome/156.0.0.0" (the reduced form Chrome sends),
//     Sec-CH-UA / userAgentData brands unchanged ("Chromium";v="156", no headless brand), platform Linux.
// Plugins (5) and window.chrome are present in every variant. So seats stay headless with the flag and a
// user agent built from `chromium --version`: no X server needed. The locale and time zone follow the
// seat's proxy country when it has one (LinkedIn compares them with the address it sees).
import { execFile } from 'node:child_process';

const versions = new Map<string, Promise<string | null>>();

/** The installed Chromium's version ("156.0.8078.108"), or null when it cannot be read. */
export function chromiumVersion(executable: string): Promise<string | null> {
  let known = versions.get(executable);
  if (!known) {
    known = new Promise((resolve) => {
      execFile(executable, ['--version'], { timeout: 20_000 }, (error, stdout) => {
        resolve(error ? null : (/(\d+)\.\d+\.\d+\.\d+/.exec(stdout)?.[0] ?? null));
      });
    });
    versions.set(executable, known);
  }
  return known;
}

/** The user agent a headed Chromium of that version sends on Linux (minor versions zeroed, as Chrome does). */
export function userAgentFor(version: string): string {
  const major = version.split('.')[0];
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}

/** Locale and time zone per proxy country (the common ones; others keep en-US and the host's zone). */
const COUNTRIES: Record<string, { locale: string; timezoneId: string }> = {
  US: { locale: 'en-US', timezoneId: 'America/New_York' },
  CA: { locale: 'en-CA', timezoneId: 'America/Toronto' },
  GB: { locale: 'en-GB', timezoneId: 'Europe/London' },
  IE: { locale: 'en-IE', timezoneId: 'Europe/Dublin' },
  AU: { locale: 'en-AU', timezoneId: 'Australia/Sydney' },
  IN: { locale: 'en-IN', timezoneId: 'Asia/Kolkata' },
  DE: { locale: 'de-DE', timezoneId: 'Europe/Berlin' },
  AT: { locale: 'de-AT', timezoneId: 'Europe/Vienna' },
  CH: { locale: 'de-CH', timezoneId: 'Europe/Zurich' },
  FR: { locale: 'fr-FR', timezoneId: 'Europe/Paris' },
  BE: { locale: 'fr-BE', timezoneId: 'Europe/Brussels' },
  ES: { locale: 'es-ES', timezoneId: 'Europe/Madrid' },
  MX: { locale: 'es-MX', timezoneId: 'America/Mexico_City' },
  IT: { locale: 'it-IT', timezoneId: 'Europe/Rome' },
  NL: { locale: 'nl-NL', timezoneId: 'Europe/Amsterdam' },
  PL: { locale: 'pl-PL', timezoneId: 'Europe/Warsaw' },
  PT: { locale: 'pt-PT', timezoneId: 'Europe/Lisbon' },
  BR: { locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' },
};

/**
 * The launch options of a Chromium process that hosts seats: no automation flag, no
 * AutomationControlled (so `navigator.webdriver` is false in every context of it).
 */
export const LAUNCH_IDENTITY = {
  ignoreDefaultArgs: ['--enable-automation'],
  args: ['--disable-blink-features=AutomationControlled'],
};

/** A seat's context options that make it look like the browser it is, placed where its proxy is. */
export async function seatIdentity(executable: string, countryCode: string | null | undefined) {
  const version = await chromiumVersion(executable);
  const place = countryCode ? COUNTRIES[countryCode.toUpperCase()] : undefined;
  return {
    locale: place?.locale ?? 'en-US',
    ...(place ? { timezoneId: place.timezoneId } : {}),
    ...(version ? { userAgent: userAgentFor(version) } : {}),
  };
}
