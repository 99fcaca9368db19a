import { describe, expect, it } from 'vitest';
import { parseInput } from './live-view.protocol.js';

const parse = (message: unknown) => parseInput(JSON.stringify(message));

describe('live view input messages', () => {
  it('accepts the input events', () => {
    expect(parse({ type: 'mouse', action: 'down', x: 10, y: 20, button: 'left', clicks: 2 })).not.toBeNull();
    expect(parse({ type: 'mouse', action: 'move', x: 0, y: 0 })).not.toBeNull();
    expect(parse({ type: 'wheel', x: 1, y: 2, dx: 0, dy: -120 })).not.toBeNull();
    expect(parse({ type: 'key', action: 'down', key: 'a' })).not.toBeNull();
    expect(parse({ type: 'key', action: 'down', key: 'é' })).not.toBeNull();
    expect(parse({ type: 'key', action: 'up', key: 'Enter' })).not.toBeNull();
    expect(parse({ type: 'paste', text: '123456' })).not.toBeNull();
  });

  it('drops everything else: browser-protocol commands, extra fields, unknown keys, bad values', () => {
    expect(parse({ method: 'Runtime.evaluate', params: { expression: 'document.cookie' } })).toBeNull();
    expect(parse({ type: 'navigate', url: 'https://example.com' })).toBeNull();
    expect(parse({ type: 'mouse', action: 'down', x: 1, y: 1, method: 'Page.navigate' })).toBeNull();
    expect(parse({ type: 'key', action: 'down', key: 'F12' })).toBeNull();
    expect(parse({ type: 'key', action: 'down', key: '\u0007' })).toBeNull();
    expect(parse({ type: 'key', action: 'press', key: 'a' })).toBeNull();
    expect(parse({ type: 'mouse', action: 'down', x: -1, y: 1 })).toBeNull();
    expect(parse({ type: 'mouse', action: 'down', x: 1, y: 1, button: 'back' })).toBeNull();
    expect(parse({ type: 'paste', text: 'x'.repeat(5000) })).toBeNull();
    expect(parseInput('not json')).toBeNull();
    expect(parseInput('x'.repeat(9000))).toBeNull();
  });
});
