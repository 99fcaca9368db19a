// The suite's own safety nets: missing system programs turn into one skip line with the install
// command, and a process of the run is found by its tag however it was started (test/leftovers.ts).
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { RUN_TAG, taggedProcesses } from '../leftovers.js';
import { exitOf, stopChild } from '../processes.js';
import { MAIL_PROGRAMS, missingPrograms } from '../system-programs.js';

describe('missing system programs', () => {
  const path = process.env.PATH;
  afterEach(() => {
    process.env.PATH = path;
  });

  it('names each missing program and one install command for all', () => {
    process.env.PATH = '/nonexistent';
    expect(missingPrograms(['redis-server', 'dovecot'])).toBe(
      'missing redis-server (on PATH), dovecot (on PATH): apt-get install redis-server dovecot-imapd (or run .ci/run)',
    );
  });

  it('asks for the LMTP server too, not only dovecot', () => {
    expect(MAIL_PROGRAMS).toEqual(['dovecot', 'dovecot-imap', 'dovecot-lmtp']);
    expect(missingPrograms([])).toBeUndefined();
  });
});

describe.skipIf(process.platform !== 'linux')('the run tag', () => {
  it('finds a tagged process even when it was detached from its parent, and not after it ended', async () => {
    const tag = `probe-${process.pid}-${Date.now()}`;
    const child = spawn('sleep', ['30'], {
      env: { ...process.env, [RUN_TAG]: tag },
      stdio: 'ignore',
      detached: true,
    });
    try {
      expect(taggedProcesses(tag).map((p) => p.pid)).toEqual([child.pid]);
      expect(taggedProcesses(`${tag}-other`)).toEqual([]);
    } finally {
      await stopChild(child, 'SIGKILL');
    }
    await exitOf(child);
    expect(taggedProcesses(tag)).toEqual([]);
  });
});
