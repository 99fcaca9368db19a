import { SectionLayout } from '../../ui/SectionLayout';

const SECTIONS = [
  { to: '/settings/team', label: 'Team' },
  { to: '/settings/members', label: 'Members' },
  { to: '/settings/api-keys', label: 'API keys' },
  { to: '/settings/webhooks', label: 'Webhooks' },
  { to: '/settings/lists', label: 'Lists' },
  { to: '/settings/tags', label: 'Tags' },
  { to: '/settings/stages', label: 'Stages' },
  { to: '/settings/custom-fields', label: 'Custom fields' },
  { to: '/settings/blacklist', label: 'Blacklist' },
] as const;

export function SettingsLayout() {
  return <SectionLayout title="Settings" navLabel="Settings sections" sections={SECTIONS} />;
}
