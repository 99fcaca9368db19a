import { SectionLayout } from '../../ui/SectionLayout';

const SECTIONS = [
  { to: '/tasks', label: 'My day' },
  { to: '/tasks/list', label: 'All tasks' },
  { to: '/tasks/held', label: 'Held contacts' },
] as const;

export function TasksLayout() {
  return <SectionLayout title="Tasks" navLabel="Task views" sections={SECTIONS} />;
}
