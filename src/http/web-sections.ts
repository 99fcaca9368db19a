// The first path segments of the web application's pages. The server answers index.html for these
// (and only these) paths, so every other unknown path stays a 404; the app's router uses the same list.
export const WEB_SECTIONS = [
  'sign-in',
  'welcome',
  'invite',
  'contacts',
  'companies',
  'pipeline',
  'tasks',
  'inbox',
  'imports',
  'senders',
  'settings',
  'flows',
  'analytics',
] as const;

export type WebSection = (typeof WEB_SECTIONS)[number];
