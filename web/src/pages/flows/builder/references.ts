// The team's records a node's payload can name (tags, lists, stages, senders, flows, AI templates,
// webhooks), as choices for a select, loaded when a field needs them and cached by TanStack Query.
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../../api';

export type ReferenceKind =
  | 'tag'
  | 'list'
  | 'pipeline_stage'
  | 'sender_profile'
  | 'flow'
  | 'ai_template'
  | 'webhook';
export type Choice = { value: string; label: string };

/** The kind of record a payload field names, by its name (the catalogue's convention). */
export function referenceKindOf(field: string): ReferenceKind | null {
  switch (field) {
    case 'tag_uuid':
      return 'tag';
    case 'list_uuid':
      return 'list';
    case 'pipeline_stage_uuid':
      return 'pipeline_stage';
    case 'sender_profile_uuid':
    case 'sender_profiles':
      return 'sender_profile';
    case 'flow_uuid':
    case 'flow_uuids':
      return 'flow';
    case 'template_uuid':
      return 'ai_template';
    case 'webhook_uuid':
      return 'webhook';
    default:
      return null;
  }
}

const ALL = { limit: 1000 } as const;

async function load(kind: ReferenceKind): Promise<Choice[]> {
  switch (kind) {
    case 'tag':
      return (await call(api.GET('/leads/api/tags', { params: { query: ALL } }))).data.map((t) => ({
        value: t.uuid,
        label: t.name,
      }));
    case 'list':
      return (await call(api.GET('/leads/api/lists', { params: { query: ALL } }))).data.map((l) => ({
        value: l.uuid,
        label: l.name,
      }));
    case 'pipeline_stage':
      return (await call(api.GET('/leads/api/pipeline-stages', { params: { query: ALL } }))).data.map(
        (s) => ({
          value: s.uuid,
          label: `${s.name} (${s.object})`,
        }),
      );
    case 'sender_profile':
      return (await call(api.GET('/flows/api/sender-profiles', { params: { query: ALL } }))).data.map(
        (s) => ({
          value: s.uuid,
          label: [s.first_name, s.last_name].filter(Boolean).join(' ') || s.uuid,
        }),
      );
    case 'flow':
      return (await call(api.GET('/flows/api/flows', { params: { query: ALL } }))).data.map((f) => ({
        value: f.uuid,
        label: f.name,
      }));
    case 'ai_template':
      return (await call(api.GET('/flows/api/ai-templates', { params: { query: ALL } }))).data.map((t) => ({
        value: t.uuid,
        label: t.name,
      }));
    case 'webhook':
      return (await call(api.GET('/integrations/api/webhooks', { params: { query: ALL } }))).data.map(
        (w) => ({
          value: w.uuid,
          label: w.name || w.target_url,
        }),
      );
  }
}

export function useReferences(kind: ReferenceKind | null) {
  return useQuery({
    queryKey: ['references', kind],
    queryFn: () => load(kind as ReferenceKind),
    enabled: kind !== null,
    staleTime: 60_000,
  });
}
