import { describe, expect, it } from 'vitest';
import { parseSpintax, pickOption, realizeSpintax, seededRandom } from './spintax.js';

/** Every distinct text a template can produce, found by rendering with many seeds. */
function outcomes(source: string, seeds = 400): Set<string> {
  const tree = parseSpintax(source);
  const seen = new Set<string>();
  for (let i = 0; i < seeds; i++) seen.add(realizeSpintax(tree, seededRandom(`seed-${i}`)));
  return seen;
}

describe('spintax', () => {
  it('picks one option of a group, each option reachable', () => {
    expect(outcomes('{Hi|Hello|Hey} there')).toEqual(new Set(['Hi there', 'Hello there', 'Hey there']));
  });

  it('nests groups', () => {
    expect(outcomes('{a|b {c|d}}!')).toEqual(new Set(['a!', 'b c!', 'b d!']));
  });

  it('leaves Liquid markup alone, also inside options', () => {
    expect(outcomes('{{ first_name }} {% if x %}y{% endif %}')).toEqual(
      new Set(['{{ first_name }} {% if x %}y{% endif %}']),
    );
    expect(outcomes('{Hi {{first_name | default: "a|b"}}|Hello}')).toEqual(
      new Set(['Hi {{first_name | default: "a|b"}}', 'Hello']),
    );
    // A `}}` closing Liquid output is not the end of a group.
    expect(outcomes('{x|{{y}}}')).toEqual(new Set(['x', '{{y}}']));
  });

  it('keeps braces without options, unclosed braces and stray pipes as text', () => {
    expect(outcomes('{literal} a|b {unclosed } }')).toEqual(new Set(['{literal} a|b {unclosed } }']));
    expect(outcomes('{ {a|b}')).toEqual(new Set(['{ a', '{ b']));
    expect(outcomes('{keep {a|b} this}')).toEqual(new Set(['{keep a this}', '{keep b this}']));
  });

  it('allows empty options', () => {
    expect(outcomes('Hi{|!}')).toEqual(new Set(['Hi', 'Hi!']));
  });

  it('is deterministic for a seed and varies across seeds', () => {
    const tree = parseSpintax('{a|b|c|d|e|f|g|h} {1|2|3|4|5|6|7|8}');
    const first = realizeSpintax(tree, seededRandom('task-42'));
    for (let i = 0; i < 5; i++) expect(realizeSpintax(tree, seededRandom('task-42'))).toBe(first);
    expect(outcomes('{a|b|c|d|e|f|g|h} {1|2|3|4|5|6|7|8}', 200).size).toBeGreaterThan(40);
  });

  it('has a pinned seeded sequence (a retry after an upgrade still renders the same text)', () => {
    const random = seededRandom('leadflow');
    expect([random(), random(), random()].map((v) => Math.floor(v * 1000))).toEqual([450, 262, 34]);
  });

  it('parses deeply unbalanced input in linear-ish time', () => {
    const source = '{ '.repeat(20_000);
    const started = performance.now();
    expect(realizeSpintax(parseSpintax(source), Math.random)).toBe(source);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('pickOption splits on pipes (the `spintax` filter)', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 100; i++) seen.add(pickOption('x|y|z', seededRandom(String(i))));
    expect(seen).toEqual(new Set(['x', 'y', 'z']));
  });
});
