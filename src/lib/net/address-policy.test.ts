// The address policy on its own: range classification, private switches, allowlists and messages.
import { describe, expect, it } from 'vitest';
import {
  allowlistEntryProblem,
  BlockedTargetError,
  blockedRange,
  type TargetPolicy,
  targetGuard,
} from './address-policy.js';

describe('blockedRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata lives here)'],
    ['100.100.100.200', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local (cloud metadata lives here)'],
    ['fd00:ec2::254', 'unique-local'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local (cloud metadata lives here)'],
    ['::7f00:1', 'reserved'],
    ['64:ff9b::7f00:1', 'reserved (rfc6052)'],
    ['2002:7f00:1::', 'reserved (6to4)'],
  ])('refuses %s (%s)', (address, range) => {
    expect(blockedRange(address)).toBe(range);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => {
    expect(blockedRange(address)).toBeUndefined();
  });
});

describe('the target policy', () => {
  const refused = (policy: TargetPolicy, host: string, address = host) => {
    try {
      targetGuard(policy).assertAllowed(host, [address]);
      return undefined;
    } catch (error) {
      expect(error).toBeInstanceOf(BlockedTargetError);
      return (error as Error).message;
    }
  };
  const privateOk: TargetPolicy = { allowPrivate: true };

  it.each([['127.0.0.1'], ['10.0.0.5'], ['192.168.1.20'], ['100.64.0.1'], ['fd12::1'], ['::1']])(
    'opens %s with allowPrivate',
    (address) => {
      expect(refused(privateOk, address)).toBeUndefined();
      expect(refused({ allowPrivate: false }, address)).toContain(
        'outbound connections may only reach public addresses (LEADFLOW_OUTBOUND_ALLOW_PRIVATE=true lifts this)',
      );
    },
  );

  it.each([
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['100.100.100.200', 'cloud metadata'],
  ])('keeps %s closed with allowPrivate (%s)', (address, kind) => {
    const message = refused(privateOk, address);
    expect(message).toContain(kind);
    expect(message).toContain('unless LEADFLOW_OUTBOUND_ALLOWLIST names them');
  });

  it('keeps cloud metadata host names closed whatever they resolve to', () => {
    for (const host of [
      'metadata.google.internal',
      'METADATA.google.internal.',
      'metadata',
      'instance-data',
    ]) {
      expect(refused(privateOk, host, '10.0.0.7'), host).toContain(`${host} is a cloud metadata host`);
      expect(() => targetGuard(privateOk).assertHostAllowed(host)).toThrow(BlockedTargetError);
    }
    expect(refused(privateOk, 'receiver.lan', '10.0.0.7')).toBeUndefined();
  });

  it('opens exactly what the allowlist names: CIDRs, addresses and host names', () => {
    const policy: TargetPolicy = {
      allowPrivate: false,
      allowlist: ['169.254.10.0/24', '10.1.2.3', 'fe80::/10', 'metadata.google.internal', 'hooks.corp'],
    };
    expect(refused(policy, '169.254.10.9')).toBeUndefined();
    expect(refused(policy, '169.254.169.254')).toContain('link-local');
    expect(refused(policy, '10.1.2.3')).toBeUndefined();
    expect(refused(policy, '::ffff:10.1.2.3')).toBeUndefined();
    expect(refused(policy, '10.1.2.4')).toContain('private');
    expect(refused(policy, 'fe80::abcd')).toBeUndefined();
    expect(refused(policy, 'metadata.google.internal', '169.254.169.254')).toBeUndefined();
    expect(refused(policy, 'hooks.corp', '10.9.9.9')).toBeUndefined();
    expect(refused(policy, 'other.corp', '10.9.9.9')).toContain('private');
  });

  it('says which allowlist entries it cannot read', () => {
    expect(allowlistEntryProblem('10.0.0.0/8')).toBeUndefined();
    expect(allowlistEntryProblem('fd00::/8')).toBeUndefined();
    expect(allowlistEntryProblem('169.254.169.254')).toBeUndefined();
    expect(allowlistEntryProblem('receiver.lan')).toBeUndefined();
    expect(allowlistEntryProblem('10.0.0.0/33')).toContain('not a CIDR range');
    expect(allowlistEntryProblem('http://x')).toContain('neither an IP address');
  });
});
