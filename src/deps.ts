// Composition root: every module's service is created here with its explicit dependencies, and every
// module's job handlers are merged into the one catalog the workers run.
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import type { JobHandler } from './jobs/queue.js';
import type { Clock } from './lib/clock.js';
import { createIdentityService } from './modules/identity/identity.service.js';
import { purgeDeletedLeadsHandler } from './modules/leads/lead-deletion.js';
import { createListsService } from './modules/lists/lists.service.js';
import { seedDefaultPipelineStages } from './modules/pipeline-stages/pipeline-stages.defaults.js';

export type ServiceDeps = { db: Database; config: Config; clock: Clock };

export function createServices(deps: ServiceDeps) {
  const identity = createIdentityService({ db: deps.db, onTeamCreated: [seedDefaultPipelineStages] });
  const lists = createListsService({ db: deps.db });
  return { identity, lists };
}

export type Services = ReturnType<typeof createServices>;

export function createJobCatalog(_services: Services, deps: ServiceDeps): JobHandler[] {
  return [purgeDeletedLeadsHandler({ db: deps.db, steps: [] })];
}
