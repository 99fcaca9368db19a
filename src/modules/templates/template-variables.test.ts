import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderTemplate } from './render/render.js';
import { buildScope } from './render/scope.js';
import { customFieldSlug, TEMPLATE_VARIABLES } from './template-variables.js';

describe('the variable list', () => {
  it('is the table documented in CONTEXT.md', () => {
    const doc = readFileSync(new URL('./CONTEXT.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## Variables'), doc.indexOf('## What it promises'));
    const rows = [...section.matchAll(/^\| `([^`]+)` +\| (\w+) +\|/gm)].map((m) => [m[1], m[2]]);
    expect(rows).toEqual(TEMPLATE_VARIABLES.map((v) => [v.name, v.group]));
  });

  it('names only variables a template can print', () => {
    const scope = buildScope({
      contact: {},
      company: null,
      customFields: { Segment: 'x' },
      companyCustomFields: { Tier: 'y' },
      sender: null,
    });
    for (const variable of TEMPLATE_VARIABLES) {
      const name = variable.name
        .replace('company.custom_fields.<name>', 'company.custom_fields.Tier')
        .replace('custom_fields.<name>', 'custom_fields.Segment')
        .replace('cf_<name>', 'cf_segment');
      expect(renderTemplate(`{{ ${name} }}`, scope).unknown, name).toEqual([]);
    }
  });

  it('aliases custom fields by lower-case name', () => {
    expect(customFieldSlug('Deal_size')).toBe('deal_size');
    expect(customFieldSlug('ARR')).toBe('arr');
  });
});
