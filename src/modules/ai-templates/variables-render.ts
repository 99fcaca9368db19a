// POST /ai/api/templates/{uuid}/render {variables}: a saved template filled with values the client gives
// instead of a contact's and a sender's (the hosted AI API's render, used by its MCP server). Keys are
// variable names as templates write them: first_name, company_name, company.domain (or company:
// {domain}), custom_fields.Industry (or custom_fields: {...}), sender.first_name (or sender: {...}).
import { Type } from 'typebox';
import { withExample } from '../../http/schemas.js';
import type { TemplateData } from '../templates/render/scope.js';

export const RenderWithVariablesBody = withExample(
  Type.Object(
    {
      variables: Type.Optional(
        Type.Record(Type.String({ maxLength: 200 }), Type.Unknown(), {
          description:
            'Values by variable name: first_name, company_name, company.domain (or company: {...}), ' +
            'custom_fields.<name> (or custom_fields: {...}), sender.first_name (or sender: {...}). ' +
            'Unnamed variables print blank (missing_variables lists them)',
        }),
      ),
      seed: Type.Optional(
        Type.String({ minLength: 1, maxLength: 200, description: 'Fixes the spintax picks' }),
      ),
    },
    { additionalProperties: false },
  ),
  { variables: { first_name: 'Jane', company_name: 'Acme', 'sender.first_name': 'Max' } },
);

const GROUPS = ['company', 'custom_fields', 'sender'] as const;
type Group = (typeof GROUPS)[number];

/** Template data from a client's variables (nested objects or dotted names, both). */
export function templateDataFromVariables(variables: Record<string, unknown> = {}): TemplateData {
  const groups: Record<Group, Record<string, unknown>> = { company: {}, custom_fields: {}, sender: {} };
  const contact: Record<string, unknown> = {};
  const companyCustomFields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(variables)) {
    const [head, ...rest] = key.split('.');
    const group = GROUPS.find((name) => name === head);
    if (group && rest.length > 0) {
      if (group === 'company' && rest[0] === 'custom_fields' && rest.length > 1) {
        companyCustomFields[rest.slice(1).join('.')] = value;
      } else groups[group][rest.join('.')] = value;
    } else if (group && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      Object.assign(groups[group], value);
    } else contact[key] = value;
  }
  const nestedCompanyFields = groups.company.custom_fields;
  if (nestedCompanyFields && typeof nestedCompanyFields === 'object') {
    Object.assign(companyCustomFields, nestedCompanyFields);
    delete groups.company.custom_fields;
  }
  return {
    contact: contact as TemplateData['contact'],
    company: Object.keys(groups.company).length > 0 ? (groups.company as TemplateData['company']) : null,
    customFields: groups.custom_fields,
    companyCustomFields,
    sender: Object.keys(groups.sender).length > 0 ? (groups.sender as TemplateData['sender']) : null,
  };
}
