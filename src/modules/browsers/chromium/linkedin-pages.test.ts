import { describe, expect, it } from 'vitest';
import { connectedAt } from './connected-dates.js';
import { classifyUrl, sessionProblem } from './linkedin-pages.js';

describe('the page classifier', () => {
  it('takes the password form and the account chooser for login pages, not checkpoints', () => {
    const kinds = [
      'https://www.linkedin.com/checkpoint/lg/login-submit',
      'https://www.linkedin.com/checkpoint/lg/sign-in-another-account?session_redirect=%2Ffeed%2F',
      'https://www.linkedin.com/login?session_redirect=%2Fcheckpoint%2F',
      'https://www.linkedin.com/uas/login',
    ].map(classifyUrl);
    expect(kinds).toEqual(['login', 'login', 'login', 'login']);
    expect(sessionProblem('login')).toBe('logged_out');
  });

  it('keeps real checks as checkpoints, post-login steps as interstitials, the invite route apart', () => {
    expect(classifyUrl('https://www.linkedin.com/checkpoint/challenge/AgH/')).toBe('checkpoint');
    expect(classifyUrl('https://www.linkedin.com/checkpoint/lg/challenge')).toBe('checkpoint');
    expect(classifyUrl('https://www.linkedin.com/check/add-phone?country_code=de')).toBe('interstitial');
    expect(sessionProblem('interstitial')).toBeNull();
    expect(classifyUrl('https://www.linkedin.com/preload/custom-invite/?vanityName=ada')).toBe(
      'invite_route',
    );
    expect(classifyUrl('https://www.linkedin.com/in/ada/')).toBe('profile');
    expect(classifyUrl('https://www.linkedin.com/welcome/new/')).toBe('unknown');
  });
});

describe('connection dates shown as text', () => {
  const now = new Date('2026-11-28T12:00:00.000Z');
  const day = 86_400_000;
  it('reads absolute dates in en, de, fr and es', () => {
    for (const text of [
      'Connected on November 20, 2026',
      'Vernetzt am 20. November 2026',
      'Relation établie le 20 novembre 2026',
      'Conectado el 20 de noviembre de 2026',
    ]) {
      expect(connectedAt(text, now)?.toISOString(), text).toBe('2026-11-20T00:00:00.000Z');
    }
  });
  it('reads relative dates by their unit, and nothing from other texts', () => {
    expect(connectedAt('Connected 2 weeks ago', now)?.getTime()).toBe(now.getTime() - 14 * day);
    expect(connectedAt('Vor 3 Tagen vernetzt', now)?.getTime()).toBe(now.getTime() - 3 * day);
    expect(connectedAt('Connecté il y a 1 mois', now)?.getTime()).toBe(now.getTime() - 30 * day);
    expect(connectedAt('Conectado hace 5 horas', now)?.getTime()).toBe(now.getTime() - 5 * 3_600_000);
    expect(connectedAt('Connected today', now)).toEqual(now);
    expect(connectedAt('Engineer 3 at Acme', now)).toBeNull();
    expect(connectedAt('Ada Lovelace Engineer 3 and more Connected on May 2, 2026', now)?.toISOString()).toBe(
      '2026-05-02T00:00:00.000Z',
    );
    expect(connectedAt('Message', now)).toBeNull();
  });
});
