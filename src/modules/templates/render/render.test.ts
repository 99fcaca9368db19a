import { describe, expect, it } from 'vitest';
import { checkTemplate, renderTemplate, TemplateError } from './render.js';
import { buildScope, type TemplateData } from './scope.js';

const jane: TemplateData = {
  contact: {
    lead_uuid: '01900000-0000-7000-8000-000000000001',
    first_name: 'Jane',
    last_name: null,
    name: 'Jane',
    company_name: null,
    position: '  ',
    skills: ['Go', 'Kubernetes'],
  },
  company: { name: 'Acme', domain: 'acme.com', industry: null },
  customFields: { Industry: 'Fintech', Deal_size: null },
  companyCustomFields: { Segment: 'enterprise' },
  sender: { first_name: 'Max', last_name: 'Mustermann' },
};
const scope = buildScope(jane);
const render = (source: string, options = {}) => renderTemplate(source, scope, options);

function renderError(source: string): TemplateError {
  try {
    render(source);
  } catch (error) {
    if (error instanceof TemplateError) return error;
    throw error;
  }
  throw new Error(`expected ${source} to fail`);
}

describe('variables', () => {
  it('prints contact, company, custom field and sender variables', () => {
    expect(
      render(
        'Hi {{first_name}} from {{company}} ({{company.domain}}), {{custom_fields.Industry}} / ' +
          '{{company.custom_fields.Segment}}. {{sender.first_name}} ({{sender}})',
      ),
    ).toEqual({
      text: 'Hi Jane from Acme (acme.com), Fintech / enterprise. Max (Max Mustermann)',
      missing: [],
      unknown: [],
    });
  });

  it('finds custom fields by name in any case, by brackets and by the cf_ alias', () => {
    expect(render('{{custom_fields.industry}}|{{custom_fields["Industry"]}}|{{cf_industry}}').text).toBe(
      'Fintech|Fintech|Fintech',
    );
    expect(render('{{company.custom_fields.segment}}').text).toBe('enterprise');
  });

  it('takes the company name from the linked company when the contact has none', () => {
    expect(render('{{company_name}} {{company}} {{company.name}}').text).toBe('Acme Acme Acme');
    const noCompany = buildScope({
      ...jane,
      contact: { ...jane.contact, company_name: 'Initech' },
      company: null,
    });
    expect(renderTemplate('{{company}}/{{company.name}}/{{company_name}}', noCompany).text).toBe(
      'Initech/Initech/Initech',
    );
    expect(renderTemplate('{{company.domain}}', noCompany)).toEqual({
      text: '',
      missing: ['company.domain'],
      unknown: [],
    });
  });

  it('prints lists as comma-separated text; Liquid list filters still work', () => {
    expect(render('{{skills}} | {{skills | join: " & "}} | {{skills.first}} | {{skills.size}}').text).toBe(
      'Go, Kubernetes | Go & Kubernetes | Go | 2',
    );
  });
});

describe('missing variables', () => {
  it('reports variables that printed blank (null, empty or whitespace-only)', () => {
    expect(render('Hi {{first_name}} {{last_name}}, {{position}}!')).toEqual({
      text: 'Hi Jane , !',
      missing: ['last_name', 'position'],
      unknown: [],
    });
  });

  it('does not report a variable replaced by default or guarded by a condition', () => {
    expect(render('Hi {{last_name | default: "there"}}')).toEqual({
      text: 'Hi there',
      missing: [],
      unknown: [],
    });
    expect(render('{% if last_name %}Dear {{last_name}}{% else %}Hello{% endif %}')).toEqual({
      text: 'Hello',
      missing: [],
      unknown: [],
    });
    expect(render('{% unless position %}no title{% endunless %}').missing).toEqual([]);
    expect(render('{{ last_name | default: first_name }}').text).toBe('Jane');
  });

  it('follows a blank variable through filters, arguments and assignments', () => {
    expect(render('{{last_name | upcase}}').missing).toEqual(['last_name']);
    expect(render('{{first_name | append: last_name}}')).toEqual({
      text: 'Jane',
      missing: ['last_name'],
      unknown: [],
    });
    expect(render('{% assign n = last_name %}{{ n }}').missing).toEqual(['last_name']);
    expect(render('{{ last_name | upcase | default: "x" }}')).toEqual({
      text: 'x',
      missing: [],
      unknown: [],
    });
  });

  it('reports custom fields and company fields by their names', () => {
    expect(render('{{cf_deal_size}}{{custom_fields["deal_size"]}}{{company.industry}}').missing).toEqual([
      'custom_fields.Deal_size',
      'company.industry',
    ]);
  });

  it('reports names that are not variables separately, as unknown', () => {
    expect(render('{{frist_name}} {{custom_fields.Nope}} {{company.nope}} {{sender.nope}}')).toEqual({
      text: '   ',
      missing: [],
      unknown: ['frist_name', 'custom_fields.Nope', 'company.nope', 'sender.nope'],
    });
  });

  it('reports `company` and `sender` printed alone when they have no name', () => {
    const bare = buildScope({
      contact: {},
      company: null,
      customFields: {},
      companyCustomFields: {},
      sender: null,
    });
    expect(renderTemplate('{{company}}{{sender}}{{sender.first_name}}', bare).missing).toEqual([
      'company',
      'sender',
      'sender.first_name',
    ]);
    expect(renderTemplate('{% if company %}x{% endif %}', bare)).toEqual({
      text: '',
      missing: [],
      unknown: [],
    });
  });
});

describe('Liquid', () => {
  it('runs conditionals, loops and filters', () => {
    expect(
      render(
        '{% if company.domain contains "acme" %}Acme!{% endif %} ' +
          '{% for s in skills %}{{ forloop.index }}:{{ s | downcase }} {% endfor %}' +
          '{{ first_name | size }} {{ "  x " | strip }}',
      ).text,
    ).toBe('Acme! 1:go 2:kubernetes 4 x');
  });

  it('escapes printed values for HTML when asked, never the template text', () => {
    const html = buildScope({ ...jane, company: { name: 'A&B <Ltd>' } });
    expect(renderTemplate('<p>{{company}}</p>', html, { escape: 'html' }).text).toBe(
      '<p>A&amp;B &lt;Ltd&gt;</p>',
    );
    expect(renderTemplate('<p>{{company}}</p>', html).text).toBe('<p>A&B <Ltd></p>');
  });

  it('refuses file system tags and unknown filters as syntax errors', () => {
    for (const source of ['{% include "x" %}', '{% render "/etc/passwd" %}', '{% layout "a" %}']) {
      const error = renderError(source);
      expect(error.kind).toBe('syntax');
      expect(error.message).toMatch(/not available in message templates/);
    }
    expect(renderError('{{ first_name | nosuch }}').message).toMatch(/undefined filter: nosuch/);
    expect(renderError('{% if %}').kind).toBe('syntax');
    expect(renderError('{% if first_name %}open').message).toMatch(/not closed/);
  });

  it('does not let templates reach into objects', () => {
    expect(render('{{company.constructor}}{{company.constructor.constructor}}{{company.__proto__}}')).toEqual(
      {
        text: '',
        missing: [],
        unknown: ['company.constructor', 'company.__proto__'],
      },
    );
    expect(render('{{first_name.constructor}}{{skills.constructor}}{{constructor}}').text).toBe('');
  });

  it('bounds loops, allocations and output', () => {
    expect(renderError('{% for i in (1..100000000) %}x{% endfor %}').kind).toBe('limit');
    expect(
      renderError('{% for i in (1..5000) %}{% for j in (1..5000) %}x{% endfor %}{% endfor %}').kind,
    ).toBe('limit');
    expect(renderError('{% for i in (1..200000) %}x{% endfor %}').message).toMatch(/longer than|limit/);
    expect(renderError('x'.repeat(20_001)).kind).toBe('limit');
  });
});

describe('spintax in templates', () => {
  it('spins `{a|b}` with Liquid inside, the same way for the same seed', () => {
    const source = '{Hi|Hello|Hey} {{first_name}}, {how are you|{what is new|how is it going}}?';
    const first = render(source, { seed: 'task-1' }).text;
    expect(render(source, { seed: 'task-1' }).text).toBe(first);
    const seen = new Set<string>();
    for (let i = 0; i < 300; i++) seen.add(render(source, { seed: `s${i}` }).text);
    expect(seen.size).toBe(9);
    for (const text of seen)
      expect(text).toMatch(/^(Hi|Hello|Hey) Jane, (how are you|what is new|how is it going)\?$/);
  });

  it('spins the `| spintax` filter form too, seeded', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 100; i++) seen.add(render('{{ "a|b|c" | spintax }}', { seed: `f${i}` }).text);
    expect(seen).toEqual(new Set(['a', 'b', 'c']));
    expect(render('{{ "a|b|c" | spintax }}', { seed: 'x' }).text).toBe(
      render('{{ "a|b|c" | spintax }}', { seed: 'x' }).text,
    );
  });

  it('does not spin braces that come from a contact\u2019s data', () => {
    const braces = buildScope({ ...jane, contact: { first_name: '{A|B}' } });
    expect(renderTemplate('{{first_name}}', braces).text).toBe('{A|B}');
  });
});

describe('checkTemplate', () => {
  it('lists the variables a template reads and the unknown ones', () => {
    expect(
      checkTemplate(
        'Hi {{first_name}} {{ cf_segment }} {{ nope.x }} {% if company.domain %}{a {{sender.first_name}}|b}{% endif %}',
        { lead: ['Segment'], company: [] },
      ),
    ).toEqual({
      errors: [],
      variables: ['first_name', 'cf_segment', 'nope.x', 'company.domain', 'sender.first_name'],
      unknown: ['nope.x'],
    });
    expect(checkTemplate('{{ custom_fields.Other }}', { lead: ['Segment'], company: [] }).unknown).toEqual([
      'custom_fields.Other',
    ]);
    expect(checkTemplate('{{ custom_fields.Other }}').unknown).toEqual([]);
  });

  it('parses every spintax option', () => {
    expect(checkTemplate('{fine|{% if x %}broken}').errors[0]).toMatch(/not closed/);
    expect(checkTemplate('{a {% if x %}y{% endif %}|b}').errors).toEqual([]);
  });

  it('points at the line and column of the source, spintax groups included', () => {
    expect(checkTemplate('Hi {{first_name}, quick question').errors).toEqual([
      'output "{{first_name}, quick question" not closed, line:1, col:4',
    ]);
    expect(checkTemplate('{Hi|Hello} {{ first_name | nofilter }}').errors).toEqual([
      'undefined filter: nofilter, line:1, col:12',
    ]);
    expect(checkTemplate('Dear all,\n{Hi|Hello}\n{% if first_name %}x').errors).toEqual([
      'tag {% if first_name %} not closed, line:3, col:1',
    ]);
  });
});
