// The flows area as one unit for the composition root: its services (flows, folders, versions...) and
// one route plugin that registers all of theirs.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '../../db/database.js';
// Adds the flow mass actions (contact_add_to_flow, contact_cancel_from_flows) to the contacts'.
import './enrollments/enrollments.mass-actions.js';
import { enrollmentsRoutes } from './enrollments/enrollments.routes.js';
import { createEnrollmentsService } from './enrollments/enrollments.service.js';
import { fillContactSourcesHandler, startFilling } from './enrollments/filter-sources.js';
import { flowsRoutes } from './flows.routes.js';
import { createFlowsService, type FlowHooks } from './flows.service.js';
import { flowPreviewRoutes } from './preview/preview.routes.js';
import { createFlowPreviewService, type PreviewDeps } from './preview/preview.service.js';
import { flowStatisticsRoutes } from './statistics/statistics.routes.js';
import { createFlowStatisticsService } from './statistics/statistics.service.js';
import { defaultReferenceCheckers, type ReferenceCheckers } from './versions/references.js';
import { flowVersionsRoutes } from './versions/versions.routes.js';
import { createFlowVersionsService } from './versions/versions.service.js';
import { flowWorkspacesRoutes } from './workspaces/workspaces.routes.js';
import { createFlowWorkspacesService } from './workspaces/workspaces.service.js';

export function createFlowsModule(deps: {
  db: Database;
  /** Reference checkers of modules added later (ai_template, attachment...), over the defaults. */
  references?: ReferenceCheckers;
  /** What the preview simulates with (the template renderer, the sandbox's and the engine's settings). */
  preview: Omit<PreviewDeps, 'db' | 'versions'>;
}) {
  const references = { ...defaultReferenceCheckers, ...deps.references };
  const hooks: FlowHooks = { onActivated: startFilling };
  const versions = createFlowVersionsService({ db: deps.db, references, hooks });
  return {
    flows: createFlowsService({ db: deps.db, hooks }),
    workspaces: createFlowWorkspacesService({ db: deps.db }),
    versions,
    preview: createFlowPreviewService({ db: deps.db, versions, ...deps.preview }),
    enrollments: createEnrollmentsService({ db: deps.db }),
    statistics: createFlowStatisticsService({ db: deps.db }),
    jobs: [fillContactSourcesHandler({ db: deps.db })],
  };
}

export type FlowsModule = ReturnType<typeof createFlowsModule>;

export const flowsModuleRoutes: FastifyPluginAsyncTypebox<{ flows: FlowsModule }> = async (
  app,
  { flows },
) => {
  await app.register(flowsRoutes, { flows: flows.flows });
  await app.register(flowWorkspacesRoutes, { workspaces: flows.workspaces });
  await app.register(flowVersionsRoutes, { versions: flows.versions });
  await app.register(enrollmentsRoutes, { enrollments: flows.enrollments });
  await app.register(flowStatisticsRoutes, { statistics: flows.statistics });
  await app.register(flowPreviewRoutes, { preview: flows.preview });
};
