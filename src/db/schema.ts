// The database as Kysely sees it: each module declares its own tables next to its code and this
// file merges them. Keep these in step with the migrations.
import type { JobsTables } from '../jobs/jobs.tables.js';
import type { IdentityTables } from '../modules/identity/identity.tables.js';

export interface DB extends IdentityTables, JobsTables {}
