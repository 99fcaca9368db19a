import { SectionLayout } from '../../ui/SectionLayout';

const SECTIONS = [
  { to: '/senders', label: 'Sender profiles' },
  { to: '/senders/seats', label: 'LinkedIn seats' },
  { to: '/senders/mailboxes', label: 'Mailboxes' },
] as const;

export function SendersLayout() {
  return <SectionLayout title="Senders" navLabel="Sender sections" sections={SECTIONS} />;
}
