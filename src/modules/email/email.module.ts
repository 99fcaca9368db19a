// The e-mail area as one unit for the composition root: mailboxes, e-mails and their bodies, the
// public tracking and OAuth endpoints, and the pieces worker processes run (the engine's driver, the
// IMAP sync). One MailAccess per process holds the pooled SMTP connections.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { SecretBox } from '../../lib/secrets.js';
import { createLocalFileStore } from '../files/storage.js';
import { emailsRoutes } from './emails/emails.routes.js';
import { createEmailsService } from './emails/emails.service.js';
import { mailboxesRoutes } from './mailboxes/mailboxes.routes.js';
import { createMailboxesService } from './mailboxes/mailboxes.service.js';
import { trackingRoutes } from './tracking/tracking.routes.js';
import { createTrackingService } from './tracking/tracking.service.js';
import { trackingDomainsRoutes } from './tracking-domains/tracking-domains.routes.js';
import { createTrackingDomainsService } from './tracking-domains/tracking-domains.service.js';
import { createMailAccess } from './transport/mail-access.js';

export type EmailModuleDeps = { db: Database; config: Config; clock: Clock; box: SecretBox };

export function createEmailModule(deps: EmailModuleDeps) {
  const mail = createMailAccess({ db: deps.db, box: deps.box, config: deps.config });
  const files = createLocalFileStore(deps.config.filesDir);
  return {
    mail,
    mailboxes: createMailboxesService({ db: deps.db, box: deps.box, mail, config: deps.config }),
    emails: createEmailsService({
      db: deps.db,
      box: deps.box,
      mail,
      config: deps.config,
      files,
      clock: deps.clock,
    }),
    tracking: createTrackingService({ db: deps.db, box: deps.box, clock: deps.clock }),
    trackingDomains: createTrackingDomainsService({ db: deps.db, config: deps.config, clock: deps.clock }),
  };
}

export type EmailModule = ReturnType<typeof createEmailModule>;

export const emailModuleRoutes: FastifyPluginAsyncTypebox<{ email: EmailModule }> = async (
  app,
  { email },
) => {
  await app.register(mailboxesRoutes, { mailboxes: email.mailboxes });
  await app.register(emailsRoutes, { emails: email.emails });
  await app.register(trackingRoutes, { tracking: email.tracking });
  await app.register(trackingDomainsRoutes, { trackingDomains: email.trackingDomains });
  app.addHook('onClose', async () => email.mail.close());
};
