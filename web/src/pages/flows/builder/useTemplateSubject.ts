// Whom the template editor renders for: a real contact of the flow's sources (the one the flow preview
// would take first) and the first sender of its first source. Asked for only when `wanted` (a message
// step is open): the one-contact preview it runs is not needed to draw the flow.
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../../api';
import type { Subject } from './MessageEditor';

export function useTemplateSubject(
  flowUuid: string,
  senderUuid: string | undefined,
  wanted: boolean,
): Subject {
  const lead = useQuery({
    queryKey: ['flows', 'template-subject', flowUuid],
    enabled: wanted && senderUuid !== undefined,
    staleTime: 5 * 60_000,
    retry: false,
    queryFn: async () => {
      const result = await call(
        api.POST('/flows/api/flows/{flowUuid}/preview', {
          params: { path: { flowUuid } },
          body: { sample: 1, days: 1, detail: 1 },
        }),
      );
      return result.enrollments[0] ?? null;
    },
  });
  if (!senderUuid) return null;
  if (lead.isPending) return undefined;
  if (!lead.data) return null;
  return { leadUuid: lead.data.lead_uuid, leadName: lead.data.name, senderUuid };
}
