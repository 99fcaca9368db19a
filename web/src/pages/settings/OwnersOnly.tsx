import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import { useSession } from '../../session';

/** What only owners manage: members see why they cannot. */
export function OwnersOnly(props: { what: string; children: ReactNode }) {
  const { isOwner } = useSession();
  if (isOwner) return <>{props.children}</>;
  return <Alert color="gray">Only an owner of this team manages {props.what}. Ask one of them.</Alert>;
}
