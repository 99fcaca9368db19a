// Custom tracking domains (api-facts 4.8, used by the hosted MCP server): a host of the team's domain,
// pointed with a CNAME at this server's public host, that its e-mails' tracked links, open pixels and
// unsubscribe URLs use once the CNAME is verified. Verification asks DNS through an injectable resolver
// (LEADFLOW_DNS_SERVERS picks the servers; tests run a local one).
import { promises as dns, Resolver } from 'node:dns';
import type { Config } from '../../../config.js';
import type { Database } from '../../../db/database.js';
import type { Clock } from '../../../lib/clock.js';
import { invalidField, notFound } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { envelope, type PageParams, resolvePage } from '../../../lib/pagination.js';
import * as repo from './tracking-domains.repository.js';

export type CnameResolver = (host: string) => Promise<string[]>;

const HOSTNAME = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

const bare = (host: string) => host.trim().toLowerCase().replace(/\.$/, '');

/** The resolver of the configured DNS servers, or the system's. */
export function cnameResolver(servers: readonly string[]): CnameResolver {
  if (servers.length === 0) return (host) => dns.resolveCname(host);
  const resolver = new Resolver({ timeout: 2000, tries: 2 });
  resolver.setServers([...servers]);
  return (host) =>
    new Promise((resolve, reject) =>
      resolver.resolveCname(host, (error, records) => (error ? reject(error) : resolve(records))),
    );
}

export function createTrackingDomainsService(deps: {
  db: Database;
  config: Pick<Config, 'publicUrl' | 'dnsServers'>;
  clock: Clock;
  resolveCname?: CnameResolver;
}) {
  const { db, clock } = deps;
  const resolveCname = deps.resolveCname ?? cnameResolver(deps.config.dnsServers);
  const target = () => bare(new URL(deps.config.publicUrl).hostname);

  function present(row: NonNullable<Awaited<ReturnType<typeof repo.selectTrackingDomain>>>) {
    const expected = target();
    return {
      ...row,
      cname_target: expected,
      dns: { cname: { expected, found: row.cname_found, ok: row.status === 'verified' } },
    };
  }

  async function requireDomain(teamId: number, uuid: string) {
    const row = await repo.selectTrackingDomain(db, teamId, uuid);
    if (!row) throw notFound('Custom tracking domain');
    return row;
  }

  return {
    async list(teamId: number, params: PageParams) {
      const page = resolvePage(params, repo.trackingDomainSort);
      const { rows, total } = await repo.selectTrackingDomains(db, teamId, page);
      return envelope(rows.map(present), total, page);
    },

    async get(teamId: number, uuid: string) {
      return present(await requireDomain(teamId, uuid));
    },

    async create(teamId: number, input: { domain: string }) {
      const domain = bare(input.domain);
      if (!HOSTNAME.test(domain)) {
        throw invalidField(
          'domain',
          `domain must be a host name such as track.example.com (got "${input.domain}").`,
        );
      }
      if (domain === target()) throw invalidField('domain', 'domain is this server\u2019s own host.');
      return present(await repo.insertTrackingDomain(db, { team_id: teamId, uuid: newId(), domain }));
    },

    /** Looks the CNAME up now and records the outcome. */
    async verify(teamId: number, uuid: string) {
      const row = await requireDomain(teamId, uuid);
      const expected = target();
      let found: string[] = [];
      let error: string | null = null;
      try {
        found = (await resolveCname(row.domain)).map(bare);
      } catch (cause) {
        const code = (cause as NodeJS.ErrnoException).code;
        error =
          code === 'ENODATA' || code === 'ENOTFOUND'
            ? `${row.domain} has no CNAME record.`
            : `The DNS lookup of ${row.domain} failed (${code ?? 'error'}).`;
      }
      const verified = found.includes(expected);
      if (!verified && error === null) {
        error = `${row.domain} points at ${found.join(', ')}, not at ${expected}.`;
      }
      const updated = await repo.recordCheck(db, teamId, uuid, { verified, found, error, at: clock.now() });
      if (!updated) throw notFound('Custom tracking domain');
      return present(updated);
    },

    async remove(teamId: number, uuid: string) {
      const deleted = await db.transaction().execute((trx) => repo.deleteTrackingDomain(trx, teamId, uuid));
      if (!deleted) throw notFound('Custom tracking domain');
    },
  };
}

export type TrackingDomainsService = ReturnType<typeof createTrackingDomainsService>;

/** A mailbox's custom_tracking_domain_uuid must name one of the team's domains (422 naming it). */
export async function requireTrackingDomainRef(
  db: Database,
  teamId: number,
  uuid: string | null | undefined,
) {
  if (uuid === null || uuid === undefined) return;
  if (!(await repo.selectTrackingDomain(db, teamId, uuid))) {
    throw invalidField(
      'custom_tracking_domain_uuid',
      'custom_tracking_domain_uuid does not name one of your custom tracking domains.',
    );
  }
}
