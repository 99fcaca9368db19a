// Saving the builder's draft: the flow's settings (PUT) and, when the tree changed, a new version
// (POST .../flow-versions). A 422 is filed under the steps and sources it names; editing a step that
// has problems checks it again with validate-node, so a fix clears its mark before the next save.
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, api, call } from '../../../api';
import type { FlowDetail } from '../flow-types';
import { emptyProblems, type Problems, problemsOf } from './problems';
import { fromVersion, nodeById, toVersionBody } from './tree';
import { type Draft, draftOf, type useDraft } from './useDraft';

export function useSave(flow: FlowDetail, draft: ReturnType<typeof useDraft>) {
  const queryClient = useQueryClient();
  const [problems, setProblems] = useState<Problems>(emptyProblems);
  const [settingsErrors, setSettingsErrors] = useState<Record<string, string[]>>({});
  const [saving, setSaving] = useState(false);
  const current = useRef<Draft>(draft.draft);
  current.current = draft.draft;
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const problemsRef = useRef(problems);
  problemsRef.current = problems;

  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  const run = useCallback(async () => {
    const { tree, settings } = current.current;
    const saved = draftOf(flow);
    const treeChanged = JSON.stringify(tree) !== JSON.stringify(fromVersion(flow));
    const settingsChanged = JSON.stringify(settings) !== JSON.stringify(saved.settings);
    setSaving(true);
    setSettingsErrors({});
    try {
      if (settingsChanged) {
        try {
          await call(
            api.PUT('/flows/api/flows/{flowUuid}', {
              params: { path: { flowUuid: flow.uuid } },
              body: {
                name: settings.name,
                description: settings.description,
                schedule: settings.schedule,
                use_sender_schedule: settings.use_sender_schedule,
                priority: settings.priority,
              },
            }),
          );
        } catch (error) {
          if (error instanceof ApiError && error.status === 422) {
            setSettingsErrors(error.fields);
            setProblems({ ...emptyProblems(), other: [`Flow settings: ${error.message}`] });
            return;
          }
          throw error;
        }
      }
      let moved: { moved: number; ended: number } | undefined;
      if (treeChanged) {
        const body = toVersionBody(tree);
        try {
          const version = await call(
            api.POST('/flows/api/flows/{flowUuid}/flow-versions', {
              params: { path: { flowUuid: flow.uuid } },
              body,
            }),
          );
          moved = version.enrollments;
        } catch (error) {
          if (error instanceof ApiError && error.status === 422) {
            setProblems(
              problemsOf(
                error.fields,
                body.nodes.map((n) => n.id),
                body.contact_sources.map((s) => s.id),
                error.message,
              ),
            );
            return;
          }
          throw error;
        }
      }
      setProblems(emptyProblems());
      const fresh = await call(
        api.GET('/flows/api/flows/{flowUuid}', { params: { path: { flowUuid: flow.uuid } } }),
      );
      queryClient.setQueryData(['flows', 'detail', flow.uuid], fresh);
      void queryClient.invalidateQueries({ queryKey: ['flows', 'list'] });
      draft.rebase(fresh);
      notifications.show({
        color: 'green',
        message:
          moved && moved.moved + moved.ended > 0
            ? `Saved. ${moved.moved} contacts continue on the new version, ${moved.ended} ended (their step was removed).`
            : 'Saved.',
      });
    } catch (error) {
      // Anything else (network, 5xx): the draft stays, in this browser too.
      setProblems({ ...emptyProblems(), other: [error instanceof Error ? error.message : String(error)] });
    } finally {
      setSaving(false);
    }
  }, [flow, draft.rebase, queryClient]);

  /** Checks one step again (debounced) when it has problems, with the API's validate-node. */
  const recheck = useCallback((id: number) => {
    if (!problemsRef.current.nodes.has(id)) return;
    clearTimeout(timers.current.get(id));
    timers.current.set(
      id,
      setTimeout(async () => {
        const node = nodeById(current.current.tree, id);
        if (!node) return;
        const body = toVersionBody(current.current.tree).nodes.find((n) => n.id === id);
        if (!body) return;
        const {
          created_at: _c,
          updated_at: _u,
          ...validatable
        } = body as typeof body & { created_at?: string; updated_at?: string };
        const result = await api.POST('/flows/api/flow-versions/validate-node', { body: validatable });
        const error =
          result.response.status === 204 ? null : new ApiError(result.response.status, result.error);
        const messages = error
          ? Object.values(error.fields)
              .flat()
              .map((m) => m.replace(/^Node \d+ \([^)]*\):\s*/, ''))
          : [];
        if (error && messages.length === 0) messages.push(error.message);
        // Branch ids and references need the tree; validate-node checks what one node can be checked for.
        setProblems((p) => {
          const nodes = new Map(p.nodes);
          if (messages.length === 0) nodes.delete(id);
          else nodes.set(id, messages);
          return { ...p, nodes };
        });
      }, 400),
    );
  }, []);

  /** Shows a 422 of another call about the draft's tree (the preview validates it like a save). */
  const showProblems = useCallback(
    (error: ApiError, body: { nodes: { id: number }[]; contact_sources: { id: number }[] }) => {
      setProblems(
        problemsOf(
          error.fields,
          body.nodes.map((n) => n.id),
          body.contact_sources.map((s) => s.id),
          error.message,
        ),
      );
    },
    [],
  );

  return { run, recheck, showProblems, problems, settingsErrors, saving };
}
