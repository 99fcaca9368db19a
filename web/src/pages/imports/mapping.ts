// Suggesting a target for each CSV column from its header: the import's own field names and aliases
// (GET /leads/api/file-imports/targets) and the team's custom fields, compared without case, spaces or dashes.
export const SKIP = '__skip__';

export function normalise(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[\s\-./]+/g, '_')
    .replace(/[^a-z0-9_]/g, '');
}

const COMMON: Record<string, string> = {
  e_mail: 'email',
  mail: 'email',
  firstname: 'first_name',
  lastname: 'last_name',
  surname: 'last_name',
  title: 'position',
  organisation: 'company',
  organization: 'company',
  linkedin_profile: 'linkedin',
  profile_url: 'linkedin',
};

export function suggestTarget(header: string, targets: string[], customFields: string[]): string {
  const key = normalise(header);
  const direct = targets.find((t) => t === key) ?? targets.find((t) => t === COMMON[key]);
  if (direct) return direct;
  const custom = customFields.find((name) => normalise(name) === key);
  return custom ? `custom_fields.${custom}` : SKIP;
}
