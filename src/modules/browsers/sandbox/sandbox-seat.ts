// The sandbox seat kind: its seats act on, read and receive from the simulated network of this
// installation (no browser). One driver and one reader serve every sandbox seat of a registry; the
// network's answers are a push the engine's loop delivers to the given inbox sink.
import type { Database } from '../../../db/database.js';
import type { InboxSink } from '../../channels/inbox.js';
import type { SeatKind } from '../../channels/registry.js';
import { createSandboxDriver, type SandboxSettings } from './sandbox-driver.js';
import { createSandboxInbox } from './sandbox-inbox.js';
import { createSandboxReader } from './sandbox-reader.js';
import { sandboxResponder } from './sandbox-responder.js';

export function sandboxSeatKind(db: Database, settings: SandboxSettings, ingest: InboxSink): SeatKind {
  let driver: ReturnType<typeof createSandboxDriver> | undefined;
  let reader: ReturnType<typeof createSandboxReader> | undefined;
  return {
    driver: () => {
      driver ??= createSandboxDriver(db, settings);
      return driver;
    },
    reader: () => {
      reader ??= createSandboxReader(settings);
      return reader;
    },
    inbox: () => createSandboxInbox(db),
    push: sandboxResponder(db, ingest),
  };
}
