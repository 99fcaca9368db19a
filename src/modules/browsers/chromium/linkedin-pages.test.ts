import { describe, expect, it } from 'vitest';
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
