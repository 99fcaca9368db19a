// The files module's composition: one file store (local directory under config.filesDir), the
// import and export use cases on top of it, their background jobs and the file retention job.
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { JobHandler } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import { exportJobHandler } from './export-runner.js';
import { createExportsService } from './exports.service.js';
import { removeExpiredFilesHandler } from './files.retention.js';
import { importJobHandler } from './import-runner.js';
import { createImportsService } from './imports.service.js';
import { createLocalFileStore, type FileStore } from './storage.js';

export function createFilesService(deps: {
  db: Database;
  config: Pick<Config, 'filesDir' | 'uploadMaxBytes' | 'retention'>;
  clock: Clock;
  store?: FileStore;
}) {
  const store = deps.store ?? createLocalFileStore(deps.config.filesDir);
  const imports = createImportsService({ db: deps.db, store, uploadMaxBytes: deps.config.uploadMaxBytes });
  const exports = createExportsService({ db: deps.db, store });
  const jobs: JobHandler[] = [
    importJobHandler({ db: deps.db, store }) as JobHandler,
    exportJobHandler({ db: deps.db, store }) as JobHandler,
    removeExpiredFilesHandler({
      db: deps.db,
      store,
      clock: deps.clock,
      retentionDays: deps.config.retention.fileDays,
    }) as JobHandler,
  ];
  return { store, imports, exports, jobs, uploadMaxBytes: deps.config.uploadMaxBytes };
}

export type FilesService = ReturnType<typeof createFilesService>;
