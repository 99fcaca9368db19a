// Flow versions: immutable trees. Saving validates the whole tree (one 422 listing every problem),
// stores it, makes it the active version and moves the live enrollments onto it - in one transaction
// under the flow's row lock, so two saves (or a save and an enrollment) never interleave.
import type { Database } from '../../../db/database.js';
import { AppError, invalidField, notFound } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { NODE_TYPE_NAMES, nodeDefinition } from '../../engine/index.js';
import { syncFilterSources } from '../enrollments/filter-sources.js';
import { selectFlow, updateFlow } from '../flows.repository.js';
import type { FlowHooks } from '../flows.service.js';
import type { ReferenceCheckers } from './references.js';
import {
  contactSourceFilters,
  contactSourceReferences,
  nodeFilters,
  nodeProblems,
  nodeReferences,
  normalizeContactSource,
  normalizeNode,
  type StoredContactSource,
  type Tree,
  treeProblems,
} from './tree-validation.js';
import { assertNoProblems, teamProblems } from './validate.js';
import { switchEnrollments } from './version-switch.js';
import * as repo from './versions.repository.js';
import type { ContactSourceInput, NodeInput, SaveVersionBody } from './versions.schemas.js';

function present(version: repo.VersionRow, activeUuid: string | undefined) {
  return {
    uuid: version.uuid,
    team_id: version.team_id,
    flow_uuid: version.flow_uuid,
    nodes: version.nodes,
    contact_sources: version.contact_sources,
    first_common_node_id: version.first_common_node_id,
    is_active: version.uuid === activeUuid,
    created_at: version.created_at,
  };
}

export function createFlowVersionsService(deps: {
  db: Database;
  references: ReferenceCheckers;
  hooks?: FlowHooks;
}) {
  const { db } = deps;

  async function validateTree(teamId: number, flowUuid: string, tree: Tree) {
    const problems = treeProblems(tree, { flowUuid });
    problems.push(
      ...(await teamProblems(
        db,
        teamId,
        {
          references: [
            ...tree.nodes.flatMap(nodeReferences),
            ...tree.contact_sources.flatMap(contactSourceReferences),
          ],
          filters: [
            ...tree.nodes.flatMap(nodeFilters),
            ...tree.contact_sources.flatMap(contactSourceFilters),
          ],
        },
        deps.references,
      )),
    );
    assertNoProblems(problems);
  }

  /** The tree `body` would save, validated as a save validates it (a 422 listing every problem). */
  async function validateDraft(
    teamId: number,
    flowUuid: string,
    body: SaveVersionBody,
    field = '',
  ): Promise<Tree> {
    if (body.contact_sources.length === 0) {
      throw invalidField(`${field}contact_sources`, 'The contact sources field is required.');
    }
    const now = new Date().toISOString();
    const tree: Tree = {
      nodes: body.nodes.map((node) => normalizeNode(node, now)),
      contact_sources: body.contact_sources.map(normalizeContactSource),
      first_common_node_id: body.first_common_node_id ?? null,
    };
    await validateTree(teamId, flowUuid, tree);
    return tree;
  }

  return {
    async listVersions(teamId: number, flowUuid: string) {
      const flow = await selectFlow(db, teamId, flowUuid);
      if (!flow) throw notFound('Flow');
      const versions = await repo.selectVersionsOfFlow(db, teamId, flowUuid);
      return versions.map((version) => present(version, flow.flow_version_uuid));
    },

    async getVersion(teamId: number, uuid: string) {
      const version = await repo.selectVersion(db, teamId, uuid);
      if (!version) throw notFound('Flow version');
      const flow = await selectFlow(db, teamId, version.flow_uuid);
      return present(version, flow?.flow_version_uuid);
    },

    validateDraft,

    async saveVersion(teamId: number, flowUuid: string, body: SaveVersionBody) {
      if (!(await selectFlow(db, teamId, flowUuid))) throw notFound('Flow');
      const tree = await validateDraft(teamId, flowUuid, body);
      return db.transaction().execute(async (trx) => {
        const flow = await selectFlow(trx, teamId, flowUuid, true);
        if (!flow) throw notFound('Flow');
        const version = await repo.insertVersion(trx, {
          team_id: teamId,
          uuid: newId(),
          flow_uuid: flowUuid,
          ...tree,
        });
        await updateFlow(trx, teamId, flowUuid, { flow_version_uuid: version.uuid });
        const enrollments = await switchEnrollments(trx, teamId, flowUuid, version);
        await syncFilterSources(trx, teamId, flowUuid, version);
        if (flow.status === 'on') await deps.hooks?.onActivated?.(trx, teamId, flowUuid);
        return { ...present(version, version.uuid), enrollments };
      });
    },

    async deleteVersion(teamId: number, uuid: string) {
      await db.transaction().execute(async (trx) => {
        const version = await repo.selectVersion(trx, teamId, uuid);
        if (!version) throw notFound('Flow version');
        const flow = await selectFlow(trx, teamId, version.flow_uuid, true);
        if (flow?.flow_version_uuid === uuid) {
          throw new AppError(
            'validation_error',
            'This is the active version of its flow and cannot be deleted; save a new version first.',
            { uuid: ['is the active version'] },
          );
        }
        await repo.deleteVersion(trx, teamId, uuid);
      });
    },

    /** One node on its own: its type, payload, branch ids and references (not tree-wide rules). */
    async validateNode(teamId: number, input: NodeInput) {
      const node = normalizeNode(input, new Date().toISOString());
      const problems = nodeProblems(node);
      if (problems.length === 0) {
        problems.push(
          ...(await teamProblems(
            db,
            teamId,
            { references: nodeReferences(node), filters: nodeFilters(node) },
            deps.references,
          )),
        );
      }
      assertNoProblems(problems);
    },

    /** One contact source on its own: senders exist, the filter compiles. Answers it as stored. */
    async validateContactSource(teamId: number, input: ContactSourceInput): Promise<StoredContactSource> {
      const source = normalizeContactSource(input);
      assertNoProblems(
        await teamProblems(
          db,
          teamId,
          { references: contactSourceReferences(source), filters: contactSourceFilters(source) },
          deps.references,
        ),
      );
      return source;
    },

    nodeTypes() {
      return NODE_TYPE_NAMES.map((type) => {
        const definition = nodeDefinition(type)!;
        return {
          type,
          category: definition.category,
          description: definition.types[type]!,
          branches:
            definition.branches.kind === 'payload'
              ? ('payload' as const)
              : definition.branches.kind === 'none'
                ? []
                : [...definition.branches.ids],
          needs_sender: definition.needs?.includes('sender') ?? false,
          payload_schema: definition.payload as unknown as Record<string, unknown>,
        };
      });
    },
  };
}

export type FlowVersionsService = ReturnType<typeof createFlowVersionsService>;
